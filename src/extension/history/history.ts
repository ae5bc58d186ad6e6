// History: a quick pick of saved conversations with live full-text search as the user types,
// per-item buttons to rename, export and delete (with undo), and Import Conversation…, Import All…
// and Export All… beside New Chat.
import * as vscode from 'vscode';
import type { ConversationSummary } from '../../core';
import { ITEM_BUTTONS, itemButton, type HistoryDeps } from './historyItems';

/** `command`: an item that runs the export room's command (History does not reach into another feature). */
type Item = vscode.QuickPickItem & { id?: string; newChat?: boolean; command?: string };

/** Keystrokes closer together than this are searched once, after the last; one after a pause at once. */
const SEARCH_DELAY_MS = 30;
/**
 * Listed first; the rest a moment later (thousands of items are slow to reach the window), and
 * only once the listing is whole: while the history index is rebuilt, the page is brought up to date.
 */
const FIRST_PAGE = 200;
const FULL_LIST_DELAY_MS = 400;

function toItem(c: ConversationSummary, currentId: string, matches?: number): Item {
  const parts = [vscode.l10n.t('{0} messages', c.messageCount)];
  if (c.forkedFrom) parts.unshift(vscode.l10n.t('$(repo-forked) forked from “{0}”', c.forkedFrom.title));
  if (c.model) parts.push(c.model);
  parts.push(new Date(c.updatedAt).toLocaleString());
  return {
    label: (c.id === currentId ? '$(check) ' : '') + c.title,
    description: parts.join(' · '),
    detail: matches !== undefined ? `$(search) ${matches === 1 ? vscode.l10n.t('1 matching message') : vscode.l10n.t('{0} matching messages', matches)}${c.firstLine ? ' · ' + c.firstLine : ''}` : c.firstLine || undefined,
    id: c.id,
    buttons: ITEM_BUTTONS,
    // Items are matched by content, not only by label: the quick pick must not filter them out.
    alwaysShow: true,
  };
}

