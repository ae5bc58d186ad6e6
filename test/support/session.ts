// A chat session and its controller as the extension wires them, for tests: an in-memory store, a
// backend of the test's own, settings that can be changed while a turn runs, and every event kept.
import { ChatSession, ConversationStore, directTurns, type ChatBackend, type SessionEvent, type SessionSettings } from '../../src/core';
import { ChatController, type ChatControllerDeps } from '../../src/extension/chat/common/controller';
import { MemoryConversationStorage } from './memoryStorage';
import { makeTurns } from './turns';

export interface SessionFixture {
  session: ChatSession;
  store: ConversationStore;
  storage: MemoryConversationStorage;
  settings: SessionSettings;
  events: SessionEvent[];
}

export function makeSession(opts: {
  backend: ChatBackend;
  settings?: Partial<SessionSettings>;
  storage?: MemoryConversationStorage;
  modelCost?: (id: string) => number | null;
  contextBudget?: (model: string) => number;
  onEvent?: (event: SessionEvent) => void;
}): SessionFixture {
  const storage = opts.storage ?? new MemoryConversationStorage();
  const store = new ConversationStore(storage);
  const settings: SessionSettings = { model: 'swift-chat', stream: true, search: false, temperature: 1, systemPrompt: '', baseUrl: 'http://127.0.0.1:9', ...opts.settings };
  const events: SessionEvent[] = [];
  const session = new ChatSession({
    store,
    turns: directTurns(() => opts.backend),
    settings: () => settings,
    modelCost: opts.modelCost ?? (() => 1),
    ...(opts.contextBudget ? { contextBudget: opts.contextBudget } : {}),
    onEvent: (e) => {
      events.push(e);
      opts.onEvent?.(e);
    },
    flushIntervalMs: 0,
  });
  return { session, store, storage, settings, events };
}

/** The session with its controller, the controller told every event (as the composition root does). */
export function makeController(
  opts: Parameters<typeof makeSession>[0] & { controller?: Partial<Omit<ChatControllerDeps, 'session'>> },
): SessionFixture & { controller: ChatController } {
  let controller: ChatController | undefined;
  const fixture = makeSession({ ...opts, onEvent: (e) => controller?.onSessionEvent(e) });
  const s = fixture.settings;
  controller = new ChatController({
    session: fixture.session,
    settings: () => ({ model: s.model, search: s.search, temperature: s.temperature, fontSize: 0, baseUrl: s.baseUrl }),
    models: () => ({ models: undefined, loading: false, error: undefined, costOf: () => 1 }),
    hasKey: () => true,
    turns: makeTurns({ key: () => 'sk-test-key-0123456789', model: () => s.model, costOf: opts.modelCost ?? (() => 1) }).turns,
    pickModel: async () => false,
    notifyBusy: () => undefined,
    post: () => undefined,
    ...opts.controller,
  });
  return { ...fixture, controller };
}
