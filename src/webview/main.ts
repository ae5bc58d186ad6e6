// The chat panel's browser code. Talks to the extension host only through the typed protocol
// (validated on receipt), builds the DOM with createElement/textContent, and renders assistant
// replies through the render module.
//
// This file wires the parts: each owns its state and its part of the page. The transcript
// (transcript.ts, no DOM) is the conversation and how each host message changes it; the
// conversation view shows it; the toolbar, the notices, the composer, the queue, the chips, the
// credits card, the summary card, the context meter, the `/` menu and find own the rest.
import { parseHostMessage, readL10nBundle, type ChatSettings, type ChatStatus, type HostMessage, type WebviewMessage } from '../protocol';
import { announce } from './render/index';
import { loadLanguagesWhenNeeded } from './render/languages';
import { renderContextChips } from './contextChips';
import { el } from './dom';
import { renderQueue } from './queue';
import { renderOutOfCredits } from './creditsCard';
import { installDropTarget } from './drop';
import { createContextMeter } from './render/contextMeter';
import { createSummaryCard } from './summaryCard';
import { createFindBar } from './find';
import { installKeyboard } from './keyboard';
import { createComposer, type SavedState } from './composer';
import { createConversationView } from './conversationView';
import { createErrorBoxes } from './errorBox';
import { createNotices } from './notices';
import { createToolbar } from './toolbar';
import { indexOfMessage, initialTranscript, pageMarks, reduce, type TranscriptEffect, type TranscriptState } from './transcript';
import { createBranchEdit, type PagerFocus } from './variants/branchEdit';
import { keepReplyChangesOf, setReplyChanges } from './replyChanges';
import * as l10n from '@vscode/l10n';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

