// What the webview is told, built from the session's state and events: the one translation from
// the domain's messages to the protocol's views (values the webview would refuse are left out or
// cut, never the message). VS Code-free.
import { toConversationView, toModelSummaries, type ChatSession, type ModelLike, type OutOfCreditsCard, type SessionEvent, type StoredMessage } from '../../../core';
import {
  MAX_INSTRUCTIONS_NAME, MAX_MODEL_ID, MAX_NOTICE, MAX_REASONING, clip,
  type ChatSettings, type ChatStatus, type HostMessage, type InstructionsView, type MessageView, type ReplyMeta,
} from '../../../protocol';

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
export function eventMessages(event: SessionEvent, version: number, status: ChatStatus, conversation: (notice?: string) => HostMessage): HostMessage[] {
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
      return [conversation(event.notice)];
    case 'summaryEnded':
    case 'conversationRemoved':
      // What was kept for it goes (its queue); the chat is told by conversationChanged if it showed it.
      return [];
    case 'sendErrorChanged':
      return [{ type: 'status', status, version }];
    case 'inputReturned':
      return [{ type: 'restoreInput', text: event.text }];
    case 'turnSettled':
      // The charge reaches the reply as messageChanged; the settlement itself shows nothing.
      return [];
  }
}

/** What the settings snapshot is made of: the settings, the models, the key, the notices, the card. */
export interface SettingsViewInput {
  settings: { model: string; search: boolean; temperature: number; fontSize: number };
  models: { models: readonly ModelLike[] | undefined; loading: boolean; error: string | undefined; costOf(id: string): number | null };
  hasKey: boolean;
  addressNotice: string | undefined;
  modelNotice: string | undefined;
  instructions: InstructionsView | undefined;
  outOfCredits: OutOfCreditsCard | undefined;
}

/** The settings snapshot the chat shows; strings from settings cut to what the webview takes (it drops a whole snapshot otherwise). */
export function settingsView(input: SettingsViewInput): ChatSettings {
  const { settings: s, models } = input;
  const notice = input.addressNotice === undefined ? undefined : clip(input.addressNotice, MAX_NOTICE);
  const shown = input.instructions;
  const instructions = shown ? { ...shown, name: clip(shown.name, MAX_INSTRUCTIONS_NAME), text: clip(shown.text, MAX_NOTICE) } : undefined;
  const modelNotice = input.modelNotice === undefined ? undefined : clip(input.modelNotice, MAX_NOTICE);
  const card = input.outOfCredits;
  return {
    models: toModelSummaries(models.models ?? []),
    modelsLoading: models.loading,
    ...(models.error !== undefined && !models.models ? { modelsError: models.error } : {}),
    selectedModel: s.model,
    selectedModelCost: s.model ? models.costOf(s.model) : null,
    search: s.search,
    temperature: s.temperature,
    fontSize: s.fontSize,
    hasKey: input.hasKey,
    ...(notice ? { addressNotice: notice } : {}),
    ...(modelNotice ? { modelNotice } : {}),
    ...(instructions ? { instructions } : {}),
    ...(card ? { outOfCredits: { ...card, model: clip(card.model, MAX_MODEL_ID) } } : {}),
  };
}
