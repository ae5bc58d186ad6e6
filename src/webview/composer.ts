// The message box and what is around it: the chips of the next message's attachments, the note
// that the box holds the API key, the `/` and `#` menus, the box itself, the bar below it (attach, the
// status line, the context meter, the cost of the next message, Send / Stop), and the error of a
// refused send above it. The draft survives hiding and reloading the panel: it is kept in the
// webview's state and posted to the host (never while the host says it holds the API key).
import * as l10n from '@vscode/l10n';
import { nextMessageText } from '../wording';
import { appendToDraft, MAX_TEXT, type ChatSettings, type ChatStatus, type ErrorView, type WebviewMessage } from '../protocol';
import { clear, el, iconButton, setIconButton } from './dom';
import type { ErrorBoxes } from './errorBox';
import { createHashMenu, type HashMenu } from './context/hashMenu';
import { createSlashMenu, type SlashMenu } from './slashMenu';

/** The webview's own state (kept by VS Code across hide and reload). */
export interface SavedState {
  draft: string;
  conversationId?: string;
}

export interface ComposerHooks {
  post: (message: WebviewMessage) => void;
  errors: ErrorBoxes;
  /** The page: a send settles every error shown as an alert in it. */
  root: HTMLElement;
  /** The webview's state, as VS Code keeps it. */
  getState(): unknown;
  setState(state: SavedState): void;
  /** The conversation shown (kept with the draft). */
  conversationId(): string | undefined;
  /** The chips of the next message's attachments and the context meter: placed by the composer. */
  chips: HTMLElement;
  meter: HTMLElement;
  /** The conversation goes to its end (a message was sent). */
  scrollToBottom(): void;
  /** The earlier question the message sent now edits (taken once: variants/branchEdit.ts). */
  editOf?(): string | undefined;
}

export interface Composer {
  readonly element: HTMLElement;
  /** The error of a refused send (above the credits card). */
  readonly sendError: HTMLElement;
  readonly input: HTMLTextAreaElement;
  /** Whether a reply runs (Send becomes Stop) and the last send's error. */
  setStatus(status: ChatStatus): void;
  /** The status line near Send (a live region): set only when it changes, so it is said once. */
  setReplying(text: string): void;
  /** The selected model's price on the cost line. */
  setSettings(settings: ChatSettings): void;
  /** Text put back into the box (a refused send, Edit): before what the box holds. */
  restoreInput(text: string): void;
  /** The box holds `text` (an earlier question to edit; '' empties it) and gets the keyboard. */
  setText(text: string): void;
  /** A slash command's text added to the box, with its own model for the next send. */
  insertPrompt(text: string, model: { id: string; label: string } | undefined): void;
  /** The host found (or no longer finds) the API key in the box. */
  setDraftHoldsKey(holds: boolean): void;
  /** Another conversation is shown: the draft is kept with its id. */
  conversationChanged(): void;
  /** "Send with fewer earlier messages": the text of the box, or the failed one the host keeps. */
  sendFewer(): void;
  readonly slash: SlashMenu;
  readonly hash: HashMenu;
}

