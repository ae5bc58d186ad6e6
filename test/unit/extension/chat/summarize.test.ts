import assert from 'node:assert/strict';
import { runTurn, type SessionChatRequest } from '../../../../src/core';
import { Summarizer, type SummarizerDeps } from '../../../../src/extension/chat/common/summarize';
import type { SurfaceTurnRequest } from '../../../../src/extension/pipeline/common/turnService';
import type { HostMessage } from '../../../../src/protocol';
import { echoBackend } from '../../../support/backend';
import { makeSession } from '../../../support/session';

/** A session of `turns` turns on a small budget, and a summarizer whose pipeline answers with `reply`. */
async function fixture(opts: { turns?: number; reply?: string; confirm?: boolean; auto?: boolean; holdsKey?: boolean } = {}) {
  const chat: SessionChatRequest[] = [];
  const t = makeSession({ backend: echoBackend(chat, () => 'r'.repeat(400)), contextBudget: () => 700 });
  for (let i = 0; i < (opts.turns ?? 10); i++) await t.session.send(`Question ${i}`);
  const runs: SurfaceTurnRequest[] = [];
  const summaryRequests: SessionChatRequest[] = [];
  const posted: HostMessage[] = [];
  const told: string[] = [];
  const asked: string[] = [];
  const deps: SummarizerDeps = {
    session: t.session,
    next: () => ({ text: '', attachmentChars: 0 }),
    quote: () => ({ model: 'swift-chat', name: 'Swift Chat', cost: 2 }),
    room: async () => 2000,
    run: async (req, sink, signal) => {
      runs.push(req);
      const result = await runTurn(
        echoBackend(summaryRequests, () => opts.reply ?? 'SUMMARY of the turns'),
        { messages: [{ role: 'system', content: req.system ?? '' }, { role: 'user', content: req.prompt }], model: req.model ?? 'swift-chat', stream: true, temperature: 1 },
        sink,
        signal,
        { baseUrl: 'http://127.0.0.1:9' },
      );
      return { kind: 'ran', result, charge: Promise.resolve({ charged: 2, pending: false }) };
    },
    post: (m) => posted.push(m),
    confirm: async (question) => {
      asked.push(question);
      return opts.confirm ?? true;
    },
    tell: (message) => told.push(message),
    holdsKey: async () => opts.holdsKey ?? false,
    auto: () => opts.auto ?? false,
  };
  return { ...t, chat, runs, summaryRequests, posted, told, asked, summarizer: new Summarizer(deps) };
}

const settle = () => new Promise((ok) => setTimeout(ok, 10));

describe('Summarizer (Summarize Earlier Turns)', () => {
  it('asks with the price when it was not on screen, runs one summary request through the pipeline, and keeps the summary with its cost', async () => {
    const f = await fixture();
    const plan = f.session.summaryPlan()!;
    assert.equal(await f.summarizer.start(true), 'done');
    assert.equal(f.asked.length, 1);
    assert.match(f.asked[0], new RegExp(`^Summarize the ${plan.newTurns} turns above the line: 2 credits \\(Swift Chat\\)`));
    assert.equal(f.runs.length, 1);
    assert.equal(f.runs[0].surface, 'summary');
    assert.equal(f.runs[0].model, 'swift-chat');
    assert.ok(f.runs[0].prompt.includes('Question 0'));
    assert.equal(f.session.conversation.summary?.text, 'SUMMARY of the turns');
    assert.equal(f.session.conversation.summary?.turns, plan.turns);
    assert.equal(f.session.conversation.summary?.cost, 2);
    await settle();
    assert.equal(f.session.conversation.summary?.credits, 2, 'what it cost, once settled');
    // Progress: running with its turns and place, then done.
    const progress = f.posted.filter((m) => m.type === 'summaryProgress');
    assert.deepEqual(progress[0], { type: 'summaryProgress', running: true, turns: plan.newTurns, throughId: plan.throughId, text: '' });
    assert.deepEqual(progress.at(-1), { type: 'summaryProgress', running: false });
    // The next chat request carries it.
    f.chat.length = 0;
    await f.session.send('Next');
    assert.match(f.chat[0].messages.find((m) => m.role === 'system')?.content ?? '', /SUMMARY of the turns/);
  });

  it('the meter\'s button does not ask again; a cancelled question sends nothing; nothing above the line is said', async () => {
    const no = await fixture({ confirm: false });
    assert.equal(await no.summarizer.start(true), 'cancelled');
    assert.equal(no.runs.length, 0);
    assert.equal(no.session.conversation.summary, undefined);
    const button = await fixture();
    assert.equal(await button.summarizer.start(false), 'done');
    assert.equal(button.asked.length, 0);
    const short = await fixture({ turns: 2 });
    assert.equal(await short.summarizer.start(true), 'nothing');
    assert.equal(short.runs.length, 0);
    assert.match(short.told[0], /Nothing to summarize/);
  });

  it('an empty reply keeps nothing and says so; an edit holding the key is refused; Remove is the undo', async () => {
    const empty = await fixture({ reply: '   ' });
    assert.equal(await empty.summarizer.start(false), 'failed');
    assert.equal(empty.session.conversation.summary, undefined);
    assert.match(empty.told[0], /failed/);
    const f = await fixture({ holdsKey: true });
    await f.summarizer.start(false);
    await f.summarizer.edit('with the key');
    assert.equal(f.session.conversation.summary?.text, 'SUMMARY of the turns');
    assert.match(f.told.at(-1) ?? '', /API key/);
    await f.summarizer.remove();
    assert.equal(f.session.conversation.summary, undefined);
  });

  it('is never automatic unless aiChat.context.autoSummarize is on', async () => {
    const off = await fixture({ auto: false });
    await off.session.send('One more');
    off.summarizer.onSessionEvent(off.events.filter((e) => e.type === 'turnEnded').at(-1)!);
    await settle();
    assert.equal(off.runs.length, 0);
    const on = await fixture({ auto: true });
    on.summarizer.onSessionEvent(on.events.filter((e) => e.type === 'turnEnded').at(-1)!);
    await settle();
    assert.equal(on.runs.length, 1);
    assert.ok(on.session.conversation.summary);
  });
});
