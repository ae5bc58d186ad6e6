import { strict as assert } from 'node:assert';
import { InsufficientCreditsError } from '../../../../src/client';
import { answeredHereMetadata, nativeHistory, nativeTurns, referencesNote, runTurn, sentTurnMetadata, turnsWithout, type ChatBackend, type NativeTurn, type SessionStreamEvent } from '../../../../src/core';
import { heldSendText, HeldSends, sendButtonTitle, sendQuery, type PreparedSend, type SlashAsk } from '../../../../src/core/chat/heldSends';
import { slashRequest } from '../../../../src/core/promptFiles/promptFiles';
import { modelPriceText } from '../../../../src/core';
import { scriptedBackend } from '../../../support/backend';

const baseUrl = 'https://chat.example/api';
/** One turn of @aichat through the pipeline's stream loop. */
const ask = (b: ChatBackend, sink: { text(c: string): void }, signal = new AbortController().signal) =>
  runTurn(b, { messages: nativeHistory([], 'q', ''), model: 'swift-chat', stream: true, temperature: 1 }, { text: (c) => sink.text(c), status: () => undefined }, signal, { baseUrl });

const backend = (events: SessionStreamEvent[], fail?: Error) => scriptedBackend(events, fail ? { fail } : {});

const reply = (...texts: string[]): SessionStreamEvent[] => [
  { event: 'f', messageId: 'm1' },
  ...texts.map((data) => ({ event: '0' as const, data })),
  { event: 'e', finishReason: 'stop' },
  { event: 'd', finishReason: 'stop' },
];

