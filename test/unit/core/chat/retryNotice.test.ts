import { strict as assert } from 'node:assert';
import { ChatServiceClient } from '../../../../src/client';
import { ChatSession, ConversationStore, retryNoticeText, type SessionEvent, directTurns } from '../../../../src/core';
import { DEMO_KEY } from '../../../server/fixtures';
import { startReferenceServer, type ReferenceServer } from '../../../server/server';
import { MemoryConversationStorage } from '../../../support/memoryStorage';

describe('retry notices while a reply has not started', () => {
  it('words each retried failure with its cause, the wait and the attempt', () => {
    const base = 'http://127.0.0.1:8787';
    assert.equal(
      retryNoticeText({ retry: 1, maxRetries: 2, delayMs: 12_000, error: { kind: 'rate-limit', status: 429 } }, base),
      'The service is rate limiting requests; trying again in 12 s (retry 1 of 2)…',
    );
    assert.equal(
      retryNoticeText({ retry: 2, maxRetries: 2, delayMs: 300, error: { kind: 'server', status: 503 } }, base),
      'The service is busy; trying again in 1 s (retry 2 of 2)…',
    );
    assert.equal(
      retryNoticeText({ retry: 1, maxRetries: 3, delayMs: 1500, error: { kind: 'connection' } }, base),
      `Could not reach ${base}; trying again in 2 s (retry 1 of 3)…`,
    );
  });

  describe('through the real client', () => {
    let srv: ReferenceServer;
    before(async () => {
      srv = await startReferenceServer({ port: 0, quiet: true, chunkDelayMs: 0 });
    });
    after(() => srv.close());
    beforeEach(() => srv.control.reset());

    for (const stream of [true, false]) {
      it(`a 429 then a 503 before the reply are shown as progress, then the reply arrives (stream: ${stream})`, async () => {
        srv.control.injectFault({ kind: 'status', status: 429, retryAfter: 0 });
        srv.control.injectFault({ kind: 'status', status: 503 });
        const client = new ChatServiceClient({ baseUrl: srv.url, apiKey: () => DEMO_KEY, retry: { baseDelayMs: 1, maxDelayMs: 1 } });
        const posts: SessionEvent[] = [];
        let n = 0;
        const session = new ChatSession({
          store: new ConversationStore(new MemoryConversationStorage(), { newId: () => `conv-${++n}` }),
          turns: directTurns(() => client),
          settings: () => ({ model: 'swift-chat', stream, search: false, temperature: 1, systemPrompt: '', baseUrl: srv.url }),
          modelCost: () => 1,
          onEvent: (e) => posts.push(e),
          flushIntervalMs: 0,
        });
        try {
          await session.send('hello');
        } finally {
          await client.close();
        }
        const statuses = posts.flatMap((p) => (p.type === 'turnStatus' ? [p.text] : []));
        assert.deepEqual(statuses, [
          'The service is rate limiting requests; trying again in 1 s (retry 1 of 2)…',
          'The service is busy; trying again in 1 s (retry 2 of 2)…',
        ]);
        assert.ok(posts.findIndex((p) => p.type === 'turnStatus') < posts.findIndex((p) => p.type === 'textAppended'));
        assert.equal(session.conversation.messages[1].status, 'complete');
        assert.ok(session.conversation.messages[1].content.length > 100);
      });
    }
  });
});
