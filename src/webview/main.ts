// The chat panel's browser code. Talks to the extension host only through the typed protocol
// (validated on receipt), builds the DOM with createElement/textContent, and renders assistant
// replies through the render module.
import {
  nextMessageText,
  replyMetaText,
  parseHostMessage,
  type ChatState,
  type ErrorAction,
  type ErrorView,
  type HostMessage,
  type MessageView,
  type WebviewMessage,
} from '../protocol';
import { announce, createReplyView, createScrollFollower, type ReplyView } from './render/index';
import { button, clear, codicon, el, iconButton, setIconButton } from './dom';

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

const ACTION_LABELS: Record<ErrorAction, string> = {
  setApiKey: 'Set API Key',
  showSubscriptions: 'Show Subscriptions',
  retry: 'Retry',
  openSettings: 'Open Settings',
};

interface Entry {
  id: string;
  role: 'user' | 'assistant';
  article: HTMLElement;
  /** Status, meta, error and buttons of the message (rebuilt from each state). */
  footer: HTMLElement;
  view?: ReplyView;
  content: string;
  status: MessageView['status'];
  signature: string;
}

class ChatApp {
  private readonly vscode: VsCodeApi;
  private state: ChatState | undefined;
  private conversationId: string | undefined;
  private readonly entries = new Map<string, Entry>();
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
  private readonly messages: HTMLElement;
  private readonly emptyHint: HTMLElement;
  private readonly jumpHost: HTMLElement;
  private readonly sendError: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly costLine: HTMLElement;
  private readonly replying: HTMLElement;
  private readonly follower;

  constructor(root: HTMLElement) {
    this.vscode = acquireVsCodeApi();
    this.root = root;

    this.newChatButton = iconButton('add', 'New Chat', () => this.post({ type: 'newChat' }));
    this.historyButton = iconButton('history', 'History', () => this.post({ type: 'openHistory' }));
    this.modelSelect = el('select', { id: 'model', 'aria-label': 'Model' });
    this.modelSelect.addEventListener('change', () => this.onModelChange());
    this.searchToggle = iconButton('globe', 'Web search', () => this.post({ type: 'setSearch', value: !this.state?.search }), {
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
      'aria-label': 'Temperature',
      title: 'Temperature (0 to 2)',
    });
    this.temperatureInput.addEventListener('change', () => this.onTemperatureChange());

    // A compact header: the model as a dropdown, the options as icons, the actions at the end.
    const toolbar = el(
      'div',
      { class: 'toolbar', role: 'toolbar', 'aria-label': 'Chat settings' },
      el('span', { class: 'dropdown' }, this.modelSelect, el('span', { class: 'dropdown-chevron' }, codicon('chevron-down'))),
      this.searchToggle,
      el('label', { class: 'field', for: 'temperature', title: 'Temperature (0 to 2)' }, codicon('flame'), this.temperatureInput),
      el('span', { class: 'spacer' }),
      el('span', { class: 'actions' }, this.newChatButton, this.historyButton),
    );

    this.notice = el('div', { class: 'notice', role: 'status', hidden: true });
    this.messages = el('div', { class: 'messages', role: 'log', 'aria-label': 'Conversation', tabindex: 0 });
    this.emptyHint = el('p', { class: 'empty-hint', text: 'Ask anything. Enter sends, Shift+Enter adds a new line.' });
    this.jumpHost = el('div', { class: 'jump-host' });
    this.sendError = el('div', { class: 'send-error', hidden: true });

    this.input = el('textarea', {
      id: 'message',
      'aria-label': 'Message',
      rows: 3,
      placeholder: 'Message (Enter to send, Shift+Enter for a new line)',
    });
    this.input.addEventListener('keydown', (e) => this.onKeyDown(e));
    this.input.addEventListener('input', () => this.saveDraftSoon());
    this.sendButton = iconButton('send', 'Send', () => this.onSendButton(), { class: 'primary send' });
    this.costLine = el('span', { class: 'cost', text: nextMessageText(null) });
    this.replying = el('span', { class: 'replying', role: 'status', 'aria-live': 'polite' });
    const composer = el(
      'div',
      { class: 'composer' },
      this.input,
      el('div', { class: 'composer-bar' }, this.replying, el('span', { class: 'spacer' }), this.costLine, this.sendButton),
    );

    root.append(toolbar, this.notice, el('div', { class: 'conversation' }, this.messages, this.jumpHost), this.sendError, composer);
    this.follower = createScrollFollower(this.messages, this.jumpHost);

    const saved = this.loadSaved();
    if (saved.draft) this.input.value = saved.draft;
    this.postedDraft = saved.draft;
    this.conversationId = undefined;

    window.addEventListener('message', (e: MessageEvent) => this.receive(e.data));
    this.post({ type: 'ready' });
    this.input.focus();
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
    this.handle(parsed.message);
  }