function startChat(root: HTMLElement): void {
  const vscode = acquireVsCodeApi();
  const post = (message: WebviewMessage) => vscode.postMessage(message);
  let transcript: TranscriptState = initialTranscript;
  let settings: ChatSettings | undefined;
  /** The host has answered this page (any message): until then the page asks again. */
  let heard = false;
  root.setAttribute('role', 'main');

  const toolbar = createToolbar(post);
  const notices = createNotices(post);
  const chips = el('div', { class: 'context-chips', role: 'list', 'aria-label': l10n.t('Attached to the next message'), hidden: true });
  const queueHost = el('div', { class: 'queue', hidden: true });
  const creditsCard = el('section', { class: 'credits-card', 'aria-labelledby': 'out-of-credits-title', hidden: true });
  /** The context meter near Send and the boundary line above the oldest turn still sent. */
  const contextMeter = createContextMeter(() => post({ type: 'summarize' }));
  /** The summary of earlier turns sent in their place, below the last turn it replaced. */
  const summaryCard = createSummaryCard(post);
  const errors = createErrorBoxes(post, () => composer.sendFewer());
  // Edit of an earlier question (variants/branchEdit.ts), and the pager the keyboard was on when a branch was shown.
  const branchEdit = createBranchEdit(() => composer.setText(''));
  let pagerFocus: PagerFocus | undefined;
  const conversation = createConversationView({
    post: (m) => {
      if (m.type === 'showBranch') pagerFocus = { index: indexOfMessage(transcript.messages, m.messageId), which: m.step < 0 ? 'prev' : 'next' };
      post(m);
    },
    edit: (m) => {
      branchEdit.start(m.id, transcript.messages.filter((x) => x.role === 'user').findIndex((x) => x.id === m.id) + 1);
      composer.setText(m.content);
    },
    errors,
    transcript: () => transcript,
    summaryCard,
    contextMeter,
    setReplying: (text) => composer.setReplying(text),
  });
  const composer = createComposer({
    post,
    errors,
    root,
    getState: () => vscode.getState(),
    setState: (state: SavedState) => vscode.setState(state),
    conversationId: () => transcript.conversationId,
    chips,
    meter: contextMeter.element,
    scrollToBottom: () => conversation.follower.scrollToBottom(),
    editOf: () => branchEdit.take(),
  });
  const input = composer.input;
  const messages = conversation.element;
  const find = createFindBar({
    messages: () => transcript.messages,
    body: (id) => conversation.body(id),
    // Only the message of the match now: the turns around it as they come into view.
    reveal: (index) => conversation.revealIndex(index, true),
    lastVisibleIndex: () => conversation.lastVisibleIndex(),
    scroller: messages,
    holdScroll: () => conversation.follower.hold(),
    returnFocus: () => input.focus(),
    hidden: () => transcript.hidden,
    showHidden: (id) => post({ type: 'showHiddenMessage', messageId: id }),
  });
  root.append(
    toolbar.element,
    notices.instructions,
    notices.notice,
    el('div', { class: 'conversation' }, find.element, messages, conversation.jumpHost),
    queueHost,
    composer.sendError,
    creditsCard,
    branchEdit.bar,
    composer.element,
  );
  installDropTarget(root, post);
  document.addEventListener('keydown', (e) => find.onKey(e));
  installKeyboard({
    input,
    scroller: messages,
    count: () => transcript.messages.length,
    article: (i) => conversation.article(i),
    indexOf: (article) => conversation.indexOf(article),
    reveal: (i) => conversation.revealIndex(i),
    holdScroll: () => conversation.follower.hold(),
  });

  const applySettings = (next: ChatSettings) => {
    settings = next;
    if (next.fontSize > 0) document.documentElement.style.setProperty('--chat-font-size', `${next.fontSize}px`);
    else document.documentElement.style.removeProperty('--chat-font-size');
    toolbar.update(next);
    notices.setInstructions(next.instructions);
    renderOutOfCredits(creditsCard, next.outOfCredits, post);
    notices.setNotice(next, transcript.status);
    contextMeter.setPrice(next.selectedModelCost);
    composer.setSettings(next);
  };

  const applyStatus = (status: ChatStatus) => {
    root.classList.toggle('busy', status.busy);
    composer.setStatus(status);
    conversation.setBusy(status.busy);
    notices.setNotice(settings, status);
    conversation.refreshFooters();
  };

  /** Carries out what a change of the transcript asks of the page. */
  const apply = (effect: TranscriptEffect) => {
    switch (effect.kind) {
      case 'resync':
        post({ type: 'resync' });
        return;
      case 'conversation':
        // Another conversation's replies share message ids: what the host said of them goes.
        keepReplyChangesOf(transcript.conversationId);
        conversation.show(effect.summary, effect.notice);
        if (effect.opened) composer.conversationChanged();
        branchEdit.check((id) => !effect.opened && indexOfMessage(transcript.messages, id) >= 0);
        // Another branch shown: the keyboard stays on the pager of the question in its place.
        if (pagerFocus) conversation.focusPager(pagerFocus.index, pagerFocus.which);
        pagerFocus = undefined;
        return;
      case 'added':
        conversation.add(effect.messages);
        return;
      case 'swapped':
        conversation.swap(effect.swaps, effect.summary);
        return;
      case 'text':
        conversation.appendText(effect.id, effect.text, effect.starts);
        return;
      case 'message':
        conversation.update(effect.message);
        return;
      case 'waiting':
        conversation.waiting(effect.id, effect.text);
        return;
      case 'footers':
        conversation.refreshFooters();
        return;
      case 'status':
        applyStatus(effect.status);
        return;
      case 'stopped':
        announce(l10n.t('Reply stopped'));
        return;
    }
  };

  /** Messages about the conversation change the transcript; the others go to the part that owns what they change. */
  const handle = (msg: HostMessage) => {
    const { state, effects } = reduce(transcript, msg);
    transcript = state;
    for (const effect of effects) apply(effect);
    switch (msg.type) {
      case 'settings':
        applySettings(msg.settings);
        return;
      case 'contextMeter':
        contextMeter.update(msg.meter);
        conversation.placeBoundary();
        return;
      case 'summaryProgress':
        summaryCard.progress(msg);
        contextMeter.setSummarizing(msg.running);
        conversation.placeBoundary();
        return;
      case 'restoreInput':
        composer.restoreInput(msg.text);
        // The edit of an earlier question of which no reply came: editing that question again.
        if (msg.editOf) branchEdit.start(msg.editOf, transcript.messages.filter((m) => m.role === 'user').findIndex((m) => m.id === msg.editOf) + 1);
        return;
      case 'focusInput':
        input.focus();
        return;
      case 'draftHoldsKey':
        composer.setDraftHoldsKey(msg.holds);
        return;
      case 'contextChips':
        renderContextChips(chips, msg.chips, (id) => post({ type: 'removeContext', id }), (id) => post({ type: 'pinContext', id }));
        return;
      case 'queue':
        renderQueue(queueHost, msg, post);
        return;
      case 'find':
        find.open(msg.query);
        return;
      case 'revealMessage':
        conversation.revealMessage(msg.messageId);
        return;
      case 'promptList':
        composer.slash.setPrompts(msg.prompts, msg.notice);
        return;
      case 'contextOptions':
        composer.hash.setOptions(msg);
        return;
      case 'replyChanges':
        if (setReplyChanges(msg, transcript.conversationId)) conversation.refreshChanges();
        return;
      case 'insertPrompt':
        composer.insertPrompt(msg.text, msg.model);
        return;
      default:
        // The conversation's own messages: done above.
        return;
    }
  };

  /**
   * What the page shows, on its root for tools that drive it (the end-to-end journeys wait on these
   * instead of on time).
   */
  const markState = () => {
    for (const [k, v] of Object.entries(pageMarks(transcript))) if (root.dataset[k] !== v) root.dataset[k] = v;
  };

  const receive = (data: unknown) => {
    const parsed = parseHostMessage(data);
    if (!parsed.ok) {
      console.warn('AI Chat: dropped an invalid message from the extension:', parsed.error);
      return;
    }
    heard = true;
    handle(parsed.message);
    markState();
  };

  /**
   * A page the host never answered says `ready` again (every 2 s, 15 times): while the workbench
   * restores a view and an editor at once, a page can be loaded for a place the chat just left,
   * and the host then shows that place as it should be (the chat, or where the chat is). A page
   * that was answered once does not ask again.
   */
  const askAgainUnheard = (attempt: number) => {
    if (attempt > 15) return;
    setTimeout(() => {
      if (heard) return;
      post({ type: 'ready' });
      askAgainUnheard(attempt + 1);
    }, 2000);
  };

  window.addEventListener('message', (e: MessageEvent) => receive(e.data));
  // Back in the chat (from the editor, or another window): the host shows what other windows added.
  window.addEventListener('focus', () => post({ type: 'chatFocused' }));
  post({ type: 'ready' });
  askAgainUnheard(1);
  // No focus of its own here: a view restored or recreated in the background must not take the
  // keyboard from the editor or an open picker. The host asks for it (focusInput) when the user did.
}

const root = document.getElementById('app');
// The languages left out of this bundle come from a chunk beside it, when a block needs one.
if (document.currentScript instanceof HTMLScriptElement) loadLanguagesWhenNeeded(document, document.currentScript);
if (root) {
  // Translations first: every string below is looked up when the panel builds it.
  const bundle = readL10nBundle(root.dataset.l10n);
  if (bundle) l10n.config({ contents: bundle });
  startChat(root);
}
