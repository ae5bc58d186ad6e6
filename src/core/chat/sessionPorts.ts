// The chat session's ports: what it is given (the store, the one turn pipeline, the settings, the
// clock) and what it tells whoever listens (SessionEvent, in order). VS Code-free.
import type { StoredMessage } from './conversation';
import type { ConversationStore } from '../storage/store';
import type { TurnCharge } from '../account/charge';
import type { ChatBackend, TurnResult } from './turn';
import type { RequestRules } from '../rules/requestRules';

/** One turn of the session as the extension runs it: the backend it answers through, and its settlement. */
export interface SessionTurn {
  backend: ChatBackend;
  /** The turn ended: its charge is settled (and recorded) from the result. Never rejects. */
  settle(result: TurnResult): Promise<TurnCharge>;
}

/**
 * The session's port to the extension's one turn pipeline: a turn starts (before its request is
 * built), with the reply's ids, the model and its price.
 */
export interface TurnPort {
  start(turn: { conversationId: string; messageId: string; model: string; expected: number | null }): SessionTurn;
}

/** A port that answers through `backend` and settles nothing (benchmarks, tests, tools). */
export function directTurns(backend: () => ChatBackend): TurnPort {
  return { start: () => ({ backend: backend(), settle: async () => ({ pending: false }) }) };
}

export interface SessionSettings {
  model: string;
  stream: boolean;
  search: boolean;
  temperature: number;
  systemPrompt: string;
  baseUrl: string;
}

export interface SessionLogger {
  debug(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
}

/** What happened in the session, in order. */
export type SessionEvent =
  /** A turn began: `user` is the message sent (or resent), `assistant` the empty reply that streams. */
  | { type: 'turnStarted'; user: StoredMessage; assistant: StoredMessage; model: string }
  /** Text of the running reply; `offset` is the length of the reply before it. */
  | { type: 'textAppended'; messageId: string; offset: number; text: string }
  /** Progress of a reply that has not started yet (e.g. waiting to try again after a 429). */
  | { type: 'turnStatus'; messageId: string; text: string }
  /** The reply reached its final state (complete, stopped or error). */
  | { type: 'turnEnded'; message: StoredMessage }
  /** A finished message changed (e.g. its charge became known). */
  | { type: 'messageChanged'; message: StoredMessage }
  /** Another variant of a reply is shown in its place (the pager, Retry with…): `from` is the id of the one shown before. */
  | { type: 'variantShown'; from: string; message: StoredMessage }
  /**
   * The conversation was replaced or changed other than by a turn (open, new, edit, a turn taken
   * back). `restored`: the conversation of the last window was reopened (after a reload or restart).
   */
  | { type: 'conversationChanged'; restored?: boolean; notice?: string }
  /** A summary of earlier turns, a turn of the session, ended (kept or not): what waited for it goes on. */
  | { type: 'summaryEnded' }
  /** A saved conversation was deleted (the current one or another): what was kept for it goes too. */
  | { type: 'conversationRemoved'; id: string }
  /** The error of the last send appeared or went away. */
  | { type: 'sendErrorChanged' }
  /** Text goes back into the message box (a refused or failed send, Edit). */
  /** `editOf`: the text is the edit of that question again (a branch of which no reply came). */
  | { type: 'inputReturned'; text: string; editOf?: string }
  /**
   * A turn's accounting is settled (after its end): `charged` is what it cost when known,
   * `errorKind` why it failed (e.g. 'credits'). Changes nothing the chat shows by itself.
   */
  | { type: 'turnSettled'; conversationId: string; messageId: string; charged: number | undefined; errorKind: string | undefined };

export interface ChatSessionDeps {
  store: ConversationStore;
  /** The extension's turn pipeline: every turn answers through it and is settled by it. */
  turns: TurnPort;
  settings: () => SessionSettings;
  /**
   * The repository's rules for a request whose question carries `files` (workspace-relative): the
   * text sent after the system prompt, and each rule that goes, with why. None: no rules.
   */
  rules?: (files: readonly string[]) => RequestRules;
  modelCost: (valueId: string) => number | null;
  /** Told of every domain event. */
  onEvent: (event: SessionEvent) => void;
  logger?: SessionLogger;
  now?: () => Date;
  /** Ids of conversations the session makes itself (keepTurn); default random UUIDs. */
  newId?: () => string;
  /** Streamed text is posted at most once per this many ms (0: every chunk). */
  flushIntervalMs?: number;
  /** After this long without any part of a streaming reply, the reply says it waits for the service (default 10 s). */
  silenceNoticeMs?: number;
  /** Input budget of a request to this model, in estimated tokens (contextBudget.ts); none: no limit. */
  contextBudget?: (model: string) => number;
  /** A streaming reply is saved at most this often (0: only when it ends). */
  partialSaveIntervalMs?: number;
}

/** How reopening the conversation of the last window went. */
export type RestoreResult = 'restored' | 'kept' | 'failed';