  private handle(msg: HostMessage): void {
    switch (msg.type) {
      case 'state':
        this.render(msg.state);
        return;
      case 'streamStart':
        return;
      case 'streamChunk': {
        const entry = this.entries.get(msg.messageId);
        if (!entry?.view) return;
        const have = entry.content.length;
        const end = msg.offset + msg.text.length;
        if (end <= have) return; // already shown (a state snapshot carried it)
        const text = msg.offset < have ? msg.text.slice(have - msg.offset) : msg.text;
        if (entry.content === '') {
          entry.footer.querySelector('.typing')?.replaceChildren();
          this.replying.textContent = 'Assistant is replying…';
        }
        entry.view.append(text);
        entry.content += text;
        this.follower.contentChanged();
        return;
      }
      case 'streamEnd': {
        const entry = this.entries.get(msg.messageId);
        if (entry?.view) entry.view.finish();
        announce(msg.status === 'stopped' ? 'Reply stopped' : 'Assistant reply complete');
        return;
      }
      case 'streamStatus': {
        // Shown where the reply will appear and in the status line, until its text arrives.
        const entry = this.entries.get(msg.messageId);
        if (!entry || entry.content !== '') return;
        const typing = entry.footer.querySelector('.typing');
        if (typing) typing.textContent = msg.text;
        this.replying.textContent = msg.text;
        return;
      }
      case 'streamError':
        // The error itself is shown in the message (role=alert) by the next state.
        return;
      case 'restoreInput':
        this.restoreInput(msg.text);
        return;
      case 'focusInput':
        this.input.focus();
        return;
    }
  }

  // --- state rendering --------------------------------------------------------------------

  private render(state: ChatState): void {
    const previous = this.state;
    this.state = state;
    this.root.classList.toggle('busy', state.busy);
    if (state.fontSize > 0) document.documentElement.style.setProperty('--chat-font-size', `${state.fontSize}px`);
    else document.documentElement.style.removeProperty('--chat-font-size');

    this.renderControls(state);
    this.renderNotice(state);
    this.renderConversation(state, previous);
    this.renderSendError(state.sendError);

    setIconButton(this.sendButton, state.busy ? 'debug-stop' : 'send', state.busy ? 'Stop' : 'Send');
    this.sendButton.classList.toggle('stop', state.busy);
    this.replying.textContent = state.busy ? 'Assistant is replying…' : '';
    this.costLine.textContent = nextMessageText(state.selectedModelCost);

    if (this.conversationId !== state.conversation.id) {
      this.conversationId = state.conversation.id;
      this.saveDraft();
    }
  }

  private renderControls(state: ChatState): void {
    const select = this.modelSelect;
    const focused = document.activeElement === select;
    if (!focused) {
      clear(select);
      if (!state.selectedModel) select.append(el('option', { value: '', text: 'Choose a model…' }));
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
      select.append(el('option', { value: '__more__', text: 'More models…' }));
      select.value = state.selectedModel;
      select.title = state.modelsError ? `Could not load the models: ${state.modelsError}` : '';
    }
    this.searchToggle.setAttribute('aria-pressed', String(state.search));
    this.searchToggle.classList.toggle('checked', state.search);
    if (document.activeElement !== this.temperatureInput) this.temperatureInput.value = String(state.temperature);
  }