export async function showHistory(deps: HistoryDeps, initialQuery = ''): Promise<void> {
  const qp = vscode.window.createQuickPick<Item>();
  const title = vscode.l10n.t('AI Chat: History');
  qp.title = title;
  qp.placeholder = vscode.l10n.t('Search every message, or pick a conversation');
  qp.matchOnDescription = false;
  qp.matchOnDetail = false;
  qp.value = initialQuery;
  const newChatItem: Item = { label: vscode.l10n.t('$(add) New Chat'), newChat: true, alwaysShow: true };
  const importItem: Item = { label: vscode.l10n.t('$(cloud-download) Import Conversation…'), command: 'aiChat.importConversation', alwaysShow: true };
  const archiveItems: Item[] = [
    { label: vscode.l10n.t('$(cloud-download) Import All…'), description: vscode.l10n.t('every conversation of an archive'), command: 'aiChat.importAll', alwaysShow: true },
    { label: vscode.l10n.t('$(cloud-upload) Export All…'), description: vscode.l10n.t('every conversation into one archive'), command: 'aiChat.exportAll', alwaysShow: true },
  ];
  let all: ConversationSummary[] = [];
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastKeystroke = 0;
  /** While the full-text index is built: searched as far as it goes, and said so. */
  let indexing = deps.store.searchProgress;
  /** The history index is being rebuilt: the listing is what was read so far. */
  let partial = false;
  let firstPage = true;
  /** The first page is out and the whole list is sent in a moment (with the current conversation then). */
  let fullListPending = false;
  /** The last window's conversation is back (or could not be read, which its own path reports). */
  const restored = () => deps.restoreCurrent?.() ?? Promise.resolve();

  const progressText = () =>
    indexing.total ? vscode.l10n.t('Indexing… {0} of {1}', indexing.done, indexing.total) : vscode.l10n.t('Loading the search index…');
  const progressItem = (query: string): Item => ({
    label: `$(sync~spin) ${progressText()}`,
    detail: vscode.l10n.t('No match for “{0}” in the conversations indexed so far; more appear as they are indexed.', query),
    alwaysShow: true,
  });
  const render = async () => {
    const gen = ++generation;
    const query = qp.value.trim();
    const current = deps.currentId();
    if (!query) {
      // The list grows while the history index is rebuilt: the item the user is on stays so.
      const active = qp.activeItems[0]?.id;
      const items = [
        newChatItem,
        importItem,
        ...archiveItems,
        ...(all.length ? [{ label: vscode.l10n.t('Saved conversations'), kind: vscode.QuickPickItemKind.Separator } as Item] : []),
        ...all.slice(0, firstPage || partial ? FIRST_PAGE : undefined).map((c) => toItem(c, current)),
      ];
      qp.items = items;
      if (firstPage && !partial && all.length > FIRST_PAGE) {
        firstPage = false;
        fullListPending = true;
        // (Not sent at all when the user types first: ten thousand items take the window a while.)
        setTimeout(() => {
          fullListPending = false;
          if (gen === generation) void render();
        }, FULL_LIST_DELAY_MS);
      }
      const keep = active && items.find((i) => i.id === active);
      if (keep) qp.activeItems = [keep];
      if (!all.length) qp.placeholder = partial ? progressText() : vscode.l10n.t('No saved conversations yet');
      return;
    }
    const lower = query.toLowerCase();
    const byTitle = all.filter((c) => c.title.toLowerCase().includes(lower));
    const building = indexing.building;
    const pending = deps.store.search(query);
    // The index still loading: the titles that match are shown meanwhile.
    let wait: ReturnType<typeof setTimeout> | undefined;
    const early = await Promise.race([pending, new Promise<undefined>((resolve) => (wait = setTimeout(() => resolve(undefined), 50)))]);
    clearTimeout(wait);
    const slow = !early && gen === generation;
    if (slow) {
      qp.busy = true;
      qp.items = byTitle.length ? byTitle.map((c) => toItem(c, current)) : [progressItem(query)];
    }
    let hits;
    try {
      hits = early ?? (await pending);
    } finally {
      // (Each change of the quick pick is a message to the window: only when it was set.)
      if (slow && gen === generation) qp.busy = false;
    }
    if (gen !== generation) return; // the user typed on meanwhile
    const seen = new Set<string>();
    const items: Item[] = [];
    for (const h of hits) {
      seen.add(h.id);
      items.push(toItem(h, current, h.matches));
    }
    for (const c of byTitle) if (!seen.has(c.id)) items.push(toItem(c, current));
    if (items.length) qp.items = items;
    else if (building) qp.items = [progressItem(query)];
    else qp.items = [{ label: vscode.l10n.t('No conversation contains “{0}”', query), alwaysShow: true }];
  };
  const reload = async () => {
    all = await deps.store.list();
    partial = deps.store.listingPartial;
    await render();
  };
  const schedule = (delay = SEARCH_DELAY_MS) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void render().catch((err) => deps.logger.warn('History search failed', { message: String(err) })), delay);
  };
  /** A keystroke: searched at once after a pause; while the user types on, once they stop. */
  const typed = () => {
    const now = Date.now();
    const paused = now - lastKeystroke > SEARCH_DELAY_MS;
    lastKeystroke = now;
    schedule(paused ? 0 : SEARCH_DELAY_MS);
  };

  let open = true;
  const done = new Promise<void>((resolve) =>
    qp.onDidHide(() => {
      open = false;
      resolve();
    }),
  );
  // While the index is built: the progress in the title, and the results found so far brought up to date now and then.
  let lastProgressRender = 0;
  let lastProgressTitle = 0;
  const showProgress = () => {
    qp.title = indexing.building ? `${title} · ${progressText()}` : title;
  };
  const stopProgress = deps.store.onSearchProgress((p) => {
    indexing = p;
    const now = Date.now();
    // The title follows a few times a second (each change is a message to the window).
    if (!p.building || now - lastProgressTitle > 200) {
      lastProgressTitle = now;
      showProgress();
    }
    if ((qp.value.trim() || partial) && (!p.building || now - lastProgressRender > 500)) {
      lastProgressRender = now;
      if (qp.value.trim()) schedule();
      else void reload().catch((err) => deps.logger.warn('History could not be read', { message: String(err) }));
    }
  });
  qp.onDidChangeValue(typed);
  qp.onDidAccept(async () => {
    const picked = qp.selectedItems[0];
    if (!picked || (!picked.id && !picked.newChat && !picked.command)) return;
    qp.hide();
    if (picked.newChat) return deps.newChat();
    // The export room's command (History does not reach into another feature).
    if (picked.command) return void (await vscode.commands.executeCommand(picked.command));
    if (picked.id && !(await deps.open(picked.id, qp.value.trim() || undefined))) {
      void vscode.window.showWarningMessage(vscode.l10n.t('That conversation could not be opened: its file is missing or damaged. Pick another one, or start a New Chat.'));
    }
    await deps.show();
  });
  qp.onDidTriggerItemButton(async ({ item, button }) => {
    if (!item.id) return;
    await itemButton(button, item.id, {
      deps,
      summary: all.find((c) => c.id === item.id),
      query: qp.value,
      hide: () => qp.hide(),
      reload,
      restored,
      again: (query) => void showHistory(deps, query),
    });
  });

  qp.busy = true;
  showProgress();
  qp.show();
  try {
    // Listed from the history index alone; the full-text index is built behind it.
    await reload();
  } catch (err) {
    deps.logger.warn('History could not be read', { message: String(err) });
    qp.placeholder = vscode.l10n.t('History could not be read; see the AI Chat output channel. Titles are still listed.');
  } finally {
    qp.busy = false;
  }
  // The last window's conversation, reopened now that the list is on screen: its item is marked
  // (by the whole list about to be sent, or now).
  const listedCurrent = deps.currentId();
  await restored();
  if (open && !fullListPending && deps.currentId() !== listedCurrent) void render().catch((err) => deps.logger.warn('History could not be read', { message: String(err) }));
  // Then the full-text index catches up with conversations changed elsewhere, or is rebuilt after a
  // crash or an upgrade, in the background: History is usable meanwhile, and says how far it is.
  // Started once the first page is out and the current conversation is back (a large index takes a
  // while to load, and reading both at once slows each; a search typed before then loads it itself).
  void deps.store.catchUpSearch().catch((err) => {
    deps.logger.warn('The search index could not be brought up to date', { message: String(err) });
    qp.title = `${title} · ${vscode.l10n.t('Search covers only the conversations indexed so far; see the AI Chat output channel.')}`;
  });
  await done;
  stopProgress();
  if (timer) clearTimeout(timer);
  qp.dispose();
}
