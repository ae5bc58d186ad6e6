// What the webview is told, built from the session's state and events and from what the host
// holds (the queue, the chips, the slash commands, the meter, the box): the one place that builds
// the protocol's messages for the chat (values the webview would refuse are left out or cut, never
// the message). VS Code-free.
import {
  branchPlace, branchPlaces, hasUsablePrice, hiddenMessages, modelUsability, summaryEnd, variantPlace, variantPlaces,
  type ChatSession, type ContextSelection, type Conversation, type MessageQueue, type ModelLike, type OutOfCreditsCard, type ReplyFacts,
  type RequestBudget, type SessionEvent, type StoredMessage, type SummaryPlan,
} from '../../../core';
import {
  MAX_INSTRUCTIONS_NAME, MAX_MODEL_ID, MAX_NOTICE, MAX_PROMPTS, MAX_REASONING, MAX_SUMMARY_VIEW, clip,
  type ChatSettings, type ChatStatus, type ContextChip, type ContextMeter, type ConversationView, type HostMessage, type InstructionsView,
  type MessageView, type ModelSummary, type PromptItem, type ReplyMeta,
} from '../../../protocol';

const safeCount = (n: number | undefined) => (n !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined);

/** A reply's facts as the webview accepts them: values it would refuse are left out, never the message. */
function metaView(meta: ReplyFacts): ReplyMeta {
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

/** A message as the webview shows it; `conv`: its conversation, for the place of a reply among its variants ("2 / 3"). */
export function messageView(m: StoredMessage, conv?: Conversation): MessageView {
  const place = conv ? variantPlace(conv, m) : undefined;
  const branch = conv ? branchPlace(conv, m) : undefined;
  return {
    id: m.id,
    role: m.role,
    content: m.content,
    status: m.status,
    ...(m.meta ? { meta: metaView(m.meta) } : {}),
    ...(m.error ? { error: m.error } : {}),
    ...(place ? { variant: place } : {}),
    ...(branch ? { branch } : {}),
    ...(m.sent ? { sent: m.sent } : {}),
  };
}

/** A stored conversation as the protocol's view of it: the summary's card below the last message it replaces (as it is now). */
export function toConversationView(conv: Conversation): ConversationView {
  const s = conv.summary;
  const end = summaryEnd(conv);
  const places = variantPlaces(conv);
  const branches = branchPlaces(conv);
  const hidden = hiddenMessages(conv);
  return {
    id: conv.id,
    title: conv.title,
    ...(s && end !== undefined
      ? {
          // As stored, but for what the card does not show; below the message that now ends it.
          summary: (({ messageCount: _count, createdAt: _at, ...view }) => ({ ...view, throughId: conv.messages[end - 1].id }))(s),
        }
      : {}),
    messages: conv.messages.map((m) => {
      const place = places.get(m.id);
      const branch = branches.get(m.id);
      return {
        id: m.id,
        role: m.role,
        content: m.content,
        status: m.status,
        ...(m.meta ? { meta: m.meta } : {}),
        ...(m.error ? { error: m.error } : {}),
        ...(place ? { variant: place } : {}),
        ...(branch ? { branch } : {}),
        ...(m.sent ? { sent: m.sent } : {}),
      };
    }),
    // Find in chat finds text in what is not shown too.
    ...(hidden.length ? { hidden: hidden.map(({ message: m, kind }) => ({ id: m.id, role: m.role, content: m.content, kind })) } : {}),
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

type ConversationMessage = Extract<HostMessage, { type: 'conversation' }>;

/** A conversation the webview refused even cut: it is shown empty with `notice`, never an older one. */
export function unshownConversationOf(message: ConversationMessage, notice: string): HostMessage {
  return {
    type: 'conversation',
    conversation: { id: message.conversation.id, title: message.conversation.title, messages: [] },
    status: message.status,
    ...(message.version !== undefined ? { version: message.version } : {}),
    notice: clip(notice, MAX_NOTICE),
  };
}

/** One domain event of the session as what the webview is told, at the session's `version`. */
export function eventMessages(event: SessionEvent, version: number, status: ChatStatus, conversation: (notice?: string) => HostMessage, conv?: Conversation): HostMessage[] {
  switch (event.type) {
    case 'turnStarted':
      return [{ type: 'turnStarted', user: messageView(event.user), assistant: messageView(event.assistant, conv), status, version }];
    case 'textAppended':
      return [{ type: 'streamChunk', messageId: event.messageId, offset: event.offset, text: event.text, version }];
    case 'turnStatus':
      return [{ type: 'streamStatus', messageId: event.messageId, text: clip(event.text, MAX_NOTICE), version }];
    case 'turnEnded':
      return [{ type: 'turnEnded', message: messageView(event.message, conv), status, version }];
    case 'messageChanged':
      return [{ type: 'messageChanged', message: messageView(event.message, conv), version }];
    case 'variantShown':
      return [{ type: 'variantShown', from: event.from, message: messageView(event.message, conv), version }];
    case 'conversationChanged':
      return [conversation(event.notice)];
    case 'summaryEnded':
    case 'conversationRemoved':
      // What was kept for it goes (its queue); the chat is told by conversationChanged if it showed it.
      return [];
    case 'sendErrorChanged':
      return [{ type: 'status', status, version }];
    case 'inputReturned':
      return [box.restore(event.text, event.editOf)];
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

/** The models as the webview sees them. */
export function toModelSummaries(models: readonly ModelLike[]): ModelSummary[] {
  return models.map((m) => {
    const u = modelUsability(m);
    return {
      valueId: m.valueId,
      name: m.name,
      cost: hasUsablePrice(m) ? m.costInCreditPerUse : 0,
      usable: u.usable,
      ...(u.usable ? {} : { reason: u.reason }),
    };
  });
}

export function settingsMessageOf(settings: ChatSettings): HostMessage {
  return { type: 'settings', settings };
}

/** The messages typed while a reply streams, with the price each card shows. */
export function queueMessageOf(q: MessageQueue): HostMessage {
  return { type: 'queue', items: q.items.map((m) => ({ id: m.id, text: m.text, ...(m.cost !== undefined ? { cost: m.cost } : {}) })), state: q.state, ...(q.reason ? { reason: q.reason } : {}) };
}

/** The chips of the next message. */
export function chipsMessageOf(chips: ContextChip[]): HostMessage {
  return { type: 'contextChips', chips };
}

/** The slash commands of the `/` menu, and why some are missing. */
export interface PromptListView {
  prompts: PromptItem[];
  notice?: string;
}

export function promptListMessageOf(list: PromptListView): HostMessage {
  return { type: 'promptList', prompts: list.prompts.slice(0, MAX_PROMPTS), ...(list.notice ? { notice: clip(list.notice, MAX_NOTICE) } : {}) };
}

/** The context meter's figures from a selection (what the next request would hold), in the protocol's bounds. */
export function toContextMeter(selection: ContextSelection, source: RequestBudget['source']): ContextMeter {
  const finite = (n: number) => (Number.isFinite(n) ? Math.min(1_000_000_000, Math.max(0, Math.round(n))) : 1_000_000_000);
  const t = selection.tokens;
  return {
    budget: finite(selection.budget),
    source,
    instructions: finite(t.instructions),
    attachments: finite(t.attachments),
    history: finite(t.history),
    message: finite(t.message),
    total: finite(t.total),
    omittedTurns: selection.ok ? selection.omittedTurns : selection.totalTurns,
    sentTurns: selection.ok ? selection.sentTurns : 0,
    ...(selection.ok && selection.boundaryId ? { boundaryId: selection.boundaryId } : {}),
    ...(t.summary ? { summary: finite(t.summary), summarizedTurns: selection.ok ? (selection.summarizedTurns ?? 0) : 0 } : {}),
    tooLong: !selection.ok,
  };
}

export function contextMeterMessageOf(meter: ContextMeter): Extract<HostMessage, { type: 'contextMeter' }> {
  return { type: 'contextMeter', meter };
}

/** What the chat's message box is told: text back into it, the cursor in it, a prompt added to it, a draft that holds the key. */
export const box = {
  restore: (text: string, editOf?: string): HostMessage => ({ type: 'restoreInput', text, ...(editOf ? { editOf } : {}) }),
  focus: (): HostMessage => ({ type: 'focusInput' }),
  insert: (text: string, model?: { id: string; label: string }): HostMessage => ({ type: 'insertPrompt', text, ...(model ? { model } : {}) }),
  draftHoldsKey: (holds: boolean): HostMessage => ({ type: 'draftHoldsKey', holds }),
};

/** The find bar opened (with `query`), and a message brought into view. */
export const transcript = {
  find: (query?: string): HostMessage => ({ type: 'find', ...(query ? { query } : {}) }),
  reveal: (messageId: string): HostMessage => ({ type: 'revealMessage', messageId }),
};

/** A summary of earlier turns being written (its turns, where it ends, its text so far), and its end. */
export const summaryProgress = {
  running: (plan: Pick<SummaryPlan, 'newTurns' | 'throughId'>, text: string): HostMessage => ({
    type: 'summaryProgress',
    running: true,
    turns: plan.newTurns,
    throughId: plan.throughId,
    text: text.slice(0, MAX_SUMMARY_VIEW),
  }),
  done: (): HostMessage => ({ type: 'summaryProgress', running: false }),
};