  private renderNotice(state: ChatState): void {
    clear(this.notice);
    const show = !state.hasKey && state.sendError?.kind !== 'auth';
    this.notice.hidden = !show;
    if (!show) return;
    this.notice.append(
      el('span', { text: 'No API key is set. Set your API key to start chatting.' }),
      button('Set API Key', () => this.post({ type: 'runCommand', command: 'setApiKey' }), { class: 'primary' }),
    );
  }

  private renderConversation(state: ChatState, previous: ChatState | undefined): void {
    const conv = state.conversation;
    const switched = !previous || previous.conversation.id !== conv.id;
    if (switched) {
      for (const e of this.entries.values()) e.view?.dispose();
      this.entries.clear();
      clear(this.messages);
    }
    const wanted = new Set(conv.messages.map((m) => m.id));
    for (const [id, entry] of this.entries) {
      if (!wanted.has(id)) {
        entry.view?.dispose();
        entry.article.remove();
        this.entries.delete(id);
      }
    }
    const lastUser = [...conv.messages].reverse().find((m) => m.role === 'user');
    const last = conv.messages[conv.messages.length - 1];
    let grew = false;
    conv.messages.forEach((m, index) => {
      let entry = this.entries.get(m.id);
      if (entry && entry.role !== m.role) {
        entry.view?.dispose();
        entry.article.remove();
        this.entries.delete(m.id);
        entry = undefined;
      }
      if (!entry) {
        entry = this.createEntry(m);
        this.entries.set(m.id, entry);
        grew = true;
      } else {
        this.updateBody(entry, m);
      }
      const ctx = { isLastUser: m === lastUser, isLast: m === last, busy: state.busy, hasSendError: !!state.sendError };
      const signature = JSON.stringify([m.status, m.meta, m.error, ctx]);
      if (signature !== entry.signature) {
        this.renderFooter(entry, m, ctx);
        entry.signature = signature;
      }
      const node = this.messages.children[index];
      if (node !== entry.article) this.messages.insertBefore(entry.article, node ?? null);
    });
    this.emptyHint.remove();
    if (conv.messages.length === 0) this.messages.append(this.emptyHint);
    if (switched) this.follower.scrollToBottom();
    else if (grew) this.follower.contentChanged();
  }

  private createEntry(m: MessageView): Entry {
    const label = m.role === 'user' ? 'You' : 'Assistant';
    const article = el('article', { class: `message ${m.role}`, role: 'article', 'aria-label': label });
    const footer = el('div', { class: 'message-footer' });
    const entry: Entry = { id: m.id, role: m.role, article, footer, content: '', status: m.status, signature: '' };
    article.append(el('div', { class: 'message-role', 'aria-hidden': 'true', text: label }));
    // Both sides are shown as Markdown (a sent selection is a fenced code block), never as HTML.
    const view = createReplyView({
      onCodeAction: (action, code, language) => this.post({ type: 'codeAction', action, code, language }),
      onOpenLink: (href) => this.post({ type: 'openLink', href }),
      onCopyReply: (markdown) => this.post({ type: 'codeAction', action: 'copy', code: markdown, language: 'markdown' }),
    });
    entry.view = view;
    view.element.classList.add(m.role === 'user' ? 'user-body' : 'assistant-body');
    article.append(view.element);
    if (m.status === 'streaming') {
      if (m.content) view.append(m.content);
    } else {
      view.setText(m.content);
    }
    entry.content = m.content;
    entry.status = m.status;
    article.append(footer);
    return entry;
  }

