// The chat panel's browser code. Talks to the extension host only through the typed protocol
// (validated on receipt), builds the DOM with createElement/textContent, and renders assistant
// replies through the render module.
//
// Long conversations: only the newest messages are rendered at first; older ones are rendered
// a page at a time as the top of the list comes into view, keeping what is on screen in place.
// Rendered messages far from the visible part give their body's DOM back (turnWindow.ts).
//
// Each message's text is kept once: the list's MessageView holds it, and a reply view shows that
// same string (a streamed reply's text is the view's, and the list points to it).
import {
  appendToDraft,
  MAX_TEXT,
  nextMessageText,
  replyEndingText,
  replyMetaText,
  parseHostMessage,
  readL10nBundle,
  thinkingSection,
  type ChatSettings,
  type ChatStatus,
  type ConversationView,
  type ErrorAction,
  type ErrorView,
  type HostMessage,
  type MessageView,
  type WebviewMessage,
} from '../protocol';
import { announce, createReplyView, createScrollFollower, type ReplyView } from './render/index';
import { renderContextChips } from './contextChips';
import { button, clear, codicon, el, iconButton, setIconButton } from './dom';
import { renderQueue } from './queue';
import { renderOutOfCredits } from './creditsCard';
import { installDropTarget } from './drop';
import { createContextMeter } from './render/contextMeter';
import { createSummaryCard } from './summaryCard';
import { createFindBar, type FindBar } from './find';
import { messageLabel } from './a11y';
import { installKeyboard } from './keyboard';
import { createTurnWindow, type TurnWindow } from './turnWindow';
import { createSlashMenu, type SlashMenu } from './slashMenu';
import * as l10n from '@vscode/l10n';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

interface SavedState {
  draft: string;
  conversationId?: string;
}

const actionLabels = (): Record<ErrorAction, string> => ({
  setApiKey: l10n.t('Set API Key'),
  showSubscriptions: l10n.t('Show Subscriptions'),
  retry: l10n.t('Retry'),
  openSettings: l10n.t('Open Settings'),
  fewerMessages: l10n.t('Send with fewer earlier messages'),
  selectModel: l10n.t('Select Model'),
  openInstructions: l10n.t('Open Project Instructions'),
  toggleInstructions: l10n.t('Turn Project Instructions Off'),
  openSystemPrompt: l10n.t('Open the System Prompt Setting'),
});

/** Messages rendered when a conversation opens, and per page as older ones come into view. */
export const WINDOW_PAGE = 12;

interface Entry {
  id: string;
  role: 'user' | 'assistant';
  article: HTMLElement;
  /** Status, meta, error and buttons of the message (rebuilt from each state). */
  footer: HTMLElement;
  /** The rendered body; none while the message is far from view (see turnWindow.ts). */
  view?: ReplyView;
  status: MessageView['status'];
  signature: string;
  /** The reply says something while it waits (thinking, searching, no part for a while): text clears it. */
  waiting?: boolean;
}

class ChatApp {
  private readonly vscode: VsCodeApi;
  private settings: ChatSettings | undefined;
  private status: ChatStatus = { busy: false };
  private readonly queueHost: HTMLElement;
  private conversationId: string | undefined;
  /** Version of the host's state shown (-1: none yet); older states are ignored. */
  private version = -1;
  /** A change was found missing: the next whole state is taken even at the version shown. */
  private resyncing = false;
  /** The host has answered this page (any message): until then the page asks again. */
  private heard = false;
  /** Every message of the conversation, oldest first; only those from `firstRendered` on are in the DOM. */
  private list: MessageView[] = [];
  private firstRendered = 0;
  /** End of the rendered messages when they stop short of the newest (a match or a question far up was brought into view). */
  private windowEnd: number | undefined;
  private readonly newerSentinel = el('div', { class: 'newer-sentinel', 'aria-hidden': 'true', hidden: true });
  private readonly newerObserver: IntersectionObserver;
  private readonly find: FindBar;
  private readonly entries = new Map<string, Entry>();
  private readonly olderSentinel: HTMLElement;
  private readonly olderObserver: IntersectionObserver;
  private countdownTimer: ReturnType<typeof setInterval> | undefined;
  private draftTimer: ReturnType<typeof setTimeout> | undefined;

  // DOM
  private readonly root: HTMLElement;
  private readonly newChatButton: HTMLButtonElement;
  private readonly historyButton: HTMLButtonElement;
  private readonly modelSelect: HTMLSelectElement;
  private readonly searchToggle: HTMLButtonElement;
  private readonly temperatureInput: HTMLInputElement;
  private readonly notice: HTMLElement;
  /** The project instructions line (AGENTS.md): what is sent, Open, Turn off / on. */
  private readonly instructionsBar: HTMLElement;
  private readonly messages: HTMLElement;
  private readonly emptyHint: HTMLElement;
  /** Shown until the host sent the conversation (never an empty chat for one that is not). */
  private readonly loadingHint: HTMLElement;
  private readonly conversationNotice = el('p', { class: 'empty-hint conversation-notice', role: 'status' });
  private readonly jumpHost: HTMLElement;
  private readonly sendError: HTMLElement;
  /** Says the box holds the API key (the host found it in the draft). */
  private readonly keyNotice: HTMLElement;
  private draftHoldsKey = false;
  private readonly creditsCard: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  /** The `/` menu of the box (slash commands). */
  private readonly slash: SlashMenu;
  private readonly sendButton: HTMLButtonElement;
  private readonly costLine: HTMLElement;
  private readonly replying: HTMLElement;
  private readonly chips = el('div', { class: 'context-chips', role: 'list', 'aria-label': l10n.t('Attached to the next message'), hidden: true });
  private readonly follower;
  /** The context meter near Send and the boundary line above the oldest turn still sent. */
  private readonly contextMeter = createContextMeter(() => this.post({ type: 'summarize' }));
  /** The summary of earlier turns sent in their place, below the last turn it replaced. */
  private readonly summaryCard = createSummaryCard((m) => this.post(m));
  /** Gives back the body of rendered messages far from view, and renders it again when near. */
  private readonly turnWindow: TurnWindow;
  /** The message last brought into view by find, Go to Question or the keyboard: it keeps its body. */
  private revealed: HTMLElement | undefined;

