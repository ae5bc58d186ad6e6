// Journey 39: a long conversation on a model with a small context (swift-chat: max_tokens 4096 in
// the reference server, so about 3,072 tokens per request). The transcript shows the boundary
// line above the oldest turn still sent and the meter near Send; the request the server receives
// holds exactly the turns below the line, and its estimated size is the meter's figure.
import assert from 'node:assert/strict';
import { messageTokens } from '../../../src/core/context/contextBudget';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer, waitForChatRequests } from '../steps';
import { squash, waitFor } from '../workbench';

const TURNS = 8;

describe('Journey 39: a context budget the user can see', () => {
  it('sends only the turns below the boundary line, and the meter matches the request', async () => {
    resetServer(0);
    const wb = await readyWithKey();
    const chat = await wb.chat();
    await chat.newChat();
    const line = chat.frame.locator('.context-boundary');
    const meter = chat.frame.locator('.context-meter');

    // Replies of about 2,000 characters (about 500 tokens): a few turns fill the budget.
    await chat.ask('Question e2e-budget-0 len:2000');
    assert.equal(await meter.isVisible(), false, 'one turn fits: no meter');
    assert.equal(await line.isVisible(), false, 'one turn fits: no boundary line');
    for (let i = 1; i < TURNS; i++) await chat.ask(`Question e2e-budget-${i} len:2000`);

    // The next message typed: the meter and the line are those of the request it would make.
    const final = 'Final question e2e-budget-final';
    await chat.type(final);
    await waitFor(async () => (await line.isVisible()) && (await meter.isVisible()), 'no boundary line or meter after a long conversation', 15_000);
    // The draft reaches the host after 250 ms; the meter then counts the typed message.
    let tip = '';
    // (An empty box counts a message's framing alone: the figure waited for is the typed text's.)
    await waitFor(async () => Number(/Message: ([\d,]+)/.exec((tip = (await meter.getAttribute('title')) ?? ''))?.[1]?.replace(/,/g, '')) === messageTokens(final), () => `the meter never counted the typed message: ${tip}`, 15_000);
    // Looked at as a user would: the line scrolled into view (a turn far from view shows its text once near).
    await line.scrollIntoViewIfNeeded();
    await waitFor(async () => /e2e-budget-\d+/.test(await line.evaluate((el) => el.nextElementSibling?.textContent ?? '')), 'the turn below the line never showed its text', 10_000);
    const shown = await line.evaluate((el) => ({
      text: el.textContent ?? '',
      below: el.nextElementSibling?.textContent ?? '',
      above: el.previousElementSibling?.textContent ?? '',
    }));
    const meterText = squash((await meter.textContent()) ?? '');
    const tooltip = (await meter.getAttribute('title')) ?? '';
    const omitted = Number(/not sent to the model: (\d+) turns?/.exec(shown.text)?.[1]);
    const firstSent = Number(/e2e-budget-(\d+)/.exec(shown.below)?.[1]);
    assert.ok(omitted > 0 && omitted < TURNS, shown.text);
    assert.equal(firstSent, omitted, `the line sits above the oldest turn still sent: ${JSON.stringify(shown).slice(0, 200)}`);
    assert.match(shown.above, new RegExp(`e2e-budget-${omitted - 1}\\b`), 'and below the newest turn left out');
    const [total, budget] = (/≈ ([\d,]+) \/ ([\d,]+) tokens/.exec(meterText) ?? []).slice(1).map((n) => Number(n.replace(/,/g, '')));
    assert.equal(budget, 3072, `swift-chat's max_tokens 4096 less room for the reply: ${meterText}`);
    assert.ok(total <= budget, meterText);
    assert.match(tooltip, /Instructions: \d+\nAttachments: 0\nHistory: [\d,]+ \(\d+ earlier turns sent, \d+ not sent\)\nMessage: \d+/);
    assert.match(tooltip, /Fork/);

    // Send it: the server receives the turns below the line, and nothing older.
    const before = chatRequests().length;
    await chat.sendButton().click();
    const reqs = await waitForChatRequests(before + 1);
    await chat.waitForReplyShowing(/e2e-budget-final/);
    const body = reqs[before];
    const users = (body.messages ?? []).filter((m) => m.role === 'user').map((m) => m.content);
    assert.deepEqual(
      users,
      [...Array.from({ length: TURNS - omitted }, (_, k) => `Question e2e-budget-${omitted + k} len:2000`), final],
      'the request holds exactly the questions below the line, then the new one',
    );
    const sentTokens = (body.messages ?? []).reduce((n, m) => n + messageTokens(m.content), 0);
    assert.equal(sentTokens, total, 'the meter showed the estimate of the request that was sent');

    // Export and History keep the whole conversation: every turn is still in the transcript.
    assert.equal(await chat.articles().count(), 2 * (TURNS + 1));

    // The service refuses the next one as too long: "Send with fewer earlier messages" sends the
    // same text with half the earlier turns, and the text is never lost.
    e2e().demo.server.control.injectFault({ kind: 'status', status: 400, message: 'messages: input is too long for the model (about 5,000 tokens, at most 4,096)' });
    const refusedAt = chatRequests().length;
    const again = 'One more question e2e-budget-fewer';
    await chat.send(again);
    await waitFor(async () => (await chat.alertTexts()).some((t) => /too long/.test(t)), 'no error saying the input is too long', 20_000);
    assert.equal(await chat.message().inputValue(), again, 'the typed text is back in the box');
    const fewer = chat.button('Send with fewer earlier messages');
    await fewer.click();
    const [refused, retried] = (await waitForChatRequests(refusedAt + 2)).slice(refusedAt);
    const sentTurns = (refused.messages ?? []).filter((m) => m.role === 'user').length - 1;
    assert.ok(sentTurns >= 2, `the refused request held ${sentTurns} earlier turns`);
    await chat.waitForReplyShowing(/e2e-budget-fewer/);
    const retriedUsers = (retried.messages ?? []).filter((m) => m.role === 'user').map((m) => m.content);
    assert.equal(retriedUsers.length, Math.floor(sentTurns / 2) + 1, `half of ${sentTurns} earlier turns, then the question: ${JSON.stringify(retriedUsers)}`);
    assert.equal(retriedUsers.at(-1), again);
    assert.equal(retriedUsers.at(-2), final, 'the newest turns are the ones kept');
    assert.match(await chat.replyText(), /e2e-budget-fewer/);
    assert.equal(await chat.message().inputValue(), '', 'sent: the box is empty');
    await chat.newChat();
    await waitFor(async () => !(await meter.isVisible()) && !(await line.isVisible()), 'the meter stays in an empty chat', 10_000);
  });
});
