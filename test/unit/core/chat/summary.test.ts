import assert from 'node:assert/strict';
import {
  autoSummarizeOn,
  encodeLog,
  forkConversation,
  messageTokens,
  planSummary,
  replayLog,
  summaryEnd,
  summaryMessage,
  summaryRequest,
  type SessionChatRequest,
} from '../../../../src/core';
import { toContextMeter, toConversationView } from '../../../../src/extension/chat/common/presenter';
import { echoBackend } from '../../../support/backend';
import { makeSession } from '../../../support/session';

const TURNS = 10;
const BUDGET = 700;

/** A session over a conversation of `turns` turns (replies of 400 characters) on a small budget; every request recorded. */
async function longConversation(turns = TURNS, budget = BUDGET) {
  const requests: SessionChatRequest[] = [];
  const t = makeSession({ backend: echoBackend(requests, () => 'r'.repeat(400)), contextBudget: () => budget, settings: { systemPrompt: 'Be brief.' } });
  for (let i = 0; i < turns; i++) await t.session.send(`Question ${i}`);
  requests.length = 0;
  return { ...t, requests };
}

const users = (req: SessionChatRequest) => req.messages.filter((m) => m.role === 'user').map((m) => m.content);
const systems = (req: SessionChatRequest) => req.messages.filter((m) => m.role === 'system').map((m) => m.content);