  constructor(root: HTMLElement) {
    this.vscode = acquireVsCodeApi();
    this.root = root;
    root.setAttribute('role', 'main');

    this.newChatButton = iconButton('add', l10n.t('New Chat'), () => this.post({ type: 'newChat' }));
    this.historyButton = iconButton('history', l10n.t('History'), () => this.post({ type: 'openHistory' }));
    this.modelSelect = el('select', { id: 'model', 'aria-label': l10n.t('Model') });
    this.modelSelect.addEventListener('change', () => this.onModelChange());
    this.searchToggle = iconButton('globe', l10n.t('Web search'), () => this.post({ type: 'setSearch', value: !this.settings?.search }), {
      'aria-pressed': 'false',
      class: 'toggle',
    });
    this.temperatureInput = el('input', {
      type: 'number',
      id: 'temperature',
      min: 0,
      max: 2,
      step: 0.1,
      inputmode: 'decimal',
      'aria-label': l10n.t('Temperature'),
      title: l10n.t('Temperature (0 to 2)'),
    });
    this.temperatureInput.addEventListener('change', () => this.onTemperatureChange());

    // A compact header: the model as a dropdown, the options as icons, the actions at the end.
    const toolbar = el(
      'div',
      { class: 'toolbar', role: 'toolbar', 'aria-label': l10n.t('Chat settings') },
      el('span', { class: 'dropdown' }, this.modelSelect, el('span', { class: 'dropdown-chevron' }, codicon('chevron-down'))),
      this.searchToggle,
      el('label', { class: 'field', for: 'temperature', title: l10n.t('Temperature (0 to 2)') }, codicon('flame'), this.temperatureInput),
      el('span', { class: 'spacer' }),
      el('span', { class: 'actions' }, this.newChatButton, this.historyButton),
    );

    this.notice = el('div', { class: 'notice', role: 'status', hidden: true });
    this.instructionsBar = el('div', { class: 'instructions', hidden: true });
    // Not live: a reply is announced once when it ends (never chunk by chunk).
    this.messages = el('div', { class: 'messages', role: 'log', 'aria-live': 'off', 'aria-label': l10n.t('Conversation'), tabindex: 0 });
    this.emptyHint = el('p', { class: 'empty-hint', text: l10n.t('Ask anything. Enter sends, Shift+Enter adds a new line.') });
    this.loadingHint = el('p', { class: 'empty-hint loading-hint', role: 'status', text: l10n.t('Opening the conversation…') });
    this.jumpHost = el('div', { class: 'jump-host' });
    this.sendError = el('div', { class: 'send-error', hidden: true });
    this.keyNotice = el('p', {
      class: 'key-notice',
      role: 'alert',
      hidden: true,
      text: l10n.t('The message box holds your AI Chat API key. Take it out: a message with the key is not sent, and the draft is not kept while it is there.'),
    });
    this.creditsCard = el('section', { class: 'credits-card', 'aria-labelledby': 'out-of-credits-title', hidden: true });
    const queueHost = el('div', { class: 'queue', hidden: true });
    this.queueHost = queueHost;

    this.input = el('textarea', {
      id: 'message',
      'aria-label': l10n.t('Message'),
      rows: 3,
      placeholder: l10n.t('Message (Enter to send, Shift+Enter for a new line)'),
    });
    this.slash = createSlashMenu(
      this.input,
      (name, args) => this.post({ type: 'expandPrompt', name, ...(args ? { args } : {}) }),
      () => this.post({ type: 'promptsWanted' }),
    );
    this.input.addEventListener('keydown', (e) => this.onKeyDown(e));
    this.input.addEventListener('input', () => {
      this.saveDraftSoon();
      // An emptied box drops a slash command's own model.
      if (this.promptModel && !this.input.value.trim()) this.setPromptModel(undefined);
    });
    this.sendButton = iconButton('send', l10n.t('Send'), () => this.onSendButton(), { class: 'primary send' });
    this.costLine = el('span', { class: 'cost', text: nextMessageText(null) });
    this.replying = el('span', { class: 'replying', role: 'status', 'aria-live': 'polite' });
    const composer = el(
      'div',
      { class: 'composer' },
      this.chips,
      this.keyNotice,
      this.slash.element,
      this.input,
      el('div', { class: 'composer-bar' }, iconButton('add', l10n.t('Attach to the next message'), () => this.post({ type: 'addContext' }), { class: 'add-context' }), this.replying, el('span', { class: 'spacer' }), this.contextMeter.element, this.costLine, this.sendButton),
    );

    this.find = createFindBar({
      messages: () => this.list,
      body: (id) => {
        const entry = this.entries.get(id);
        return entry?.article.isConnected ? entry.view?.element : undefined;
      },
      // Only the message of the match now: the turns around it as they come into view.
      reveal: (index) => this.revealIndex(index, true),
      lastVisibleIndex: () => this.lastVisibleIndex(),
      scroller: this.messages,
      holdScroll: () => this.follower.hold(),
      returnFocus: () => this.input.focus(),
    });
    root.append(toolbar, this.instructionsBar, this.notice, el('div', { class: 'conversation' }, this.find.element, this.messages, this.jumpHost), this.queueHost, this.sendError, this.creditsCard, composer);
    installDropTarget(root, (m) => this.post(m));
    this.follower = createScrollFollower(this.messages, this.jumpHost, () => this.windowEnd === undefined);
    this.olderSentinel = el('div', { class: 'older-sentinel', 'aria-hidden': 'true' });
    this.olderObserver = new IntersectionObserver((seen) => {
      if (seen.some((e) => e.isIntersecting)) this.renderOlder();
    }, { root: this.messages, rootMargin: '600px 0px 0px 0px' });
    this.olderObserver.observe(this.olderSentinel);
    this.newerObserver = new IntersectionObserver((seen) => {
      if (seen.some((e) => e.isIntersecting)) this.renderNewer();
    }, { root: this.messages, rootMargin: '0px 0px 600px 0px' });
    // "Jump to latest" below a window that stops short of the newest message: the newest first.
    this.jumpHost.addEventListener('click', () => this.windowEnd !== undefined && this.showWindow(Math.max(0, this.list.length - WINDOW_PAGE), this.list.length), true);
    document.addEventListener('keydown', (e) => this.find.onKey(e));
    installKeyboard({
      input: this.input,
      scroller: this.messages,
      count: () => this.list.length,
      article: (i) => {
        const article = this.list[i] && this.entries.get(this.list[i].id)?.article;
        return article?.isConnected ? article : undefined;
      },
      indexOf: (article) => {
        for (let i = this.firstRendered; i < (this.windowEnd ?? this.list.length); i++) if (this.entries.get(this.list[i].id)?.article === article) return i;
        return -1;
      },
      reveal: (i) => this.revealIndex(i),
      holdScroll: () => this.follower.hold(),
    });
    this.turnWindow = createTurnWindow(this.messages, {
      release: (article) => this.releaseBody(article),
      restore: (article) => this.restoreBody(article),
    });
    this.messages.append(this.loadingHint);

    const saved = this.loadSaved();
    if (saved.draft) this.input.value = saved.draft;
    this.postedDraft = saved.draft;
    this.conversationId = undefined;

    window.addEventListener('message', (e: MessageEvent) => this.receive(e.data));
    // Back in the chat (from the editor, or another window): the host shows what other windows added.
    window.addEventListener('focus', () => this.post({ type: 'chatFocused' }));
    this.post({ type: 'ready' });
    this.askAgainUnheard(1);
    // No focus of its own here: a view restored or recreated in the background must not take the
    // keyboard from the editor or an open picker. The host asks for it (focusInput) when the user did.
  }

