// The chat room: the conversation store, the session and the chat's controller, wired together.
// Loaded (a file of its own in the build) and built when a chat view, panel or chat command first
// needs it; extension.ts gives it what activation built.
import { watchSaving } from '../platform/saveWarning';
import { budgetForModel, ChatSession, ConversationStore, keepTurn, type ReplyFacts } from '../../core';
import type { CreditsService } from '../account/credits';
import { ChatPanelController, type ChatPanelDeps } from './chatPanel';
import { FileConversationStorage } from '../platform/conversationFiles';
import { upgradeHistoryInBackground } from '../history/historyUpgrade';
import type { RulesService } from '../rules/rulesService';

/** What the chat's controller needs besides the store and session built here, and the credits its notifications use. */
export type ChatRoomDeps = Omit<ChatPanelDeps, 'session' | 'store' | 'onReplyCharged' | 'onCannotPay' | 'rulesChanged'> & { credits: CreditsService; rules: RulesService };

/** What the room gives the rest of the extension. */
export interface ChatRoom {
  chat: ChatPanelController;
  store: ConversationStore;
  /** Keeps a question and its answer asked elsewhere (Edit in the editor) as a conversation of its own; its id. */
  keep(question: string, answer: string, meta?: ReplyFacts): Promise<string>;
}

/** The conversation store, the session and the chat's controller, wired together; disposed with the extension. */
export function buildChatRoom(deps: ChatRoomDeps): ChatRoom {
  const { context, config, models, turns, instructions, rules, credits, logger } = deps;
  // Conversations are shared by every window; which one is current belongs to the window's workspace.
  const store = new ConversationStore(
    new FileConversationStorage(context.globalStorageUri.fsPath, (context.storageUri ?? context.globalStorageUri).fsPath),
  );
  // The session tells its events to the panel's controller, built just below (events come later).
  const session = new ChatSession({
    store,
    // Every turn answers and is settled through the one pipeline.
    turns: turns.port,
    // The project's instructions file (AGENTS.md) follows the user's own system prompt.
    settings: () => {
      const s = config.settings;
      return { ...s, systemPrompt: instructions.systemPrompt(s.systemPrompt) };
    },
    // The repository's rules for the question's files (and the active editor's) follow them.
    rules: (files) => rules.forRequest(files),
    modelCost: (id) => models.costOf(id),
    // Each request fits the model's stated max_tokens (or aiChat.context.maxTokens), estimated.
    contextBudget: (id) => budgetForModel(models.models, id, config.settings.contextMaxTokens).inputTokens,
    onEvent: (event) => chat.onSessionEvent(event),
    logger,
    flushIntervalMs: 24,
  });
  const chat: ChatPanelController = new ChatPanelController({
    ...deps,
    rulesChanged: rules.onDidChange,
    session,
    store,
    onReplyCharged: (_charged, kind) => {
      // The chat shows its out-of-credits card; a notification when it is not on screen.
      if (kind === 'credits' && !chat.isVisible) void credits.outOfCredits();
    },
    onCannotPay: () => void credits.outOfCredits(),
  });
  // A save that fails is said once, with Retry; every conversation not yet written stays in memory
  // meanwhile, and Retry writes them all (not only the one on screen).
  context.subscriptions.push(watchSaving(store, () => session.saveAll(), logger), chat);
  // Conversations saved by 0.1.0 come into History in the background, with a notification.
  void upgradeHistoryInBackground(store, logger);
  return { chat, store, keep: (question, answer, meta) => keepTurn(store, question, answer, meta) };
}