describe('Summarize earlier turns (core)', () => {
  it('plans the turns above the boundary line, and its request holds them newest first within the room', async () => {
    const t = await longConversation();
    const selection = t.session.previewContext('');
    assert.ok(selection.ok && selection.omittedTurns > 0 && selection.sentTurns > 0, JSON.stringify(selection.ok && selection.omittedTurns));
    const plan = t.session.summaryPlan();
    assert.ok(plan);
    assert.equal(plan.newTurns, selection.ok ? selection.omittedTurns : -1);
    assert.equal(plan.from, 0);
    assert.equal(t.session.conversation.messages[plan.to].id, selection.ok ? selection.boundaryId : '', 'it ends at the line');
    const all = summaryRequest(t.session.conversation, plan, 100_000);
    assert.ok(all.ok);
    assert.equal(all.read, plan.newTurns);
    assert.equal(all.unread, 0);
    for (let i = 0; i < plan.newTurns; i++) assert.ok(all.prompt.includes(`Question ${i}\n`), `turn ${i} is in the prompt`);
    assert.ok(!all.prompt.includes(`Question ${plan.newTurns}\n`), 'a turn below the line is not');
    // A small room: the newest turns only, the oldest counted as unread.
    const small = summaryRequest(t.session.conversation, plan, 400);
    assert.ok(small.ok);
    assert.ok(small.read >= 1 && small.read < plan.newTurns, JSON.stringify(small.read));
    assert.equal(small.unread, plan.newTurns - small.read);
    assert.ok(small.prompt.includes(`Question ${plan.newTurns - 1}\n`) && !small.prompt.includes('Question 0\n'));
    assert.ok(messageTokens(small.prompt) + messageTokens(small.system) <= 400 + 20);
    assert.deepEqual(summaryRequest(t.session.conversation, plan, 50), { ok: false });
  });

  it('the request after a summary carries the summary, not the turns it replaced, and fewer messages', async () => {
    const t = await longConversation();
    await t.session.send('Before');
    const before = t.requests[0];
    const plan = t.session.summaryPlan();
    assert.ok(plan);
    assert.equal(t.session.applySummary(plan, 'The user asked questions 0 to N. SUMMARY-TEXT', { model: 'swift-chat', cost: 1, unread: 0 }), true);
    assert.equal(t.session.conversation.messages.length, 2 * (TURNS + 1), 'the turns stay in the conversation');
    await t.session.send('After');
    const after = t.requests[1];
    const sys = systems(after);
    assert.equal(sys.length, 2);
    assert.equal(sys[0], 'Be brief.');
    assert.match(sys[1], /SUMMARY-TEXT/);
    assert.match(sys[1], new RegExp(`\\(${plan.turns} turns\\)`));
    const sent = users(after);
    for (let i = 0; i < plan.newTurns; i++) assert.ok(!sent.includes(`Question ${i}`), `replaced turn ${i} not sent`);
    assert.equal(sent.at(-1), 'After');
    assert.ok(sent.length >= users(before).length - 1, 'the turns below the line still go');
    assert.ok(after.messages.length <= before.messages.length + 3);
    // The meter counts it.
    const preview = t.session.previewContext('Next');
    const meter = toContextMeter(preview, 'model');
    assert.equal(meter.summary, messageTokens(summaryMessage({ text: t.session.conversation.summary!.text, turns: plan.turns })));
    assert.equal(meter.summarizedTurns, plan.turns);
    assert.ok(preview.ok);
    assert.equal(meter.total, preview.messages.reduce((n, m) => n + messageTokens(m.content), 0), 'the total is the request as sent');
  });

  it('removing the summary sends the turns again (the undo), and an edit is sent as edited', async () => {
    const t = await longConversation();
    await t.session.send('One');
    const plan = t.session.summaryPlan()!;
    t.session.applySummary(plan, 'first text', { model: 'swift-chat', cost: 1, unread: 0 });
    assert.equal(await t.session.editSummary('  my own words  '), true);
    assert.equal(t.session.conversation.summary?.text, 'my own words');
    assert.equal(t.session.conversation.summary?.edited, true);
    await t.session.send('Two');
    assert.match(systems(t.requests[1])[1], /my own words/);
    assert.equal(await t.session.removeSummary(), true);
    assert.equal(t.session.conversation.summary, undefined);
    const preview = t.session.previewContext('Three');
    assert.ok(preview.ok && preview.omittedTurns > 0 && preview.summarySent === undefined, 'turns above the line again');
    await t.session.send('Three');
    const third = t.requests[2];
    assert.equal(systems(third).length, 1, 'no summary');
    assert.equal(users(third).length, (preview.ok ? preview.sentTurns : 0) + 1, 'the turns that fit go again');
  });

  it('keeps the summary on reload and in a fork from below it; a fork from above it goes without', async () => {
    const t = await longConversation();
    const plan = t.session.summaryPlan()!;
    t.session.applySummary(plan, 'kept text', { model: 'swift-chat', cost: 2, unread: 1 });
    t.session.setSummaryCredits(t.session.conversation.id, t.session.conversation.summary!.createdAt, 2);
    await t.store.flush();
    // Reload: a new session over the same storage.
    const again = makeSession({ backend: echoBackend([]), storage: t.storage, contextBudget: () => BUDGET });
    const opened = await again.store.open(t.session.conversation.id);
    assert.ok(opened);
    assert.deepEqual(opened.summary, t.session.conversation.summary);
    assert.equal(summaryEnd(opened), plan.to);
    assert.equal(toConversationView(opened).summary?.throughId, plan.throughId);
    assert.equal(toConversationView(opened).summary?.credits, 2);
    // Fork below the summary keeps it; from inside what it replaced, not.
    const conv = t.session.conversation;
    const below = forkConversation(conv, conv.messages[conv.messages.length - 1].id, 'fork-below');
    assert.equal(below?.summary?.text, 'kept text');
    assert.ok(await t.session.fork(conv.messages[conv.messages.length - 1].id));
    assert.equal(t.session.conversation.summary?.text, 'kept text', 'Fork keeps it');
    const inside = forkConversation(conv, conv.messages[plan.to - 2].id, 'fork-inside');
    assert.equal(inside?.summary, undefined);
  });

  it('reads logs without summaries, and a removal written as null', async () => {
    const t = await longConversation(3, 100_000);
    const conv = structuredClone(t.session.conversation);
    const keys = conv.messages.map((_, i) => `k${i}`);
    const plain = replayLog(encodeLog(conv, keys));
    assert.ok(plain);
    assert.equal(plain.conv.summary, undefined);
    assert.equal(plain.conv.messages.length, 6);
    conv.summary = { text: 's', throughId: conv.messages[1].id, messageCount: 2, turns: 1, model: 'm', cost: 1, createdAt: new Date(0).toISOString() };
    const withSummary = encodeLog(conv, keys);
    assert.equal(replayLog(withSummary)?.conv.summary?.text, 's');
    assert.equal(replayLog(withSummary + JSON.stringify({ t: 's', s: null }) + '\n')?.conv.summary, undefined);
    // A summary record that fails its schema is skipped, the conversation is read.
    const bad = replayLog(withSummary + JSON.stringify({ t: 's', s: { text: 3 } }) + '\n');
    assert.equal(bad?.conv.summary?.text, 's');
  });

  it('a turn taken back that the summary replaced takes the summary with it; no plan while nothing is above the line', async () => {
    const t = await longConversation(4, 100_000);
    assert.equal(t.session.summaryPlan(), undefined, 'everything fits: nothing to summarize');
    const conv = t.session.conversation;
    // A summary of every turn (as when no earlier turn fits), then Edit of the last question.
    conv.summary = { text: 's', throughId: conv.messages[7].id, messageCount: 8, turns: 4, model: 'm', cost: 1, createdAt: new Date(0).toISOString() };
    await t.session.editLast();
    assert.equal(t.session.conversation.summary, undefined);
  });

  it('a plan from a summary goes on from it: the new one replaces both, and its prompt holds the old text', async () => {
    const t = await longConversation(16, BUDGET);
    const first = t.session.summaryPlan()!;
    t.session.applySummary(first, 'OLD-SUMMARY', { model: 'swift-chat', cost: 1, unread: 0 });
    for (let i = 0; i < 4; i++) await t.session.send(`More ${i}`);
    const second = planSummary(t.session.conversation, t.session.previewContext(''));
    assert.ok(second, 'more turns went above the line');
    assert.equal(second.from, first.to);
    assert.equal(second.previous?.text, 'OLD-SUMMARY');
    assert.equal(second.turns, first.turns + second.newTurns);
    const req = summaryRequest(t.session.conversation, second, 100_000);
    assert.ok(req.ok && req.prompt.includes('OLD-SUMMARY') && !req.prompt.includes('Question 0\n'));
    assert.equal(t.session.applySummary(second, 'NEW', { model: 'm', cost: 1, unread: 0 }), true);
    assert.equal(t.session.conversation.summary?.messageCount, second.to);
    // A plan that no longer fits (the summary changed since) is refused.
    assert.equal(t.session.applySummary(first, 'late', { model: 'm', cost: 1, unread: 0 }), false);
  });
});

describe('aiChat.context.autoSummarize: the user\'s own setting only', () => {
  it('P4: a workspace\'s true (a cloned repository\'s .vscode/settings.json) does not make summaries automatic; the user\'s own true does', () => {
    assert.equal(autoSummarizeOn({}), false, 'off by default');
    assert.equal(autoSummarizeOn({ workspaceValue: true }), false, 'the workspace turns it on: not automatic');
    assert.equal(autoSummarizeOn({ workspaceFolderValue: true }), false, 'a workspace folder turns it on: not automatic');
    assert.equal(autoSummarizeOn({ userValue: false, workspaceValue: true, workspaceFolderValue: true }), false, 'the user turned it off');
    assert.equal(autoSummarizeOn({ userValue: true }), true, 'the user turned it on');
    assert.equal(autoSummarizeOn({ userValue: true, workspaceValue: false }), true, 'a workspace cannot turn the user\'s choice off either');
    assert.equal(autoSummarizeOn({ userValue: 'true' }), false, 'only a boolean true');
  });
});
