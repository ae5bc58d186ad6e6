// One message of the conversation in the DOM: its <article> (labelled for a screen reader), its
// body (Markdown on both sides, rendered by the render module, never HTML), a reasoning model's
// thinking above a reply, and its footer (status, meta, note, error and buttons).
//
// Each message's text is kept once: the transcript's MessageView holds it, and the body's view
// shows that same string (`shareText`).
import * as l10n from '@vscode/l10n';
import type { MessageView, WebviewMessage } from '../protocol';
import { replyEndingText, replyMetaText, thinkingSection } from '../wording';
import { messageLabel } from './a11y';
import { button, clear, el, iconButton } from './dom';
import type { ErrorBoxes } from './errorBox';
import { createReplyView, type ReplyView } from './render/index';
import type { FooterContext } from './transcript';
import { renderReplyChanges } from './replyChanges';
import { branchPager, retryWithButton, variantPager } from './variants/variantPager';
import { sentWithList } from './sentWith';

export interface MessageArticle {
  id: string;
  role: 'user' | 'assistant';
  article: HTMLElement;
  /** Status, meta, error and buttons of the message (rebuilt from each state). */
  footer: HTMLElement;
  /** The rendered body; none while the message is far from view (see turnWindow.ts). */
  view?: ReplyView;
  status: MessageView['status'];
  signature: string;
  /** Under a reply whose code blocks name files: Apply All, or what its changes are now (replyChanges.ts). */
  changes?: HTMLElement;
}

export interface ArticleHooks {
  post: (message: WebviewMessage) => void;
  errors: ErrorBoxes;
  /** The message as the transcript has it now (its thinking for Copy reply). */
  message(id: string): MessageView | undefined;
  /** Edit of an earlier question (a branch starts there): its text goes into the box. */
  edit?: (m: MessageView) => void;
}

/** The list and the view keep one string: the message's text becomes the view's (the same text). */
function shareText(m: MessageView, view: ReplyView): void {
  m.content = view.text();
}

export function createArticle(m: MessageView, hooks: ArticleHooks): MessageArticle {
  const label = m.role === 'user' ? l10n.t('You') : l10n.t('Assistant');
  const article = el('article', { class: `message ${m.role}`, 'aria-label': messageLabel(m), 'data-id': m.id });
  const footer = el('div', { class: 'message-footer' });
  const entry: MessageArticle = { id: m.id, role: m.role, article, footer, status: m.status, signature: '' };
  article.append(el('div', { class: 'message-role', 'aria-hidden': 'true', text: label }), footer);
  if (m.role === 'assistant') {
    entry.changes = el('div', { class: 'reply-changes', hidden: true });
    footer.after(entry.changes);
    renderReplyChanges(entry.changes, m, hooks.post);
  }
  renderBody(entry, m, hooks);
  return entry;
}

/** The message's body, before its footer: Markdown on both sides (a sent selection is a fenced code block), never HTML. */
export function renderBody(entry: MessageArticle, m: MessageView, hooks: ArticleHooks): void {
  const view = createReplyView({
    onCodeAction: (action, code, language, path) => hooks.post({ type: 'codeAction', action, code, language, ...(path ? { path } : {}) }),
    onOpenLink: (href) => hooks.post({ type: 'openLink', href }),
    // Copy reply: the thinking (when the model showed any) as a quoted section, then the reply.
    onCopyReply: (markdown) => {
      const reasoning = hooks.message(m.id)?.meta?.reasoning;
      hooks.post({ type: 'codeAction', action: 'copy', code: reasoning ? `${thinkingSection(reasoning)}\n\n${markdown}` : markdown, language: 'markdown' });
    },
  });
  entry.view = view;
  view.element.classList.add(m.role === 'user' ? 'user-body' : 'assistant-body');
  entry.footer.before(view.element);
  if (m.status === 'streaming') {
    if (m.content) view.append(m.content);
    shareText(m, view);
  } else {
    view.setText(m.content);
  }
  entry.status = m.status;
}

/** Text streamed into a reply's body (none while it is far from view: it is rendered from the message when it comes near). */
export function appendText(entry: MessageArticle, m: MessageView | undefined, text: string): void {
  if (!entry.view) return;
  entry.view.append(text);
  if (m) shareText(m, entry.view);
}

/** The body shows the message's state: streamed text goes on, other text replaces it, a stream that ended is finished. */
export function updateBody(entry: MessageArticle, m: MessageView): void {
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
  shareText(m, view);
  entry.status = m.status;
}

/** A body far from view is given back (with the thinking above it); both are rendered again when it comes near. */
export function releaseBody(entry: MessageArticle): void {
  entry.view?.dispose();
  entry.view = undefined;
  entry.article.querySelector(':scope > details.reasoning')?.remove();
}

/**
 * A reasoning model's thinking: a collapsed "Thinking" section above the reply, plain text (never
 * Markdown or HTML), kept out of the reply's text, its Copy and its code actions.
 */
