// Conversations for the export tests.
import { appendMessage, createConversation, type Conversation } from '../../../../src/core';

/** A conversation with every field the store keeps set (a summary, a fork, pins, each reply fact, an error, files, a record, each status). */
export function everyField(): Conversation {
  return {
    version: 1,
    id: 'conv-every',
    title: 'Every field “quoted”\tand tabbed',
    forkedFrom: { id: 'conv-origin', title: 'The origin', messageId: 'msg_001' },
    importedFrom: { id: 'conv-elsewhere', hash: 'a'.repeat(64) },
    summary: {
      text: 'We talked about parsing.',
      throughId: 'msg_001',
      turns: 1,
      unread: 0,
      model: 'deep-think',
      cost: 2,
      credits: 1.5,
      edited: true,
      messageCount: 2,
      createdAt: '2026-11-20T10:00:05.000Z',
    },
    pins: [{ kind: 'file', path: 'src/a.ts' }, { kind: 'range', path: 'lib/b.py', startLine: 4, endLine: 20 }],
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:05:00.000Z',
    nextSeq: 7,
    messages: [
      { id: 'msg_000', role: 'user', content: 'Parse this', createdAt: '2026-11-20T10:00:00.000Z', status: 'complete', files: ['src/a.ts', 'lib/b.py'],
        sent: [{ kind: 'range', name: 'src/a.ts:3-9', path: 'src/a.ts', startLine: 3, endLine: 9, bytes: 120 }, { kind: 'instructions', name: 'AGENTS.md', path: 'AGENTS.md', bytes: 80 }] },
      {
        id: 'msg_001',
        role: 'assistant',
        content: '```ts\nparse()\n```',
        createdAt: '2026-11-20T10:00:01.000Z',
        status: 'complete',
        meta: {
          model: 'deep-think',
          credits: 3,
          promptTokens: 120,
          completionTokens: 45,
          ending: 'length',
          note: 'the service sent no usage',
          reasoning: 'First, read the grammar.',
          extras: '{"data":[1,2]}',
          rules: [{ path: 'AGENTS.md', why: 'always (the project instructions)' }],
        },
      },
      { id: 'msg_002', role: 'user', content: 'And again', createdAt: '2026-11-20T10:01:00.000Z', status: 'complete' },
      {
        id: 'msg_003',
        role: 'assistant',
        content: 'Partial',
        createdAt: '2026-11-20T10:01:01.000Z',
        status: 'error',
        error: { kind: 'rate-limit', message: 'Too many requests', actions: ['retry'], retryAfterSeconds: 5, baseUrl: 'https://chat.example.com', traceId: 't-1' },
      },
      // The last question edited (a branch of msg_007).
      { id: 'msg_004', role: 'user', content: 'Stop early', createdAt: '2026-11-20T10:02:00.000Z', status: 'complete', branchOf: 'msg_007' },
      { id: 'msg_005', role: 'assistant', content: 'Half a reply', createdAt: '2026-11-20T10:02:01.000Z', status: 'stopped', meta: { model: 'swift-chat' }, variantOf: 'msg_004', branch: 'msg_004' },
    ],
    // What is not shown: the variant of the last reply (Retry with…) and the question it edited.
    variants: [
      { id: 'msg_007', role: 'user', content: 'Stop late', createdAt: '2026-11-20T10:01:30.000Z', status: 'complete' },
      { id: 'msg_006', role: 'assistant', content: 'A whole reply', createdAt: '2026-11-20T10:03:01.000Z', status: 'complete', meta: { model: 'deep-think', credits: 3 }, variantOf: 'msg_004', branch: 'msg_004' },
    ],
  };
}

/** A conversation of `turns` questions and replies with varied facts (every fifth reply stopped, every seventh failed). */
export function longConversation(turns: number, id = 'conv-long'): Conversation {
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const conv = createConversation(id, new Date(start));
  for (let i = 0; i < turns; i++) {
    const asked = new Date(start + i * 60_000);
    appendMessage(conv, 'user', `Question ${i}: how does part ${i} work?\n\n\`\`\`ts\nconst x${i} = ${i};\n\`\`\``, asked, i % 3 === 0 ? { files: [`src/part${i}.ts`] } : {});
    const answered = new Date(asked.getTime() + 1500);
    if (i % 7 === 6) {
      appendMessage(conv, 'assistant', '', answered, { status: 'error', error: { kind: 'server', message: `Server error ${i}`, actions: ['retry'], traceId: `trace-${i}` } });
      continue;
    }
    appendMessage(conv, 'assistant', `Part ${i} works like this — “${'detail '.repeat(i % 40)}”.`, answered, {
      status: i % 5 === 4 ? 'stopped' : 'complete',
      meta: {
        model: i % 2 ? 'deep-think' : 'swift-chat',
        credits: (i % 9) / 4,
        promptTokens: 100 + i,
        completionTokens: 20 + (i % 50),
        ...(i % 4 === 0 ? { reasoning: `Thinking about ${i}` } : {}),
        ...(i % 11 === 0 ? { extras: JSON.stringify([{ i }]) } : {}),
        ...(i % 13 === 0 ? { rules: [{ path: 'AGENTS.md', why: 'always (the project instructions)' }] } : {}),
      },
    });
  }
  conv.title = `Long conversation of ${turns} turns`;
  const through = Math.min(100, conv.messages.length);
  if (through >= 2) {
    conv.summary = {
      text: `What the first ${through / 2} turns said.`,
      throughId: conv.messages[through - 1].id,
      turns: through / 2,
      model: 'swift-chat',
      cost: 1,
      credits: 1,
      messageCount: through,
      createdAt: conv.messages[through - 1].createdAt,
    };
  }
  return conv;
}