  // --- host communication -------------------------------------------------------------------

  private post(message: WebviewMessage): void {
    this.vscode.postMessage(message);
  }

  private receive(data: unknown): void {
    const parsed = parseHostMessage(data);
    if (!parsed.ok) {
      console.warn('AI Chat: dropped an invalid message from the extension:', parsed.error);
      return;
    }
    this.heard = true;
    this.handle(parsed.message);
    this.markState();
  }

  /**
   * What the page shows, on its root for tools that drive it (the end-to-end journeys wait on these
   * instead of on time): the host's state version shown, whether a reply runs, the last message's
   * status and how many messages the conversation has.
   */
  private markState(): void {
    const last = this.list[this.list.length - 1];
    const marks: Record<string, string> = {
      sessionVersion: String(this.version),
      busy: String(this.status.busy),
      lastStatus: last?.status ?? 'none',
      messages: String(this.list.length),
    };
    for (const [k, v] of Object.entries(marks)) if (this.root.dataset[k] !== v) this.root.dataset[k] = v;
  }

  /**
   * A page the host never answered says `ready` again (every 2 s, 15 times): while the workbench
   * restores a view and an editor at once, a page can be loaded for a place the chat just left,
   * and the host then shows that place as it should be (the chat, or where the chat is). A page
   * that was answered once does not ask again.
   */
  private askAgainUnheard(attempt: number): void {
    if (attempt > 15) return;
    setTimeout(() => {
      if (this.heard) return;
      this.post({ type: 'ready' });
      this.askAgainUnheard(attempt + 1);
    }, 2000);
  }

  /**
   * Whether a message about the conversation is newer than what is shown. A whole state older than
   * the one shown is ignored, and a change already in it; a change after a missing one asks the
   * host for the whole state.
   */
  private isCurrent(msg: HostMessage): boolean {
    const v = 'version' in msg ? msg.version : undefined;
    if (v === undefined) return true;
    if (msg.type === 'conversation') {
      if (v < this.version) return false;
      // The same state again (a surface that starts, a restore told twice): nothing to redraw.
      if (v === this.version && !this.resyncing && msg.conversation.id === this.conversationId && !msg.notice) return false;
      this.version = v;
      this.resyncing = false;
      return true;
    }
    if (v <= this.version) return false;
    if (this.version >= 0 && v > this.version + 1 && !this.resyncing) {
      this.resyncing = true;
      this.post({ type: 'resync' });
    }
    this.version = v;
    return true;
  }