  private updateBody(entry: Entry, m: MessageView): void {
    const view = entry.view;
    if (!view) return;
    if (m.status === 'streaming') {
      if (m.content.length > entry.content.length && m.content.startsWith(entry.content)) {
        view.append(m.content.slice(entry.content.length));
        entry.content = m.content;
      } else if (m.content !== entry.content && !entry.content.startsWith(m.content)) {
        view.setText(m.content);
        entry.content = m.content;
      }
    } else if (m.content !== entry.content) {
      view.setText(m.content);
      entry.content = m.content;
    } else if (entry.status === 'streaming') {
      view.finish();
    }
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
    if (m.role === 'user') {
      if (ctx.isLastUser && !ctx.busy) {
        footer.append(button('Edit', () => this.post({ type: 'editLast' }), { class: 'link', title: 'Edit and resend this message' }));
      }
      return;
    }
    const canRetry = ctx.isLast && !ctx.busy && !ctx.hasSendError;
    if (m.status === 'streaming') {
      footer.append(el('span', { class: 'typing', text: m.content ? '' : 'Thinking…' }));
    }
    if (m.status === 'stopped') footer.append(el('span', { class: 'stopped-label', text: 'Stopped' }));
    if (m.meta && m.status !== 'streaming') footer.append(el('span', { class: 'meta', text: replyMetaText(m.meta) }));
    if (m.status === 'error' && m.error) {
      // Only the newest failure is an alert; older ones stay as plain text in the history.
      footer.append(this.errorBox(m.error, canRetry, undefined, ctx.isLast && !ctx.hasSendError));
    } else if (m.status === 'stopped' && canRetry) {
      footer.append(button('Retry', () => this.post({ type: 'retry' }), { class: 'secondary' }));
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
        const retry = button('Retry', () => (onRetry ? onRetry() : this.post({ type: 'retry' })), { class: 'secondary' });
        if (error.kind === 'rate-limit' && error.retryAfterSeconds) this.countdown(retry, error.retryAfterSeconds);
        actions.append(retry);
      } else {
        const command = action;
        actions.append(button(ACTION_LABELS[action], () => this.post({ type: 'runCommand', command }), { class: 'primary' }));
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
        retry.textContent = 'Retry';
        retry.disabled = false;
        if (this.countdownTimer) clearInterval(this.countdownTimer);
        this.countdownTimer = undefined;
        return;
      }
      retry.textContent = `Retry in ${left} s`;
      retry.disabled = true;
      left--;
    };
    tick();
    this.countdownTimer = setInterval(tick, 1000);
  }

  private lastSendError: string | undefined;
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
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey && !e.isComposing) {
      e.preventDefault();
      if (!this.state?.busy) this.trySend();
    }
  }

  private onSendButton(): void {
    if (this.state?.busy) this.post({ type: 'stop' });
    else this.trySend();
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
    // Earlier errors are settled by this send: they stop being alerts at once.
    for (const box of this.root.querySelectorAll('.error-box[role="alert"]')) box.removeAttribute('role');
    this.sendError.hidden = true;
    this.lastSendError = undefined;
    this.input.value = '';
    this.saveDraft();
    this.post({ type: 'send', text });
    this.follower.scrollToBottom();
  }

  private restoreInput(text: string): void {
    if (!text) return;
    const current = this.input.value;
    if (!current.trim()) this.input.value = text;
    else if (current !== text && !current.includes(text)) this.input.value = `${text}\n\n${current}`;
    this.saveDraft();
    this.input.focus();
    this.input.setSelectionRange(this.input.value.length, this.input.value.length);
  }

  private onModelChange(): void {
    const value = this.modelSelect.value;
    if (value === '__more__') {
      this.modelSelect.value = this.state?.selectedModel ?? '';
      this.post({ type: 'selectModel' });
      return;
    }
    if (value) this.post({ type: 'selectModel', valueId: value });
  }

  private onTemperatureChange(): void {
    const v = Number(this.temperatureInput.value);
    if (this.temperatureInput.value.trim() === '' || !Number.isFinite(v) || v < 0 || v > 2) {
      this.temperatureInput.setCustomValidity('Temperature must be between 0 and 2');
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
    const state: SavedState = { draft: this.input.value, ...(this.conversationId ? { conversationId: this.conversationId } : {}) };
    this.vscode.setState(state);
    if (state.draft !== this.postedDraft) {
      this.postedDraft = state.draft;
      this.post({ type: 'draft', text: state.draft });
    }
  }
}

const root = document.getElementById('app');
if (root) new ChatApp(root);