export function renderReasoning(entry: MessageArticle, reasoning: string | undefined): void {
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

/** What a reply says under it while it waits (empty: the usual "Thinking…" until text comes). */
export function showWaiting(entry: MessageArticle, text: string): void {
  const typing = entry.footer.querySelector('.typing');
  if (typing) typing.textContent = text || (entry.view?.text() ? '' : l10n.t('Thinking…'));
}

/** Text came: what the reply said while it waited goes. */
export function clearWaiting(entry: MessageArticle): void {
  entry.footer.querySelector('.typing')?.replaceChildren();
}

/** A text with `code` spans as the rules list words it: the code as <code>, never HTML. */
function withCode(text: string): Array<Node | string> {
  return text.split('`').map((part, i) => (i % 2 === 1 ? el('code', { text: part }) : part));
}

/** "Rules: N" under a reply: each rule that went with its request, its file and why; and where to turn one off. */
function rulesList(rules: NonNullable<NonNullable<MessageView['meta']>['rules']>, post: ArticleHooks['post']): HTMLElement {
  const list = el('ul', {}, ...rules.map((r) => el('li', {}, el('code', { text: r.path }), ' · ', ...withCode(r.why))));
  const manage = button(l10n.t('Turn a rule off or on…'), () => post({ type: 'runCommand', command: 'showRules' }), { class: 'link' });
  return el('details', { class: 'reply-rules' }, el('summary', { text: l10n.t('Rules: {0}', rules.length) }), list, manage);
}

/** The footer of a message for its state, place and the status (redrawn only when one of them changed). */
export function renderFooter(entry: MessageArticle, m: MessageView, ctx: FooterContext, hooks: ArticleHooks): void {
  const signature = JSON.stringify([m.status, m.meta, m.error, m.variant, m.branch, m.sent, ctx]);
  if (signature === entry.signature) return;
  entry.signature = signature;
  if (entry.changes) renderReplyChanges(entry.changes, m, hooks.post);
  const { post } = hooks;
  const footer = entry.footer;
  clear(footer);
  entry.article.classList.toggle('streaming', m.status === 'streaming');
  entry.article.classList.toggle('stopped', m.status === 'stopped');
  entry.article.classList.toggle('failed', m.status === 'error');
  entry.article.setAttribute('aria-busy', m.status === 'streaming' ? 'true' : 'false');
  entry.article.setAttribute('aria-label', messageLabel(m));
  if (m.role === 'user') {
    if (m.sent?.length) footer.append(sentWithList(m.sent, post));
    const pager = branchPager(m, ctx.busy, post);
    if (pager) footer.append(pager);
    if (ctx.isLastUser && !m.branch) {
      // The last question: taken back into the box with its reply (as Edit always did).
      if (!ctx.busy) footer.append(button(l10n.t('Edit'), () => post({ type: 'editLast', messageId: m.id }), { class: 'link', title: l10n.t('Edit and resend this message') }));
    } else if (hooks.edit) {
      // An earlier question: its text into the box; sending it starts a branch here, and this one stays.
      const edit = hooks.edit;
      footer.append(button(l10n.t('Edit'), () => edit(m), { class: 'link edit-branch', title: l10n.t('Edit this question: sending it starts a branch here, and this one stays') }));
    }
    return;
  }
  renderReasoning(entry, m.meta?.reasoning);
  const canRetry = ctx.isLast && !ctx.busy && !ctx.hasSendError;
  if (m.status === 'streaming') {
    footer.append(el('span', { class: 'typing', text: m.content ? '' : l10n.t('Thinking…') }));
  }
  if (m.status === 'stopped') footer.append(el('span', { class: 'stopped-label', text: l10n.t('Stopped') }));
  const pager = variantPager(m, ctx.busy, post);
  if (pager) footer.append(pager);
  else if (m.meta && m.status !== 'streaming') footer.append(el('span', { class: 'meta', text: replyMetaText(m.meta) }));
  if (!ctx.busy && m.status !== 'streaming') footer.append(retryWithButton(m, post));
  if (!ctx.busy && (m.status === 'complete' || m.status === 'stopped')) {
    footer.append(
      iconButton('repo-forked', l10n.t('Fork from here: a new conversation with everything up to this reply'), () => post({ type: 'fork', messageId: m.id }), {
        class: 'fork',
      }),
    );
  }
  if (m.meta?.rules?.length && m.status !== 'streaming') footer.append(rulesList(m.meta.rules, post));
  const endingNote = m.status === 'complete' ? replyEndingText(m.meta?.ending) : undefined;
  if (endingNote || m.meta?.note) {
    const note = el('p', { class: 'reply-note', text: [endingNote, m.meta?.note].filter(Boolean).join(' ') });
    if (m.meta?.ending === 'length' && canRetry) {
      note.append(' ', button(l10n.t('Continue'), () => post({ type: 'continue' }), { class: 'secondary', title: l10n.t('Ask the model to go on where it stopped') }));
    }
    footer.append(note);
  }
  if (m.status === 'error' && m.error) {
    // Only the newest failure is an alert; older ones stay as plain text in the history.
    footer.append(hooks.errors.box(m.error, canRetry, undefined, ctx.isLast && !ctx.hasSendError));
  } else if (m.status === 'stopped' && canRetry) {
    footer.append(button(l10n.t('Retry'), () => post({ type: 'retry' }), { class: 'secondary' }));
  }
}