  private handle(msg: HostMessage): void {
    if (!this.isCurrent(msg)) return;
    switch (msg.type) {
      case 'settings':
        this.applySettings(msg.settings);
        return;
      case 'status':
        this.applyStatus(msg.status);
        return;
      case 'conversation':
        this.showConversation(msg.conversation, msg.notice);
        this.applyStatus(msg.status);
        return;
      case 'turnStarted':
        this.turnStarted(msg.user, msg.assistant);
        this.applyStatus(msg.status);
        return;
      case 'streamChunk': {
        const entry = this.entries.get(msg.messageId);
        const view = entry?.view;
        if (!entry || !view) return;
        const have = view.text().length;
        const end = msg.offset + msg.text.length;
        if (end <= have) return; // already shown (the conversation sent when the panel started had it)
        const text = msg.offset < have ? msg.text.slice(have - msg.offset) : msg.text;
        // Text clears what the reply said while it waited (thinking, searching, no part for a while).
        if (have === 0 || entry.waiting) {
          entry.waiting = false;
          entry.footer.querySelector('.typing')?.replaceChildren();
          this.setReplying(l10n.t('Assistant is replying…'));
        }
        view.append(text);
        // The list shows the view's text (one string, not a copy of it).
        const m = this.list[this.list.length - 1];
        if (m?.id === msg.messageId) m.content = view.text();
        this.follower.contentChanged();
        return;
      }
      case 'turnEnded': {
        const m = msg.message;
        const i = this.indexOf(m.id);
        if (i >= 0) this.list[i] = m;
        const entry = this.entries.get(m.id);
        if (entry) this.updateBody(entry, m);
        this.applyStatus(msg.status);
        // A complete reply is announced by its view (once, with its text); this would replace that.
        if (m.status === 'stopped') announce(l10n.t('Reply stopped'));
        return;
      }
      case 'messageChanged': {
        const i = this.indexOf(msg.message.id);
        if (i >= 0) this.list[i] = msg.message;
        const entry = this.entries.get(msg.message.id);
        if (entry) this.updateBody(entry, msg.message);
        this.refreshFooters();
        return;
      }
      case 'streamStatus': {
        // Shown under the reply and in the status line, until text arrives (an empty text clears it).
        const entry = this.entries.get(msg.messageId);
        if (!entry) return;
        entry.waiting = !!msg.text;
        const typing = entry.footer.querySelector('.typing');
        if (typing) typing.textContent = msg.text || (entry.view?.text() ? '' : l10n.t('Thinking…'));
        this.setReplying(msg.text || l10n.t('Assistant is replying…'));
        return;
      }
      case 'contextMeter':
        this.contextMeter.update(msg.meter);
        this.placeBoundary();
        return;
      case 'summaryProgress':
        this.summaryCard.progress(msg);
        this.contextMeter.setSummarizing(msg.running);
        this.placeBoundary();
        return;
      case 'restoreInput':
        this.restoreInput(msg.text);
        return;
      case 'focusInput':
        this.input.focus();
        return;
      case 'draftHoldsKey':
        if (this.draftHoldsKey === msg.holds) return;
        this.draftHoldsKey = msg.holds;
        this.keyNotice.hidden = !msg.holds;
        this.input.toggleAttribute('aria-invalid', msg.holds);
        this.saveState();
        return;
      case 'contextChips':
        renderContextChips(this.chips, msg.chips, (id) => this.post({ type: 'removeContext', id }));
        return;
      case 'queue':
        renderQueue(this.queueHost, msg, (m) => this.post(m));
        return;
      case 'find':
        this.find.open(msg.query);
        return;
      case 'revealMessage':
        this.revealMessage(msg.messageId);
        return;
      case 'promptList':
        this.slash.setPrompts(msg.prompts, msg.notice);
        return;
      case 'insertPrompt':
        this.setPromptModel(msg.model);
        this.input.value = appendToDraft(this.input.value, msg.text);
        this.saveDraft();
        this.input.focus();
        this.input.setSelectionRange(this.input.value.length, this.input.value.length);
        return;
    }
  }

  // --- rendering -----------------------------------------------------------------------------

  private applySettings(settings: ChatSettings): void {
    this.settings = settings;
    if (settings.fontSize > 0) document.documentElement.style.setProperty('--chat-font-size', `${settings.fontSize}px`);
    else document.documentElement.style.removeProperty('--chat-font-size');
    this.renderControls(settings);
    this.renderInstructions(settings.instructions);
    renderOutOfCredits(this.creditsCard, settings.outOfCredits, (m) => this.post(m));
    this.renderNotice();
    this.contextMeter.setPrice(settings.selectedModelCost);
    this.setPromptModel(this.promptModel);
  }

  private applyStatus(status: ChatStatus): void {
    this.status = status;
    this.root.classList.toggle('busy', status.busy);
    setIconButton(this.sendButton, status.busy ? 'debug-stop' : 'send', status.busy ? l10n.t('Stop') : l10n.t('Send'));
    this.sendButton.classList.toggle('stop', status.busy);
    this.setReplying(status.busy ? l10n.t('Assistant is replying…') : '');
    this.messages.setAttribute('aria-busy', String(status.busy));
    this.renderNotice();
    this.renderSendError(status.sendError);
    this.refreshFooters();
  }

  /** The status line near Send (a live region): set only when it changes, so it is said once. */
  private setReplying(text: string): void {
    if (this.replying.textContent !== text) this.replying.textContent = text;
  }

  private indexOf(id: string): number {
    for (let i = this.list.length - 1; i >= 0; i--) if (this.list[i].id === id) return i;
    return -1;
  }

  /** Puts a conversation on screen: its newest messages now, older ones as they come into view. */
  private showConversation(conv: ConversationView, notice?: string): void {
    this.loadingHint.remove();
    for (const e of this.entries.values()) e.view?.dispose();
    this.entries.clear();
    this.turnWindow.reset();
    this.list = conv.messages;
    this.summaryCard.update(conv.summary);
    this.showWindow(Math.max(0, this.list.length - WINDOW_PAGE), this.list.length, false);
    if (notice) {
      this.conversationNotice.textContent = notice;
      this.messages.append(this.conversationNotice);
    } else if (this.list.length === 0) this.messages.append(this.emptyHint);
    this.refreshFooters();
    this.placeBoundary();
    this.follower.scrollToBottom();
    if (this.conversationId !== conv.id) {
      this.conversationId = conv.id;
      this.saveDraft();
    }
  }

  /** Renders the page of messages above the oldest one on screen, keeping the view where it is. */
  private renderOlder(): void {
    if (this.firstRendered === 0) return;
    const from = Math.max(0, this.firstRendered - WINDOW_PAGE);
    const anchor = this.olderSentinel.nextElementSibling;
    const before = anchor instanceof HTMLElement ? anchor.getBoundingClientRect().top : 0;
    const fragment = document.createDocumentFragment();
    for (let i = from; i < this.firstRendered; i++) fragment.append(this.entryFor(this.list[i]).article);
    this.olderSentinel.after(fragment);
    this.firstRendered = from;
    this.placeBoundary();
    this.olderSentinel.hidden = from === 0;
    if (anchor instanceof HTMLElement) this.messages.scrollTop += anchor.getBoundingClientRect().top - before;
    // The observer tells only changes: observed anew, it says at once whether the top is still near.
    this.olderObserver.unobserve(this.olderSentinel);
    if (from > 0) this.olderObserver.observe(this.olderSentinel);
  }

