// The chat session's variants of replies: Retry with… (a new variant of a reply, by the model the
// user picked, shown in its place: a turn of the session like any other) and the pager (which
// variant is shown, and so sent with the next message). The session owns the conversation; this
// part acts on it through the session's steps (catchUp, the running turn, its events). VS Code-free.
import * as l10n from '@vscode/l10n';
import type { Conversation, StoredMessage } from '../chat/conversation';
import type { SessionEvent } from '../chat/sessionPorts';
import { showVariant, variantsOf } from './variants';

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
  constructor(private readonly host: VariantsHost) {}

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
   * word of it and a variant not shown does, that variant is shown (the search found it there).
   */
  async showMatching(query: string): Promise<boolean> {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const conv = this.host.conversation();
    const holds = (m: StoredMessage) => words.every((w) => m.content.toLowerCase().includes(w));
    if (words.length === 0 || !conv.variants?.length || conv.messages.some(holds)) return false;
    const found = conv.variants.find(holds);
    const shown = found && conv.messages.find((m) => m.role === 'assistant' && m.variantOf === found.variantOf);
    return !!found && !!shown && this.show(shown.id, { to: found.id });
  }

  /** The variants of the shown reply `replyId`, oldest first (empty when it is not shown). */
  of(replyId: string): StoredMessage[] {
    const conv = this.host.conversation();
    const turn = this.turnOf(conv, replyId);
    return turn ? variantsOf(conv, turn.reply) : [];
  }
}
