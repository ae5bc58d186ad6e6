// The chat session with the real client against the reference server, which streams what the
// service sends: each framing, each finishReason, multi-step, 3 error parts, d with the
// connection kept open, keep-alive-only streams.
import { strict as assert } from 'node:assert';
import { ChatServiceClient, type ClientTimeouts } from '../../../../src/client';
import { ChatSession, ConversationStore, type SessionEvent, directTurns } from '../../../../src/core';
import { parseHostMessage } from '../../../../src/protocol';
import { viewMessages } from '../../viewMessages';
import { DEMO_KEY, type Fault } from '../../../server/fixtures';
import { startReferenceServer, type ReferenceServer } from '../../../server/server';
import { MemoryConversationStorage } from '../../../support/memoryStorage';

const FRAMINGS = ['sse', 'ndjson', 'prefixed'] as const;

describe('chat session against the service stream (reference server, real client)', () => {
  let srv: ReferenceServer;
  before(async () => {
    srv = await startReferenceServer({ port: 0, quiet: true, chunkDelayMs: 0 });
  });
  after(() => srv.close());
  beforeEach(() => srv.control.reset());

  async function turn(fault: Fault | undefined, timeouts: ClientTimeouts = {}, overrides: { model?: string; search?: boolean } = {}, silenceNoticeMs?: number) {
    if (fault) srv.control.injectFault(fault);
    const client = new ChatServiceClient({ baseUrl: srv.url, apiKey: () => DEMO_KEY, maxRetries: 0, timeouts });
    const posts: SessionEvent[] = [];
    let n = 0;
    const session = new ChatSession({
      store: new ConversationStore(new MemoryConversationStorage(), { newId: () => `conv-${++n}` }),
      turns: directTurns(() => client),
      settings: () => ({ model: 'swift-chat', stream: true, search: false, temperature: 1, systemPrompt: '', baseUrl: srv.url, ...overrides }),
      modelCost: () => 1,
      onEvent: (e) => posts.push(e),
      flushIntervalMs: 0,
      ...(silenceNoticeMs !== undefined ? { silenceNoticeMs } : {}),
    });
    const started = Date.now();
    try {
      await session.send('hello len:800');
    } finally {
      await client.close();
    }
    for (const p of viewMessages(session, posts)) assert.ok(parseHostMessage(p).ok, `the panel accepts ${p.type}`);
    return { reply: session.conversation.messages[1], posts, ms: Date.now() - started, session };
  }

  it('silence is shown: no part for a while and the reply says it waits, seconds counting; the next part clears it', async () => {
    // Parts 1.3 s apart (a few large chunks), the notice after 0.4 s of silence (10 s in the extension).
    srv.control.configure({ chunkSize: 300 });
    const { reply, posts } = await turn({ kind: 'slow-chunks', ms: 1300 }, { requestMs: 10_000 }, {}, 400).finally(() => srv.control.configure({ chunkSize: 24 }));
    assert.equal(reply.status, 'complete');
    const waits = posts.flatMap((p, i) => (p.type === 'turnStatus' && /^Waiting for the service… \d+ s$/.test(p.text) ? [i] : []));
    assert.ok(waits.length >= 2, `the notice came: ${waits.length}`);
    // Each wait is followed by a part that ends it: text, or an empty status.
    for (const i of waits) {
      const next = posts.slice(i + 1).find((p) => p.type === 'textAppended' || (p.type === 'turnStatus' && !/^Waiting/.test(p.text)) || p.type === 'turnEnded');
      assert.ok(next, 'something follows the notice');
    }
    assert.ok(!posts.some((p) => p.type === 'turnStatus' && /Waiting/.test(p.text) && posts.indexOf(p) > posts.findIndex((q) => q.type === 'turnEnded')), 'no notice after the reply ended');
  }).timeout(30_000);

  for (const framing of FRAMINGS) {
    it(`${framing}: deep-think thinks (g), a search step runs (9, a, e isContinued), and its sources (h) end the reply as a numbered list; the thinking is not in the text`, async () => {
      const { reply, posts } = await turn({ kind: 'framing', framing }, {}, { model: 'deep-think', search: true });
      assert.equal(reply.status, 'complete');
      const firstText = posts.findIndex((p) => p.type === 'textAppended');
      const statuses = posts.slice(0, firstText).flatMap((p) => (p.type === 'turnStatus' ? [p.text] : []));
      assert.deepEqual(statuses, ['Thinking…', 'Searching…'], 'said while no text had come');
      assert.doesNotMatch(reply.content, /The user asks about|First, what is being asked/, 'the reasoning is not part of the reply');
      assert.equal(reply.meta?.reasoning, 'The user asks about "hello len:800". First, what is being asked; then the parts of a good answer, and an example.', 'kept beside it');
      assert.match(reply.content, /\n\n\*\*Sources\*\*\n\n1\. \[Reference: hello len:800\]\(<https:\/\/docs\.example\.com\/search\/hello-len-800>\)\n2\. <https:\/\/blog\.example\.org\/hello-len-800>\n$/);
      assert.ok((reply.meta?.completionTokens ?? 0) > 0);
    });

    it(`${framing}: a normal reply (f, 0…, e stop, d) is complete with no error`, async () => {
      const { reply, posts } = await turn({ kind: 'framing', framing });
      assert.equal(reply.status, 'complete');
      assert.ok(reply.content.length > 500);
      assert.equal(reply.error, undefined);
      assert.ok(!posts.some((p) => p.type === 'turnEnded' && p.message.status === 'error'));
      assert.ok((reply.meta?.completionTokens ?? 0) > 0);
    });

    it(`${framing}: a 3 error part is an error with its text, after the text kept`, async () => {
      const { reply } = await turn({ kind: 'error-part', afterChunks: 3, message: 'The model failed half-way', framing });
      assert.equal(reply.status, 'error');
      assert.ok(reply.content.length > 0);
      assert.match(reply.error?.message ?? '', /The model failed half-way/);
    });

    it(`${framing}: a multi-step reply is one reply with its usage summed`, async () => {
      const single = await turn({ kind: 'framing', framing });
      const multi = await turn({ kind: 'multi-step', steps: 3, framing });
      assert.equal(multi.reply.content, single.reply.content);
      assert.equal(multi.reply.status, 'complete');
      const diff = Math.abs((multi.reply.meta?.completionTokens ?? 0) - (single.reply.meta?.completionTokens ?? 0));
      assert.ok(diff <= 3, `summed usage ${multi.reply.meta?.completionTokens} vs ${single.reply.meta?.completionTokens}`);
    });
  }

  it('finishReason length: complete, marked cut; content-filter: marked filtered; error: a failure; other: a normal end', async () => {
    assert.equal((await turn({ kind: 'finish', finishReason: 'length', afterChunks: 2 })).reply.meta?.ending, 'length');
    assert.equal((await turn({ kind: 'finish', finishReason: 'content-filter', afterChunks: 2 })).reply.meta?.ending, 'content-filter');
    const failed = (await turn({ kind: 'finish', finishReason: 'error', afterChunks: 2 })).reply;
    assert.equal(failed.status, 'error');
    assert.ok(failed.content.length > 0);
    const other = (await turn({ kind: 'finish', finishReason: 'other' })).reply;
    assert.equal(other.status, 'complete');
    assert.equal(other.meta?.ending, undefined);
  });

  it('d with the connection kept open: the reply finishes at d (not when the server lets go)', async () => {
    const { reply, ms } = await turn({ kind: 'hold-open', ms: 20_000 }, { closeGraceMs: 100 });
    assert.equal(reply.status, 'complete');
    assert.ok(ms < 10_000, `finished in ${ms} ms while the server held the connection for 20 s`);
    for (let i = 0; i < 100 && srv.control.requests().at(-1)?.clientClosed !== true; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(srv.control.requests().at(-1)?.clientClosed, true, 'the client closed the held connection');
  });

  it('keep-alive only: the reply ends at the reply deadline with a clear error, and the turn is kept', async () => {
    const { reply, session } = await turn({ kind: 'keep-alive-only', ms: 20 }, { replyDeadlineMs: 400 });
    assert.equal(reply.status, 'error');
    assert.equal(reply.error?.kind, 'timeout');
    assert.match(reply.error?.message ?? '', /reply deadline/);
    assert.equal(session.busy, false);
  });
});