  /**
   * Renders the messages [from, to) in place of those rendered (a reply still streaming keeps its
   * view, out of the page while it is outside the window); older and newer ones are rendered as
   * the top or the bottom comes into view.
   */
  private showWindow(from: number, to: number, scrollToEnd = true): void {
    for (const [id, e] of this.entries) {
      if (e.status === 'streaming') continue;
      e.view?.dispose();
      this.entries.delete(id);
    }
    // The articles of the old window are no longer watched; the ones kept (a streaming reply) again below.
    this.turnWindow.reset();
    for (const e of this.entries.values()) this.turnWindow.watch(e.article);
    clear(this.messages);
    this.firstRendered = from;
    this.windowEnd = to < this.list.length ? to : undefined;
    const fragment = document.createDocumentFragment();
    for (let i = from; i < to; i++) fragment.append(this.entryFor(this.list[i]).article);
    this.messages.append(this.olderSentinel, fragment, this.newerSentinel);
    this.olderSentinel.hidden = from === 0;
    this.olderObserver.unobserve(this.olderSentinel);
    if (from > 0) this.olderObserver.observe(this.olderSentinel);
    this.newerSentinel.hidden = this.windowEnd === undefined;
    this.newerObserver.unobserve(this.newerSentinel);
    if (this.windowEnd !== undefined) this.newerObserver.observe(this.newerSentinel);
    if (scrollToEnd) {
      this.refreshFooters();
      this.placeBoundary();
      this.follower.scrollToBottom();
    }
  }

  /** Renders the page of messages below the newest one rendered (a window that stops short of the end). */
  private renderNewer(): void {
    if (this.windowEnd === undefined) return;
    const to = Math.min(this.list.length, this.windowEnd + WINDOW_PAGE);
    const fragment = document.createDocumentFragment();
    for (let i = this.windowEnd; i < to; i++) fragment.append(this.entryFor(this.list[i]).article);
    this.newerSentinel.before(fragment);
    this.windowEnd = to < this.list.length ? to : undefined;
    this.newerSentinel.hidden = this.windowEnd === undefined;
    this.newerObserver.unobserve(this.newerSentinel);
    if (this.windowEnd !== undefined) this.newerObserver.observe(this.newerSentinel);
    this.refreshFooters();
    this.placeBoundary();
  }

  /**
   * Makes the message at `index` rendered: a page or two above are rendered as usual, one further up
   * gets a window of its own. `alone`: a message not rendered gets a window of its own at once, with
   * nothing else in it (the turns around it are rendered as they come into view), so it is shown
   * without first rendering every turn between.
   */
  private revealIndex(index: number, alone = false): void {
    this.renderIndex(index, alone);
    // A message far from view may have given its body back: it is rendered again before it is shown,
    // and keeps its body while it is on its way into view (the last one revealed, until another is).
    const article = index >= 0 && index < this.list.length ? this.entries.get(this.list[index].id)?.article : undefined;
    if (!article) return;
    this.turnWindow.restore(article);
    this.revealed = article;
  }

  private renderIndex(index: number, alone = false): void {
    const end = this.windowEnd ?? this.list.length;
    if (index < 0 || index >= this.list.length || (index >= this.firstRendered && index < end)) return;
    if (!alone && this.windowEnd === undefined && index >= this.firstRendered - 2 * WINDOW_PAGE) {
      while (this.firstRendered > index) this.renderOlder();
      return;
    }
    // The message and the next one (its reply), or the message alone; the rest as it comes into view.
    this.showWindow(index, Math.min(this.list.length, index + (alone ? 1 : 2)), false);
    this.refreshFooters();
    this.placeBoundary();
  }

  /** Shows a message (rendering it first), e.g. a question chosen in "Go to Question". */
  private revealMessage(id: string): void {
    const index = this.indexOf(id);
    if (index < 0) return;
    this.revealIndex(index);
    const article = this.entries.get(id)?.article;
    if (!article) return;
    this.follower.hold();
    article.scrollIntoView({ block: 'start', behavior: 'instant' });
    article.tabIndex = -1;
    article.focus({ preventScroll: true });
  }

  /** Index of the newest message at least partly on screen (-1 when none). */
  private lastVisibleIndex(): number {
    const bottom = this.messages.getBoundingClientRect().bottom;
    for (let i = (this.windowEnd ?? this.list.length) - 1; i >= this.firstRendered; i--) {
      const article = this.entries.get(this.list[i].id)?.article;
      if (article?.isConnected && article.getBoundingClientRect().top < bottom) return i;
    }
    return -1;
  }

  private placeBoundary(): void {
    this.summaryCard.place(this.messages, this.olderSentinel, (id) => this.entries.get(id)?.article, (id) => { const i = this.indexOf(id); return i >= 0 && i < this.firstRendered; });
    this.contextMeter.place(this.messages, (id) => this.entries.get(id)?.article);
  }

  private turnStarted(user: MessageView, assistant: MessageView): void {
    this.emptyHint.remove();
    // The new turn goes below the newest message: that is where the chat goes.
    if (this.windowEnd !== undefined) this.showWindow(Math.max(0, this.list.length - WINDOW_PAGE), this.list.length);
    for (const m of [user, assistant]) {
      if (this.indexOf(m.id) >= 0) continue;
      this.list.push(m);
      this.messages.append(this.entryFor(m).article);
    }
    // A new turn is the user's own doing (sent here, or from the editor): the chat goes to it and follows its reply.
    this.follower.scrollToBottom();
  }

  private entryFor(m: MessageView): Entry {
    let entry = this.entries.get(m.id);
    if (!entry) {
      entry = this.createEntry(m);
      this.entries.set(m.id, entry);
      this.turnWindow.watch(entry.article);
    }
    return entry;
  }

  /** Footers depend on a message's place (last, last of the user) and the status: the newest few are redrawn. */
  private refreshFooters(): void {
    const list = this.list;
    let lastUser: MessageView | undefined;
    for (let i = list.length - 1; i >= 0 && !lastUser; i--) if (list[i].role === 'user') lastUser = list[i];
    const last = list[list.length - 1];
    for (let i = Math.max(this.firstRendered, list.length - 4); i < list.length; i++) {
      const m = list[i];
      const entry = this.entries.get(m.id);
      if (!entry) continue;
      const ctx = { isLastUser: m === lastUser, isLast: m === last, busy: this.status.busy, hasSendError: !!this.status.sendError };
      const signature = JSON.stringify([m.status, m.meta, m.error, ctx]);
      if (signature !== entry.signature) {
        this.renderFooter(entry, m, ctx);
        entry.signature = signature;
      }
    }
  }

