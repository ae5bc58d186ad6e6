// The context budget at 300 turns: the time to assemble a request (the selection of what fits and
// the JSON the client sends), and the bytes each usable reference model's request carries when a
// real session sends the 301st message to the reference server, against that model's budget.
import { performance } from 'node:perf_hooks';
import { ChatServiceClient } from '../../src/client';
import { ChatSession, ConversationStore, budgetForModel, messageTokens, modelUsability, selectContext, type ModelLike, directTurns } from '../../src/core';
import { DEMO_KEY, MODELS } from '../../test/server/fixtures';
import { startReferenceServer } from '../../test/server/server';
import { conversationOf } from './webview';
import { MemoryConversationStorage } from '../../test/support/memoryStorage';

export interface ContextFigures {
  /** Median time to select the context and serialise the request at 300 turns (swift-chat). */
  assembleMedianMs: number;
  /** Per usable model: bytes of the request body at 300 turns, and its budget. */
  perModel: Array<{ model: string; maxTokens: number | undefined; inputTokens: number; estimatedTokens: number; bytes: number; turnsSent: number }>;
  /** Bytes of the whole 300-turn history (what every request carried before the budget). */
  wholeHistoryBytes: number;
}

const TURNS = 300;
const RUNS = 200;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function measureContext(): Promise<ContextFigures> {
  const models: ModelLike[] = MODELS.map((m) => ({ ...m, ...(m.max_tokens !== undefined ? { max_tokens: m.max_tokens } : {}) }));
  const conv = conversationOf(TURNS);
  const question = 'And the tests for it?';

  // Assembling the request at 300 turns: what ChatSession does before each send.
  const budget = budgetForModel(models, 'swift-chat').inputTokens;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const s = selectContext({ systemPrompt: 'Be brief.', message: question, earlier: conv.messages, budget });
    if (s.ok) JSON.stringify({ messages: s.messages, model: 'swift-chat', stream: true, temperature: 1 });
    times.push(performance.now() - t0);
  }
  const whole = selectContext({ systemPrompt: 'Be brief.', message: question, earlier: conv.messages, budget: Number.POSITIVE_INFINITY });
  const wholeHistoryBytes = whole.ok ? Buffer.byteLength(JSON.stringify({ messages: whole.messages, model: 'swift-chat', stream: true, temperature: 1 })) : 0;

  // Bytes sent: a real session sends the 301st message of each usable model to the reference server.
  const srv = await startReferenceServer({ port: 0, quiet: true, chunkDelayMs: 0 });
  const perModel: ContextFigures['perModel'] = [];
  try {
    const client = new ChatServiceClient({ baseUrl: srv.url, apiKey: () => DEMO_KEY });
    for (const m of models.filter((x) => modelUsability(x).usable)) {
      const store = new ConversationStore(new MemoryConversationStorage());
      const copy = structuredClone(conv);
      copy.id = `conv-${m.valueId}`;
      await store.save(copy);
      const b = budgetForModel(models, m.valueId);
      const session = new ChatSession({
        store,
        turns: directTurns(() => client),
        settings: () => ({ model: m.valueId, stream: true, search: false, temperature: 1, systemPrompt: 'Be brief.', baseUrl: srv.url }),
        modelCost: () => 1,
        onEvent: () => undefined,
        contextBudget: () => b.inputTokens,
        flushIntervalMs: 0,
      });
      await session.open(copy.id);
      const before = srv.control.requests().length;
      await session.send(`${question} len:50`);
      const req = srv.control.requests().slice(before).find((r) => r.method === 'POST' && r.path === '/chat');
      const body = (req?.body ?? {}) as { messages?: Array<{ role: string; content: string }> };
      const messages = body.messages ?? [];
      perModel.push({
        model: m.valueId,
        maxTokens: m.max_tokens ?? undefined,
        inputTokens: b.inputTokens,
        estimatedTokens: messages.reduce((n, x) => n + messageTokens(x.content), 0),
        bytes: Buffer.byteLength(JSON.stringify(body)),
        turnsSent: messages.filter((x) => x.role === 'user').length - 1,
      });
    }
  } finally {
    await srv.close();
  }
  return { assembleMedianMs: median(times), perModel, wholeHistoryBytes };
}