describe('@aichat: the Chat view answered through the service', () => {
  it('the Chat view\'s turns and the prompt become the service\'s messages, the system prompt first', () => {
    const h = nativeHistory(
      [
        { role: 'user', content: 'What is a tide?' },
        { role: 'assistant', content: 'The rise and fall of the sea.' },
        { role: 'assistant', content: '   ' },
      ],
      'And a neap tide?',
      'Answer briefly.',
    );
    assert.deepEqual(
      h.map((m) => [m.role, m.content]),
      [
        ['system', 'Answer briefly.'],
        ['user', 'What is a tide?'],
        ['assistant', 'The rise and fall of the sea.'],
        ['user', 'And a neap tide?'],
      ],
    );
    const ids = h.filter((m) => m.role !== 'system').map((m) => m.id);
    assert.ok(ids.every((id) => /^msg_[0-9a-f]{3}$/.test(id ?? '')) && new Set(ids).size === ids.length, 'ids as the service wants them');
  });

  it('a Chat view history longer than the id space keeps the newest turns and the prompt', () => {
    const turns: NativeTurn[] = Array.from({ length: 5000 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` }));
    const h = nativeHistory(turns, 'the prompt', '');
    assert.equal(h[h.length - 1].content, 'the prompt');
    assert.ok(h.length <= 4096);
    assert.equal(h[h.length - 2].content, 'turn 4999');
  });

  it('a request refused for holding the key is left out of the later requests, with its refusal, and so is an answer that quotes the key', () => {
    const key = 'sk-live-0123456789';
    const holds = (text: string) => text.includes(key);
    const turns: NativeTurn[] = [
      { role: 'user', content: 'What is a tide?' },
      { role: 'assistant', content: 'The rise and fall of the sea.' },
      { role: 'user', content: `my key is ${key}, why is it refused?` },
      { role: 'assistant', content: 'This message holds your AI Chat API key, so it was not sent.' },
      { role: 'user', content: `again ${key}` },
      { role: 'user', content: 'What is a neap tide?' },
      { role: 'assistant', content: 'A tide of small range.' },
      { role: 'user', content: 'What is in my .env?' },
      { role: 'assistant', content: `It says KEY=${key}` },
      { role: 'user', content: 'Thanks' },
      { role: 'assistant', content: 'You are welcome.' },
    ];
    const kept = turnsWithout(turns, holds);
    assert.deepEqual(
      kept.map((t) => t.content),
      ['What is a tide?', 'The rise and fall of the sea.', 'What is a neap tide?', 'A tide of small range.', 'What is in my .env?', 'Thanks', 'You are welcome.'],
      'the refused requests and their refusal, and the answer that quotes the key, are left out',
    );
    assert.ok(!JSON.stringify(nativeHistory(kept, 'And a spring tide?', '')).includes(key), 'the key is in no message sent');
    assert.deepEqual(turnsWithout(turns, () => false), turns, 'nothing is left out when no turn holds the key');
  });

  it('streams the reply into the Chat view and sends the chosen model', async () => {
    const b = backend(reply('Neap tides ', 'are weak.'));
    const chunks: string[] = [];
    const r = await ask(b, { text: (c) => chunks.push(c) });
    assert.equal(r.ending, 'complete');
    assert.equal(r.text, 'Neap tides are weak.');
    assert.deepEqual(chunks, ['Neap tides ', 'are weak.']);
    assert.equal(b.sent[0].model, 'swift-chat');
    assert.equal(b.sent[0].stream, true);
  });

  it('a 402 is told with the panel\'s words and the Show Subscriptions action', async () => {
    const err = new InsufficientCreditsError({ status: 402, message: 'Insufficient credits', creditsRemaining: 0 });
    const r = await ask(backend([], err), { text: () => undefined });
    assert.equal(r.ending, 'failed');
    assert.equal(r.answered, false);
    assert.ok(r.error && /Not enough credits/.test(r.error.message), JSON.stringify(r));
    assert.ok(r.error?.actions.includes('showSubscriptions'));
  });

  it('an error part after some text keeps the text and fails with the service\'s message', async () => {
    const events: SessionStreamEvent[] = [{ event: 'f', messageId: 'm' }, { event: '0', data: 'Partial ' }, { event: '3', error: 'model overloaded' }];
    const r = await ask(backend(events), { text: () => undefined });
    assert.ok(r.ending === 'error' && r.text === 'Partial ' && /model overloaded/.test(r.error?.message ?? ''), JSON.stringify(r));
  });

  it('cancelled in the Chat view: stops reading and says nothing more', async () => {
    const controller = new AbortController();
    const chunks: string[] = [];
    const r = await ask(
      backend(reply('one ', 'two ', 'three')),
      { text: (c) => { chunks.push(c); if (chunks.length === 1) controller.abort(); } },
      controller.signal,
    );
    assert.equal(r.ending, 'stopped');
    assert.deepEqual(chunks, ['one ']);
  });
});

describe('@aichat: the earlier turns read back from the Chat view', () => {
  it('a response that kept what was sent gives the expanded prompt and the reply alone, not the price line or a note', () => {
    const turns = nativeTurns([
      { kind: 'request', text: '/prompt review' },
      {
        kind: 'response',
        shown: '*/review · Deep Think · 3 credits*\n\nLooks fine.\n\n*The reply is 70,000 characters long…*',
        metadata: sentTurnMetadata('Review a.ts for naming', 'Looks fine.'),
      },
      { kind: 'request', text: 'and the tests?' },
    ]);
    assert.deepEqual(turns, [
      { role: 'user', content: 'Review a.ts for naming' },
      { role: 'assistant', content: 'Looks fine.' },
      { role: 'user', content: 'and the tests?' },
    ]);
  });

  it('a response answered without the model (a list of prompts, a refusal) is left out with its request', () => {
    const turns = nativeTurns([
      { kind: 'request', text: 'first question' },
      { kind: 'response', shown: 'An answer.', metadata: sentTurnMetadata('first question', 'An answer.') },
      { kind: 'request', text: '/prompt' },
      { kind: 'response', shown: '- /review: Review the code\n- /fix: Fix it', metadata: answeredHereMetadata() },
      { kind: 'request', text: 'q' },
      { kind: 'response', shown: 'Set your API key first.', metadata: answeredHereMetadata() },
      { kind: 'request', text: 'and now?' },
    ]);
    assert.deepEqual(turns, [
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'An answer.' },
      { role: 'user', content: 'and now?' },
    ]);
  });

  it('a response without it (an older version\'s, another form) is taken as shown', () => {
    for (const metadata of [undefined, null, {}, { sent: 'x' }, { sent: { prompt: 1, reply: 'r' } }, { sent: { prompt: 'p' } }]) {
      const turns = nativeTurns([
        { kind: 'request', text: 'q' },
        { kind: 'response', shown: 'Set your API key first.', metadata },
      ]);
      assert.deepEqual(turns, [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'Set your API key first.' },
      ], JSON.stringify(metadata));
    }
  });
});

describe('@aichat /name with a prompt that names another model than the selected one (P5)', () => {
  /**
   * The Chat view's requests to @aichat as the participant answers them (participant.ts: every
   * request goes through HeldSends.answer; a held one shows its Send button). `sent`: every request
   * that went to the service; `prepared`: how many times the prompt was expanded (its inputs asked).
   */
  function chatView(prompt: (ask: SlashAsk) => PreparedSend) {
    const held = new HeldSends();
    const sent: { prompt: string; model?: string }[] = [];
    const buttons: { title: string; id: string }[] = [];
    let prepared = 0;
    const request = async (command: string | undefined, text: string) => {
      const ask = slashRequest(command, text);
      const step = await held.answer(ask, async () => (ask ? (prepared++, prompt(ask)) : { prompt: text }));
      if (step.kind === 'send') sent.push({ prompt: step.prompt, ...(step.model ? { model: step.model } : {}) });
      if (step.kind === 'held') buttons.push({ title: sendButtonTitle(modelPriceText('Deep Think', 3)), id: step.id });
      return step;
    };
    /** The click on a Send button: what its command does, then the request it asks the Chat view for. */
    const click = async (id: string) => {
      const query = held.approve(id);
      if (query === undefined) return undefined;
      const m = /^@aichat \/(\S+) ?([\s\S]*)$/.exec(query);
      assert.ok(m, `a query for @aichat: ${query}`);
      return request(m[1], m[2]);
    };
    return { held, sent, buttons, request, click, prepared: () => prepared };
  }
  const review = () => ({ prompt: 'Review a.ts for naming:\n\nexport const total = 40 + 2;', model: 'deep-think' });

  it('nothing is sent without the click; the Send button names the model and its price', async () => {
    const view = chatView(review);
    const step = await view.request('prompt', 'review naming');
    assert.equal(step.kind, 'held');
    assert.deepEqual(view.sent, [], 'no request went to the service');
    assert.deepEqual(view.buttons.map((b) => b.title), ['Send with Deep Think · 3 credits']);
    assert.equal(
      heldSendText('/review', 'Deep Think', 'Swift Chat'),
      'Nothing was sent yet: /review names the model Deep Think, not your selected model, Swift Chat. To send it with Deep Think, click the button below.',
    );
    // Asked again, typed as /review: held again, still nothing sent.
    assert.equal((await view.request(undefined, '/review naming')).kind, 'held');
    assert.deepEqual(view.sent, []);
  });

  it('the click sends that text with that model, once, without asking the prompt\'s inputs again', async () => {
    const view = chatView(review);
    const step = await view.request('prompt', 'review naming');
    assert.ok(step.kind === 'held', `held, not sent: ${JSON.stringify(step)}`);
    assert.equal(view.held.approve('no-such-button'), undefined);
    const clicked = await view.click(step.id);
    assert.deepEqual(clicked, { kind: 'send', prompt: review().prompt, model: 'deep-think', approved: true });
    assert.deepEqual(view.sent, [{ prompt: review().prompt, model: 'deep-think' }]);
    assert.equal(view.prepared(), 1, 'expanded once: its inputs are not asked again');
    // A second click sends nothing more.
    assert.equal(await view.click(step.id), undefined);
    assert.equal(view.sent.length, 1);
  });

  it('an approval serves only the request its click asked for: another request first drops it', async () => {
    const view = chatView(review);
    const step = await view.request('prompt', 'review naming');
    assert.ok(step.kind === 'held', `held, not sent: ${JSON.stringify(step)}`);
    assert.equal(view.held.approve(step.id), sendQuery({ name: 'review', args: 'naming' }));
    assert.equal(sendQuery({ name: 'review', args: 'naming' }), '@aichat /prompt review naming');
    await view.request(undefined, 'What is a tide?');
    assert.deepEqual(view.sent, [{ prompt: 'What is a tide?' }]);
    assert.equal((await view.request('prompt', 'review naming')).kind, 'held', 'the same request typed later asks again');
    assert.equal(view.sent.length, 1);
  });

  it('a prompt that names no other model is sent at once with the selected model, as before', async () => {
    const view = chatView(() => ({ prompt: 'Fix issue #42.' }));
    assert.deepEqual(await view.request(undefined, '/issue 42'), { kind: 'send', prompt: 'Fix issue #42.', approved: false });
    assert.deepEqual(view.sent, [{ prompt: 'Fix issue #42.' }]);
    assert.deepEqual(view.buttons, []);
  });
});

describe('@aichat: what the Chat view attached but was not sent', () => {
  it('one line a note under a heading, each note as text (file names are not Markdown)', () => {
    const note = referencesNote(['docs/setup.md is a link to /home/u/.aws/credentials, outside the workspace, and was not attached.', 'a_b*c*.ts [x](http://e.x) looks like a binary file']);
    const lines = note.trimEnd().split('\n');
    assert.equal(lines.length, 3);
    assert.match(lines[0], /Not all that was attached went with your question/);
    assert.ok(lines[1].startsWith('- docs/setup\\.md is a link to /home/u/\\.aws/credentials'), lines[1]);
    assert.ok(lines[2].includes('a\\_b\\*c\\*\\.ts \\[x\\]\\(http://e\\.x\\)'), lines[2]);
    assert.ok(note.endsWith('\n\n'), 'the answer starts a paragraph of its own');
  });
});