  private renderControls(state: ChatSettings): void {
    const select = this.modelSelect;
    const focused = document.activeElement === select;
    if (!focused) {
      clear(select);
      if (!state.selectedModel) select.append(el('option', { value: '', text: l10n.t('Choose a model…') }));
      const known = new Set<string>();
      for (const m of state.models) {
        known.add(m.valueId);
        const label = m.usable ? `${m.name} (${m.cost} ${m.cost === 1 ? 'credit' : 'credits'})` : `${m.name} (unavailable)`;
        const opt = el('option', { value: m.valueId, text: label, disabled: !m.usable, title: m.reason });
        select.append(opt);
      }
      if (state.selectedModel && !known.has(state.selectedModel)) {
        select.append(el('option', { value: state.selectedModel, text: state.modelsLoading ? `${state.selectedModel} (loading…)` : state.selectedModel }));
      }
      select.append(el('option', { value: '__more__', text: l10n.t('More models…') }));
      select.value = state.selectedModel;
      select.title = state.modelsError ? l10n.t('Could not load the models: {0}', state.modelsError) : '';
    }
    this.searchToggle.setAttribute('aria-pressed', String(state.search));
    this.searchToggle.classList.toggle('checked', state.search);
    if (document.activeElement !== this.temperatureInput) this.temperatureInput.value = String(state.temperature);
  }

  private renderInstructions(view: ChatSettings['instructions']): void {
    clear(this.instructionsBar);
    this.instructionsBar.hidden = !view;
    if (!view) return;
    this.instructionsBar.classList.toggle('active', view.active);
    this.instructionsBar.append(
      codicon(view.active ? 'book' : 'circle-slash'),
      el('span', { class: 'instructions-text', text: view.text, title: view.text }),
      el('span', { class: 'spacer' }),
      iconButton('go-to-file', l10n.t('Open {0}', view.name), () => this.post({ type: 'runCommand', command: 'openInstructions' })),
    );
    if (view.active || view.off) {
      const label = view.active ? l10n.t('Turn off {0} for this workspace', view.name) : l10n.t('Turn on {0} for this workspace', view.name);
      this.instructionsBar.append(
        iconButton(view.active ? 'eye-closed' : 'eye', label, () => this.post({ type: 'runCommand', command: 'toggleInstructions' }), {
          'aria-pressed': view.active ? 'true' : 'false',
        }),
      );
    }
  }

  private renderNotice(): void {
    clear(this.notice);
    const addressNotice = this.settings?.addressNotice;
    if (addressNotice) {
      this.notice.append(
        el('p', { text: addressNotice.replace(/^AI Chat: /, '') }),
        button(l10n.t('Review Service Address'), () => this.post({ type: 'runCommand', command: 'reviewServiceAddress' }), { class: 'primary' }),
      );
    }
    const modelNotice = this.settings?.modelNotice;
    if (modelNotice) {
      this.notice.append(el('p', { text: modelNotice }), button(l10n.t('Select Model'), () => this.post({ type: 'selectModel' })));
    }
    const show = !!this.settings && !this.settings.hasKey && this.status.sendError?.kind !== 'auth';
    this.notice.hidden = !show && !addressNotice && !modelNotice;
    if (!show) return;
    this.notice.append(
      el('span', { text: l10n.t('No API key is set. Set your API key to start chatting.') }),
      button(l10n.t('Set API Key'), () => this.post({ type: 'runCommand', command: 'setApiKey' }), { class: 'primary' }),
    );
  }

  /**
   * A reasoning model's thinking: a collapsed "Thinking" section above the reply, plain text (never
   * Markdown or HTML), kept out of the reply's text, its Copy and its code actions.
   */
  private renderReasoning(entry: Entry, reasoning: string | undefined): void {
    // A body given back has no thinking either; both are rendered again when it comes near.
    if (!entry.view) return;
    let section = entry.article.querySelector<HTMLDetailsElement>(':scope > details.reasoning');
    if (!reasoning) {
      section?.remove();
      return;
    }
    if (!section) {
      section = el('details', { class: 'reasoning' });
      section.append(el('summary', { text: l10n.t('Thinking') }), el('div', { class: 'reasoning-text' }));
      if (entry.view) entry.view.element.before(section);
      else entry.article.append(section);
    }
    const text = section.querySelector('.reasoning-text');
    if (text && text.textContent !== reasoning) text.textContent = reasoning;
  }

  private createEntry(m: MessageView): Entry {
    const label = m.role === 'user' ? l10n.t('You') : l10n.t('Assistant');
    const article = el('article', { class: `message ${m.role}`, 'aria-label': messageLabel(m), 'data-id': m.id });
    const footer = el('div', { class: 'message-footer' });
    const entry: Entry = { id: m.id, role: m.role, article, footer, status: m.status, signature: '' };
    article.append(el('div', { class: 'message-role', 'aria-hidden': 'true', text: label }), footer);
    this.renderBody(entry, m);
    return entry;
  }

  /** The message's body, before its footer: Markdown on both sides (a sent selection is a fenced code block), never HTML. */
  private renderBody(entry: Entry, m: MessageView): void {
    const view = createReplyView({
      onCodeAction: (action, code, language, path) => this.post({ type: 'codeAction', action, code, language, ...(path ? { path } : {}) }),
      onOpenLink: (href) => this.post({ type: 'openLink', href }),
      // Copy reply: the thinking (when the model showed any) as a quoted section, then the reply.
      onCopyReply: (markdown) => {
        const reasoning = this.list[this.indexOf(m.id)]?.meta?.reasoning;
        this.post({ type: 'codeAction', action: 'copy', code: reasoning ? `${thinkingSection(reasoning)}\n\n${markdown}` : markdown, language: 'markdown' });
      },
    });
    entry.view = view;
    view.element.classList.add(m.role === 'user' ? 'user-body' : 'assistant-body');
    entry.footer.before(view.element);
    if (m.status === 'streaming') {
      if (m.content) view.append(m.content);
      m.content = view.text();
    } else {
      view.setText(m.content);
    }
    entry.status = m.status;
  }

