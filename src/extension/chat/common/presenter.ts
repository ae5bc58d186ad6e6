// What the webview is told, built from the session's state and events: the one translation from
// the domain's messages to the protocol's views (values the webview would refuse are left out or
// cut, never the message). VS Code-free.
import { toConversationView, type ChatSession, type SessionEvent, type StoredMessage } from '../../../core';
import { MAX_MODEL_ID, MAX_NOTICE, MAX_REASONING, clip, type ChatStatus, type HostMessage, type MessageView, type ReplyMeta } from '../../../protocol';

const safeCount = (n: number | undefined) => (n !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined);

/** A reply's meta as the webview accepts it: values it would refuse are left out, never the message. */
function metaView(meta: ReplyMeta): ReplyMeta {
  // The stream's data and annotations stay in the store: the panel never shows them.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { credits, promptTokens, completionTokens, note, reasoning, extras, ...rest } = meta;
  const okCredits = credits !== undefined && Number.isFinite(credits) && credits >= 0 ? credits : undefined;
  return {
    ...rest,
    model: clip(rest.model, MAX_MODEL_ID),
    ...(okCredits !== undefined ? { credits: okCredits } : {}),
    ...(safeCount(promptTokens) !== undefined ? { promptTokens } : {}),
    ...(safeCount(completionTokens) !== undefined ? { completionTokens } : {}),
    ...(note !== undefined ? { note: clip(note, 500) } : {}),
    ...(reasoning ? { reasoning: clip(reasoning, MAX_REASONING) } : {}),
  };
}

export function messageView(m: StoredMessage): MessageView {
  return {
    id: m.id,
    role: m.role,
    content: m.content,
    status: m.status,
    ...(m.meta ? { meta: metaView(m.meta) } : {}),
    ...(m.error ? { error: m.error } : {}),
  };
}

/** The whole conversation, with the session's version; `notice` says why it is not the one the user had. */
export function conversationMessageOf(session: ChatSession, status: ChatStatus, notice?: string): HostMessage {
  const view = toConversationView(session.conversation);
  return {
    type: 'conversation',
    conversation: { ...view, messages: view.messages.map((m) => (m.meta ? { ...m, meta: metaView(m.meta) } : m)) },
    status,
    version: session.version,
    ...(notice ? { notice: clip(notice, MAX_NOTICE) } : {}),
  };
}

/** One domain event of the session as what the webview is told, at the session's `version`. */
export function eventMessages(event: SessionEvent, version: number, status: ChatStatus, conversation: () => HostMessage): HostMessage[] {
  switch (event.type) {
    case 'turnStarted':
      return [{ type: 'turnStarted', user: messageView(event.user), assistant: messageView(event.assistant), status, version }];
    case 'textAppended':
      return [{ type: 'streamChunk', messageId: event.messageId, offset: event.offset, text: event.text, version }];
    case 'turnStatus':
      return [{ type: 'streamStatus', messageId: event.messageId, text: clip(event.text, MAX_NOTICE), version }];
    case 'turnEnded':
      return [{ type: 'turnEnded', message: messageView(event.message), status, version }];
    case 'messageChanged':
      return [{ type: 'messageChanged', message: messageView(event.message), version }];
    case 'conversationChanged':
      return [conversation()];
    case 'sendErrorChanged':
      return [{ type: 'status', status, version }];
    case 'inputReturned':
      return [{ type: 'restoreInput', text: event.text }];
    case 'turnSettled':
      // The charge reaches the reply as messageChanged; the settlement itself shows nothing.
      return [];
  }
}
