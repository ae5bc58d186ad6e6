// What the chat shows when the service fails before a reply starts, from the real client against
// the reference server's faults (429 with Retry-After, 401, 402, 500 with an HTML body): the
// send error's wording and action, the typed text back in the box, the earlier turns kept, and a
// message the panel accepts. (Journey 7 goes through the workbench with a dropped stream and 402.)
import { strict as assert } from 'node:assert';
import { ChatServiceClient } from '../../../../src/client';
import { ChatSession, ConversationStore, type SessionEvent, directTurns } from '../../../../src/core';
import { parseHostMessage } from '../../../../src/protocol';
import { DEMO_KEY } from '../../../server/fixtures';
import { startReferenceServer, type ReferenceServer } from '../../../server/server';
import { MemoryConversationStorage } from '../../../support/memoryStorage';

interface Case {
  name: string;
  setup(srv: ReferenceServer): void;
  message: RegExp;
  actions: string[];
  retryAfterSeconds?: number;
}

const CASES: Case[] = [
  {
    name: '429 with Retry-After',
    setup: (srv) => srv.control.injectFault({ kind: 'status', status: 429, retryAfter: 4, times: 10 }),
    message: /rate|too many|limit/i,
    actions: ['retry'],
    retryAfterSeconds: 4,
  },
  { name: '401', setup: (srv) => srv.control.injectFault({ kind: 'status', status: 401, times: 10 }), message: /API key|rejected/i, actions: ['setApiKey'] },
  { name: '402', setup: (srv) => srv.control.setBalance({ key: DEMO_KEY, regular: 0, daily: 0 }), message: /credit/i, actions: ['showSubscriptions'] },
  { name: '500 with an HTML body', setup: (srv) => srv.control.injectFault({ kind: 'status', status: 500, html: true, times: 10 }), message: /^Server error/, actions: ['retry'] },
];

describe('the send error of each service fault (reference server, real client)', () => {
  let srv: ReferenceServer;
  before(async () => {
    srv = await startReferenceServer({ port: 0, quiet: true, chunkDelayMs: 0 });
  });
  after(() => srv.close());
  beforeEach(() => srv.control.reset());

  for (const c of CASES) {
    it(`${c.name}: its message and action, the typed text back in the box, the earlier turn kept`, async () => {
      // No retries of its own: the fault is what the first answer says.
      const client = new ChatServiceClient({ baseUrl: srv.url, apiKey: () => DEMO_KEY, maxRetries: 0 });
      const posts: SessionEvent[] = [];
      let n = 0;
      const session = new ChatSession({
        store: new ConversationStore(new MemoryConversationStorage(), { newId: () => `conv-${++n}` }),
        turns: directTurns(() => client),
        settings: () => ({ model: 'swift-chat', stream: true, search: false, temperature: 1, systemPrompt: '', baseUrl: srv.url }),
        modelCost: () => 1,
        onEvent: (e) => posts.push(e),
        flushIntervalMs: 0,
      });
      try {
        await session.send('A first question that must stay e2e-fault-base');
        assert.equal(session.conversation.messages.length, 2);
        c.setup(srv);
        const typed = `Question that meets a ${c.name}`;
        await session.send(typed);

        const error = session.sendError;
        assert.ok(error, `${c.name}: a send error is shown`);
        assert.match(error.message, c.message, error.message);
        assert.doesNotMatch(error.message, /<\/?(html|body|h1|!doctype)/i, 'no raw HTML in the message');
        assert.deepEqual(error.actions, c.actions);
        if (c.retryAfterSeconds !== undefined) assert.equal(error.retryAfterSeconds, c.retryAfterSeconds);
        assert.ok(posts.some((p) => p.type === 'inputReturned' && p.text === typed), 'the typed text goes back to the box');
        assert.deepEqual(
          session.conversation.messages.map((m) => m.status),
          ['complete', 'complete'],
          'the earlier turn is kept, the failed one taken back',
        );
        assert.equal(session.busy, false);
        // The status the panel gets with it is one it accepts.
        const status = { type: 'status', status: { busy: session.busy, sendError: error } };
        assert.ok(parseHostMessage(status).ok, JSON.stringify(status).slice(0, 300));
      } finally {
        await client.close();
      }
    });
  }
});