  private entryOf(article: HTMLElement): { entry: Entry; m: MessageView } | undefined {
    const id = article.dataset.id;
    const entry = id === undefined ? undefined : this.entries.get(id);
    const m = entry && this.list[this.indexOf(entry.id)];
    return entry && m && entry.article === article ? { entry, m } : undefined;
  }

  /** A message far from view gives its body back (not a reply still streaming). */
  private releaseBody(article: HTMLElement): boolean {
    const found = this.entryOf(article);
    if (!found?.entry.view || found.m.status === 'streaming' || article === this.revealed) return false;
    // The newest turn keeps its body wherever the view is.
    if (this.indexOf(found.m.id) >= this.list.length - 2) return false;
    const { entry } = found;
    entry.view?.dispose();
    entry.view = undefined;
    entry.article.querySelector(':scope > details.reasoning')?.remove();
    return true;
  }

  /** A message given back comes near view again: its body from the text the list keeps. */
  private restoreBody(article: HTMLElement): void {
    const found = this.entryOf(article);
    if (!found || found.entry.view) return;
    this.renderBody(found.entry, found.m);
    if (found.m.role === 'assistant') this.renderReasoning(found.entry, found.m.meta?.reasoning);
  }

  private updateBody(entry: Entry, m: MessageView): void {
    const view = entry.view;
    if (!view) {
      entry.status = m.status;
      return;
    }
    const shown = view.text();
    if (m.status === 'streaming') {
      if (m.content.length > shown.length && m.content.startsWith(shown)) {
        view.append(m.content.slice(shown.length));
      } else if (m.content !== shown && !shown.startsWith(m.content)) {
        view.setText(m.content);
      }
    } else if (m.content !== shown) {
      view.setText(m.content);
    } else if (entry.status === 'streaming') {
      view.finish();
    }
    // One copy of the text: the list and the view share the view's string.
    m.content = view.text();
    entry.status = m.status;
  }

  private renderFooter(
    entry: Entry,
    m: MessageView,
    ctx: { isLastUser: boolean; isLast: boolean; busy: boolean; hasSendError: boolean },
  ): void {
    const footer = entry.footer;
    clear(footer);
    entry.article.classList.toggle('streaming', m.status === 'streaming');
    entry.article.classList.toggle('stopped', m.status === 'stopped');
    entry.article.classList.toggle('failed', m.status === 'error');
    entry.article.setAttribute('aria-busy', m.status === 'streaming' ? 'true' : 'false');
    entry.article.setAttribute('aria-label', messageLabel(m));
    if (m.role === 'user') {
      if (ctx.isLastUser && !ctx.busy) {
        footer.append(button(l10n.t('Edit'), () => this.post({ type: 'editLast', messageId: m.id }), { class: 'link', title: l10n.t('Edit and resend this message') }));
      }
      return;
    }
    this.renderReasoning(entry, m.meta?.reasoning);
    const canRetry = ctx.isLast && !ctx.busy && !ctx.hasSendError;
    if (m.status === 'streaming') {
      footer.append(el('span', { class: 'typing', text: m.content ? '' : l10n.t('Thinking…') }));
    }
    if (m.status === 'stopped') footer.append(el('span', { class: 'stopped-label', text: l10n.t('Stopped') }));
    if (m.meta && m.status !== 'streaming') footer.append(el('span', { class: 'meta', text: replyMetaText(m.meta) }));
    if (!ctx.busy && (m.status === 'complete' || m.status === 'stopped')) {
      footer.append(
        iconButton('repo-forked', l10n.t('Fork from here: a new conversation with everything up to this reply'), () => this.post({ type: 'fork', messageId: m.id }), {
          class: 'fork',
        }),
      );
    }
    const endingNote = m.status === 'complete' ? replyEndingText(m.meta?.ending) : undefined;
    if (endingNote || m.meta?.note) {
      const note = el('p', { class: 'reply-note', text: [endingNote, m.meta?.note].filter(Boolean).join(' ') });
      if (m.meta?.ending === 'length' && canRetry) {
        note.append(' ', button(l10n.t('Continue'), () => this.post({ type: 'continue' }), { class: 'secondary', title: l10n.t('Ask the model to go on where it stopped') }));
      }
      footer.append(note);
    }
    if (m.status === 'error' && m.error) {
      // Only the newest failure is an alert; older ones stay as plain text in the history.
      footer.append(this.errorBox(m.error, canRetry, undefined, ctx.isLast && !ctx.hasSendError));
    } else if (m.status === 'stopped' && canRetry) {
      footer.append(button(l10n.t('Retry'), () => this.post({ type: 'retry' }), { class: 'secondary' }));
    }
  }

  /** An error with the buttons that fix it (role=alert). */
  private errorBox(error: ErrorView, withActions: boolean, onRetry?: () => void, asAlert = true): HTMLElement {
    const box = el('div', { class: `error-box kind-${error.kind}`, role: asAlert ? 'alert' : undefined });
    box.append(el('p', { class: 'error-message', text: error.message }));
    if (!withActions || error.actions.length === 0) return box;
    const actions = el('div', { class: 'error-actions' });
    for (const action of error.actions) {
      if (action === 'retry') {
        const retry = button(l10n.t('Retry'), () => (onRetry ? onRetry() : this.post({ type: 'retry' })), { class: 'secondary' });
        if (error.kind === 'rate-limit' && error.retryAfterSeconds) this.countdown(retry, error.retryAfterSeconds);
        actions.append(retry);
      } else if (action === 'fewerMessages') {
        // Sends the text of the box again (or the failed one the host keeps) with half the earlier turns.
        actions.append(button(actionLabels()[action], () => this.sendFewer(), { class: 'primary' }));
      } else {
        const command = action;
        actions.append(button(actionLabels()[action], () => this.post({ type: 'runCommand', command }), { class: 'primary' }));
      }
    }
    box.append(actions);
    return box;
  }