export function createComposer(hooks: ComposerHooks): Composer {
  const { post } = hooks;
  let status: ChatStatus = { busy: false };
  let settings: ChatSettings | undefined;
  let draftHoldsKey = false;
  /** The model a slash command named for the next send (see setPromptModel). */
  let promptModel: { id: string; label: string } | undefined;
  let lastSendError: string | undefined;
  let draftTimer: ReturnType<typeof setTimeout> | undefined;

  const sendError = el('div', { class: 'send-error', hidden: true });
  /** Says the box holds the API key (the host found it in the draft). */
  const keyNotice = el('p', {
    class: 'key-notice',
    role: 'alert',
    hidden: true,
    text: l10n.t('The message box holds your AI Chat API key. Take it out: a message with the key is not sent, and the draft is not kept while it is there.'),
  });
  const input = el('textarea', {
    id: 'message',
    'aria-label': l10n.t('Message'),
    rows: 3,
    placeholder: l10n.t('Message (Enter to send, Shift+Enter for a new line)'),
  });
  const slash = createSlashMenu(
    input,
    (name, args) => post({ type: 'expandPrompt', name, ...(args ? { args } : {}) }),
    () => post({ type: 'promptsWanted' }),
  );
  const hash = createHashMenu(input, post);
  const sendButton = iconButton('send', l10n.t('Send'), () => (status.busy ? post({ type: 'stop' }) : trySend()), { class: 'primary send' });
  const costLine = el('span', { class: 'cost', text: nextMessageText(null) });
  const replying = el('span', { class: 'replying', role: 'status', 'aria-live': 'polite' });
  const element = el(
    'div',
    { class: 'composer' },
    hooks.chips,
    keyNotice,
    slash.element,
    hash.element,
    input,
    el('div', { class: 'composer-bar' }, iconButton('add', l10n.t('Attach to the next message'), () => hash.openFromButton(), { class: 'add-context' }), replying, el('span', { class: 'spacer' }), hooks.meter, costLine, sendButton),
  );

  // --- the draft (survives hide and reload) ---------------------------------------------------

  const loadSaved = (): SavedState => {
    const s = hooks.getState() as Partial<SavedState> | undefined;
    return { draft: typeof s?.draft === 'string' ? s.draft : '', ...(typeof s?.conversationId === 'string' ? { conversationId: s.conversationId } : {}) };
  };

  /** The webview's own state: a draft the host found the API key in is not kept there. */
  const saveState = () => {
    const id = hooks.conversationId();
    hooks.setState({ draft: draftHoldsKey ? '' : input.value, ...(id ? { conversationId: id } : {}) });
  };

  const saved = loadSaved();
  if (saved.draft) input.value = saved.draft;
  let postedDraft = saved.draft;

  const saveDraft = () => {
    if (draftTimer) clearTimeout(draftTimer);
    draftTimer = undefined;
    saveState();
    const text = input.value;
    if (text !== postedDraft) {
      postedDraft = text;
      post({ type: 'draft', text });
    }
  };

  const saveDraftSoon = () => {
    if (draftTimer) clearTimeout(draftTimer);
    draftTimer = setTimeout(() => saveDraft(), 250);
  };

  // --- sending --------------------------------------------------------------------------------

  /** A slash command's own model for the next send (its name and price on the cost line), or none. */
  const setPromptModel = (model: { id: string; label: string } | undefined) => {
    promptModel = model;
    costLine.textContent = model ? l10n.t('Next message: {0}', model.label) : nextMessageText(settings?.selectedModelCost);
  };

  const renderSendError = (error: ErrorView | undefined) => {
    const key = error ? JSON.stringify(error) : undefined;
    if (key === lastSendError) return;
    lastSendError = key;
    clear(sendError);
    hooks.errors.stopCountdown();
    sendError.hidden = !error;
    if (!error) return;
    // Retry resends the text that came back into the box (or the failed text kept by the host).
    sendError.append(
      hooks.errors.box(error, true, () => {
        const text = input.value;
        if (text.trim()) sendText(text);
        else post({ type: 'retry' });
      }),
    );
  };

  const sendText = (text: string) => {
    // Over what the host takes: the text stays in the box, and the chat says why.
    if (text.length > MAX_TEXT) {
      lastSendError = undefined;
      renderSendError({
        kind: 'validation',
        message: l10n.t('The message is too long to send: {0} characters, at most {1}. Shorten it; it is still in the box.', text.length.toLocaleString(), MAX_TEXT.toLocaleString()),
        actions: [],
      });
      return;
    }
    // Earlier errors are settled by this send: they stop being alerts at once.
    for (const box of hooks.root.querySelectorAll('.error-box[role="alert"]')) box.removeAttribute('role');
    sendError.hidden = true;
    lastSendError = undefined;
    input.value = '';
    saveDraft();
    const editOf = hooks.editOf?.();
    post({ type: 'send', text, ...(promptModel ? { model: promptModel.id } : {}), ...(editOf ? { editOf } : {}) });
    setPromptModel(undefined);
    hooks.scrollToBottom();
  };

  const trySend = () => {
    const text = input.value;
    if (!text.trim()) {
      input.focus();
      return;
    }
    sendText(text);
  };

  const sendFewer = () => {
    const text = input.value;
    if (!text.trim()) {
      post({ type: 'sendFewer' });
      return;
    }
    sendError.hidden = true;
    lastSendError = undefined;
    input.value = '';
    saveDraft();
    post({ type: 'sendFewer', text });
    hooks.scrollToBottom();
  };

  const setReplying = (text: string) => {
    if (replying.textContent !== text) replying.textContent = text;
  };

  input.addEventListener('keydown', (e) => {
    // The # menu first: its Enter chooses even in a box that starts with a slash command.
    if (hash.onKey(e) || slash.onKey(e)) return;
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey && !e.isComposing) {
      e.preventDefault();
      // While a reply streams, the host queues the message.
      trySend();
    }
  });
  input.addEventListener('input', () => {
    saveDraftSoon();
    // An emptied box drops a slash command's own model.
    if (promptModel && !input.value.trim()) setPromptModel(undefined);
  });

  return {
    element,
    sendError,
    input,
    slash,
    hash,
    setStatus(next) {
      status = next;
      setIconButton(sendButton, next.busy ? 'debug-stop' : 'send', next.busy ? l10n.t('Stop') : l10n.t('Send'));
      sendButton.classList.toggle('stop', next.busy);
      setReplying(next.busy ? l10n.t('Assistant is replying…') : '');
      renderSendError(next.sendError);
    },
    setReplying,
    setSettings(next) {
      settings = next;
      setPromptModel(promptModel);
    },
    restoreInput(text) {
      if (!text) return;
      const current = input.value;
      if (!current.trim()) input.value = text;
      else if (current !== text && !current.includes(text)) input.value = `${text}\n\n${current}`;
      saveDraft();
      // A draft put back when the panel starts does not take the keyboard; after a refused send the
      // user is already here.
      if (document.hasFocus()) {
        input.focus();
        input.setSelectionRange(input.value.length, input.value.length);
      }
    },
    setText(text) {
      input.value = text;
      saveDraft();
      input.focus();
      input.setSelectionRange(input.value.length, input.value.length);
    },
    insertPrompt(text, model) {
      setPromptModel(model);
      input.value = appendToDraft(input.value, text);
      saveDraft();
      input.focus();
      input.setSelectionRange(input.value.length, input.value.length);
    },
    setDraftHoldsKey(holds) {
      if (draftHoldsKey === holds) return;
      draftHoldsKey = holds;
      keyNotice.hidden = !holds;
      input.toggleAttribute('aria-invalid', holds);
      saveState();
    },
    conversationChanged: saveDraft,
    sendFewer,
  };
}
