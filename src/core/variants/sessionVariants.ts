// The chat session's variants of replies and branches: Retry with… (a new variant of a reply, by
// the model the user picked, shown in its place: a turn of the session like any other), Edit of an
// earlier question (a branch: the session's send starts it), and the pagers (which variant and
// which branch are shown, and so sent with the next message). The session owns the conversation;
// this part acts on it through the session's steps (catchUp, the running turn, its events). VS Code-free.
import * as l10n from '@vscode/l10n';
import type { Conversation, StoredMessage } from '../chat/conversation';
import type { SessionEvent } from '../chat/sessionPorts';
import { showVariant, variantsOf } from './variants';
import { branchesOf, reveal, showBranch } from './branches';

/** What the variants ask of the session whose conversation they change. */
export interface VariantsHost {
  conversation(): Conversation;
  /** A reply runs, or a summary is being written. */
  busy(): boolean;
  /** The session's first step of every change: what other windows wrote is taken in. */
  catchUp(moved: { test: () => boolean; notice: string }): Promise<'same' | 'changed' | 'deleted' | 'moved'>;
  /** Runs a new variant of the reply to `user` with `model`. */
  runVariant(conv: Conversation, user: StoredMessage, model: string): Promise<void>;
  emit(event: SessionEvent): void;
  /** The error of the last send goes (a new turn starts). */
  clearSendError(): void;
  save(conv: Conversation): Promise<void>;
}

export class SessionVariants {
  /** The question the next message sent edits (a branch starts there), for that send only. */
  private editing: string | undefined;

  constructor(private readonly host: VariantsHost) {}

  /** The next message sent is the edit of the question `questionId` (undefined: a new message). */
  editNext(questionId: string | undefined): void {
    this.editing = questionId;
  }

  /** The question the message being sent edits (asked once, by the send). */
  takeEdit(): string | undefined {
    const id = this.editing;
    this.editing = undefined;
    return id;
  }

  /** The catchUp test of an edit: the question is no longer shown (another window changed the conversation). */
  editMoved(questionId: string): { test: () => boolean; notice: string } {
    return {
      test: () => !this.host.conversation().messages.some((m) => m.id === questionId && m.role === 'user'),
      notice: l10n.t('That question is not shown any more: nothing was sent. Your text is back in the box.'),
    };
  }

  /** Shows another branch at the shown question `questionId`: `step` places on. False when there is none to show. */
  async showBranch(questionId: string, step: number): Promise<boolean> {
    if (this.host.busy()) return false;
    await this.host.catchUp({ test: () => false, notice: '' });
    if (this.host.busy()) return false;
    const conv = this.host.conversation();
    const question = conv.messages.find((m) => m.id === questionId && m.role === 'user');
    if (!question || !showBranch(conv, question, { step })) return false;
    // The line below the question changes: the chat shows the conversation again.
    this.host.emit({ type: 'conversationChanged' });
    void this.host.save(conv);
    return true;
  }

  /** The questions of the place of the shown question `questionId`, oldest first. */
  branchesOf(questionId: string): StoredMessage[] {
    const conv = this.host.conversation();
    const question = conv.messages.find((m) => m.id === questionId && m.role === 'user');
    return question ? branchesOf(conv, question) : [];
  }

  /** The shown reply `replyId` and its question, when both are in the line the chat shows. */
  private turnOf(conv: Conversation, replyId: string): { user: StoredMessage; reply: StoredMessage } | undefined {
    const i = conv.messages.findIndex((m) => m.id === replyId && m.role === 'assistant');
    const user = conv.messages[i - 1];
    return i > 0 && user.role === 'user' ? { user, reply: conv.messages[i] } : undefined;
  }

  /**
   * Retry with…: a new variant of the finished reply `replyId`, asked of `model` with the turns
   * above it, shown in its place (the reply stays, one page back). False when nothing was sent:
   * a reply runs, or the reply is not shown any more (another window changed the conversation: the
   * chat shows it as it is and says so).
   */
  async retryWith(replyId: string, model: string): Promise<boolean> {
    if (this.host.busy()) return false;
    const caught = await this.host.catchUp({
      test: () => !this.turnOf(this.host.conversation(), replyId),
      notice: l10n.t('That reply is not in the conversation any more: nothing was sent.'),
    });
    if (this.host.busy() || caught === 'moved' || caught === 'deleted') return false;
    const conv = this.host.conversation();
    const turn = this.turnOf(conv, replyId);
    if (!turn || turn.reply.status === 'streaming') return false;
    this.host.clearSendError();
    await this.host.runVariant(conv, turn.user, model);
    return true;
  }

  /**
   * Shows another variant of the shown reply `replyId`: `step` places on (-1: the one before), or
   * the one with id `to`. The next message goes on from it. False when there is none to show.
   */
  async show(replyId: string, target: { step: number } | { to: string }): Promise<boolean> {
    if (this.host.busy()) return false;
    await this.host.catchUp({ test: () => false, notice: '' });
    if (this.host.busy()) return false;
    const conv = this.host.conversation();
    const turn = this.turnOf(conv, replyId);
    const shown = turn && showVariant(conv, turn.reply, target);
    if (!shown) return false;
    // Only that reply changes on screen (the whole conversation when a summary's card may stand under it).
    this.host.emit(conv.summary ? { type: 'conversationChanged' } : { type: 'variantShown', from: replyId, message: shown });
    // (Saved in the background: the page shows it at once, the log has one line more.)
    void this.host.save(conv);
    return true;
  }

  /**
   * After History's search opened the conversation for `query`: when no message shown holds every
   * word of it and a variant or a branch not shown does, it is shown (the search found it there).
   */
  async showMatching(query: string): Promise<boolean> {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const conv = this.host.conversation();
    const holds = (m: StoredMessage) => words.every((w) => m.content.toLowerCase().includes(w));
    if (words.length === 0 || !conv.variants?.length || conv.messages.some(holds)) return false;
    const found = conv.variants.find(holds);
    return !!found && this.reveal(found.id);
  }

  /** Shows the message `id` not shown now (Find in chat, History's search): its branch and its variant. */
  async reveal(id: string): Promise<boolean> {
    if (this.host.busy()) return false;
    await this.host.catchUp({ test: () => false, notice: '' });
    const conv = this.host.conversation();
    const found = conv.variants?.find((m) => m.id === id);
    if (this.host.busy() || !found) return false;
    const shown = found.role === 'assistant' && found.variantOf !== undefined ? conv.messages.find((m) => m.role === 'assistant' && m.variantOf === found.variantOf) : undefined;
    if (shown) return this.show(shown.id, { to: found.id });
    if (!reveal(conv, found)) return false;
    this.host.emit({ type: 'conversationChanged' });
    void this.host.save(conv);
    return true;
  }

  /** The variants of the shown reply `replyId`, oldest first (empty when it is not shown). */
  of(replyId: string): StoredMessage[] {
    const conv = this.host.conversation();
    const turn = this.turnOf(conv, replyId);
    return turn ? variantsOf(conv, turn.reply) : [];
  }
}