  /** "Retry in N s", counting down, then "Retry". */
  private countdown(retry: HTMLButtonElement, seconds: number): void {
    if (this.countdownTimer) clearInterval(this.countdownTimer);
    let left = seconds;
    const tick = () => {
      if (left <= 0) {
        retry.textContent = l10n.t('Retry');
        retry.disabled = false;
        if (this.countdownTimer) clearInterval(this.countdownTimer);
        this.countdownTimer = undefined;
        return;
      }
      retry.textContent = l10n.t('Retry in {0} s', left);
      retry.disabled = true;
      left--;
    };
    tick();
    this.countdownTimer = setInterval(tick, 1000);
  }

  private lastSendError: string | undefined;
  /** The model a slash command named for the next send (see setPromptModel). */
  private promptModel: { id: string; label: string } | undefined;
  private renderSendError(error: ErrorView | undefined): void {
    const key = error ? JSON.stringify(error) : undefined;
    if (key === this.lastSendError) return;
    this.lastSendError = key;
    clear(this.sendError);
    if (this.countdownTimer) {
      clearInterval(this.countdownTimer);
      this.countdownTimer = undefined;
    }
    this.sendError.hidden = !error;
    if (!error) return;
    // Retry resends the text that came back into the box (or the failed text kept by the host).
    this.sendError.append(
      this.errorBox(error, true, () => {
        const text = this.input.value;
        if (text.trim()) this.sendText(text);
        else this.post({ type: 'retry' });
      }),
    );
  }

  // --- composer ------------------------------------------------------------------------------

  private onKeyDown(e: KeyboardEvent): void {
    if (this.slash.onKey(e)) return;
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey && !e.isComposing) {
      e.preventDefault();
      // While a reply streams, the host queues the message.
      this.trySend();
    }
  }

  private onSendButton(): void {
    if (this.status.busy) this.post({ type: 'stop' });
    else this.trySend();
  }

  /** A slash command's own model for the next send (its name and price on the cost line), or none. */
  private setPromptModel(model: { id: string; label: string } | undefined): void {
    this.promptModel = model;
    this.costLine.textContent = model ? l10n.t('Next message: {0}', model.label) : nextMessageText(this.settings?.selectedModelCost);
  }

  private trySend(): void {
    const text = this.input.value;
    if (!text.trim()) {
      this.input.focus();
      return;
    }
    this.sendText(text);
  }

  private sendText(text: string): void {
    // Over what the host takes: the text stays in the box, and the chat says why.
    if (text.length > MAX_TEXT) {
      this.lastSendError = undefined;
      this.renderSendError({
        kind: 'validation',
        message: l10n.t('The message is too long to send: {0} characters, at most {1}. Shorten it; it is still in the box.', text.length.toLocaleString(), MAX_TEXT.toLocaleString()),
        actions: [],
      });
      return;
    }
    // Earlier errors are settled by this send: they stop being alerts at once.
    for (const box of this.root.querySelectorAll('.error-box[role="alert"]')) box.removeAttribute('role');
    this.sendError.hidden = true;
    this.lastSendError = undefined;
    this.input.value = '';
    this.saveDraft();
    this.post({ type: 'send', text, ...(this.promptModel ? { model: this.promptModel.id } : {}) });
    this.setPromptModel(undefined);
    this.follower.scrollToBottom();
  }

  private sendFewer(): void {
    const text = this.input.value;
    if (!text.trim()) {
      this.post({ type: 'sendFewer' });
      return;
    }
    this.sendError.hidden = true;
    this.lastSendError = undefined;
    this.input.value = '';
    this.saveDraft();
    this.post({ type: 'sendFewer', text });
    this.follower.scrollToBottom();
  }

  private restoreInput(text: string): void {
    if (!text) return;
    const current = this.input.value;
    if (!current.trim()) this.input.value = text;
    else if (current !== text && !current.includes(text)) this.input.value = `${text}\n\n${current}`;
    this.saveDraft();
    // A draft put back when the panel starts does not take the keyboard; after a refused send the
    // user is already here.
    if (document.hasFocus()) {
      this.input.focus();
      this.input.setSelectionRange(this.input.value.length, this.input.value.length);
    }
  }

  private onModelChange(): void {
    const value = this.modelSelect.value;
    if (value === '__more__') {
      this.modelSelect.value = this.settings?.selectedModel ?? '';
      this.post({ type: 'selectModel' });
      return;
    }
    if (value) this.post({ type: 'selectModel', valueId: value });
  }

  private onTemperatureChange(): void {
    const v = Number(this.temperatureInput.value);
    if (this.temperatureInput.value.trim() === '' || !Number.isFinite(v) || v < 0 || v > 2) {
      this.temperatureInput.setCustomValidity(l10n.t('Temperature must be between 0 and 2'));
      this.temperatureInput.reportValidity();
      return;
    }
    this.temperatureInput.setCustomValidity('');
    this.post({ type: 'setTemperature', value: v });
  }

  // --- webview state (draft survives hide and reload) -------------------------------------

  private loadSaved(): SavedState {
    const s = this.vscode.getState() as Partial<SavedState> | undefined;
    return { draft: typeof s?.draft === 'string' ? s.draft : '', ...(typeof s?.conversationId === 'string' ? { conversationId: s.conversationId } : {}) };
  }

  private postedDraft = '';

  private saveDraftSoon(): void {
    if (this.draftTimer) clearTimeout(this.draftTimer);
    this.draftTimer = setTimeout(() => this.saveDraft(), 250);
  }

  private saveDraft(): void {
    if (this.draftTimer) clearTimeout(this.draftTimer);
    this.draftTimer = undefined;
    this.saveState();
    const text = this.input.value;
    if (text !== this.postedDraft) {
      this.postedDraft = text;
      this.post({ type: 'draft', text });
    }
  }

  /** The webview's own state: a draft the host found the API key in is not kept there. */
  private saveState(): void {
    const state: SavedState = { draft: this.draftHoldsKey ? '' : this.input.value, ...(this.conversationId ? { conversationId: this.conversationId } : {}) };
    this.vscode.setState(state);
  }

}

const root = document.getElementById('app');
if (root) {
  // Translations first: every string below is looked up when the panel builds it.
  const bundle = readL10nBundle(root.dataset.l10n);
  if (bundle) l10n.config({ contents: bundle });
  new ChatApp(root);
}
