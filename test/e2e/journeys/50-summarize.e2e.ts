// Journey 50: Summarize earlier turns at a price shown first. A long conversation on a model with a
// small context (swift-chat: about 3,072 tokens a request) leaves turns above the boundary line;
// the line's button says how many and the selected model's price; clicking it sends one request
// (the turns above the line, nothing below) and shows the summary as a card. The next request
// carries the summary instead of those turns, with fewer messages; the card survives a reload;
// Remove sends the turns again; the command asks with the price before it spends anything.
import assert from 'node:assert/strict';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer, waitForChatRequests } from '../steps';
import { squash, waitFor } from '../workbench';

const TURNS = 8;

describe('Journey 50: Summarize earlier turns', () => {
  it('summarizes the turns above the line at the price it showed, and the next request carries the summary', async () => {
    resetServer(0);
    let wb = await readyWithKey();
    let chat = await wb.chat();
    await chat.newChat();
    for (let i = 0; i < TURNS; i++) await chat.ask(`Question e2e-sum-${i} len:2000`);
    const line = chat.frame.locator('.context-boundary');
    const summarize = chat.frame.locator('.context-summarize');
    await waitFor(async () => (await line.isVisible()) && (await summarize.isVisible()), 'no boundary line with a Summarize button after a long conversation', 15_000);

    // The button: the turns above the line and the price of the selected model (the one the cost line shows).
    const label = squash((await summarize.textContent()) ?? '');
    const lineText = squash((await chat.frame.locator('.context-boundary-text').textContent()) ?? '');
    const costLine = squash((await chat.frame.locator('.composer .cost').textContent()) ?? '');
    const [, turns, price] = /^Summarize the (\d+) turns? above the line: (.+)$/.exec(label) ?? [];
    const omitted = Number(turns);
    assert.ok(omitted > 0 && omitted < TURNS, label);
    assert.equal(lineText, `Earlier messages are not sent to the model: ${omitted} turns`);
    assert.match(price, /^\d+ credits?$/, label);
    assert.equal(costLine, `Next message: ${price}`, 'the price is the selected model’s cost per use');

    // One request: the turns above the line, none below it; the card shows the summary.
    const before = chatRequests().length;
    const lastBefore = chatRequests().at(-1)!;
    await summarize.click();
    const card = chat.frame.getByRole('region', { name: `Summary of ${omitted} turns` });
    await card.waitFor({ state: 'visible', timeout: 60_000 });
    const [summaryRequest] = (await waitForChatRequests(before + 1)).slice(before);
    const prompt = (summaryRequest.messages ?? []).filter((m) => m.role === 'user').map((m) => m.content).join('\n');
    assert.equal((summaryRequest.messages ?? []).filter((m) => m.role === 'user').length, 1, 'one prompt');
    for (let i = 0; i < omitted; i++) assert.ok(prompt.includes(`Question e2e-sum-${i} len:2000`), `turn ${i} is summarized`);
    assert.ok(!prompt.includes(`Question e2e-sum-${omitted} `), 'a turn below the line is not');
    assert.equal(chatRequests().length, before + 1, 'one request');
    const meta = squash((await card.locator('.summary-meta').textContent()) ?? '');
    assert.ok(meta.startsWith(`swift-chat · ${price}`), `the card says what it cost: ${meta}`);
    const summaryText = squash((await card.locator('.summary-body').textContent()) ?? '');
    assert.ok(summaryText.length > 100, 'the card shows the summary');
    // The original turns stay in the conversation (older ones are rendered as they scroll into view).
    assert.equal((await chat.pageState())?.messages, 2 * TURNS);

    // The next request: the summary instead of the turns it replaced, and fewer messages.
    const final = 'Final question e2e-sum-final';
    const sentAt = chatRequests().length;
    await chat.send(final);
    const next = (await waitForChatRequests(sentAt + 1))[sentAt];
    await chat.waitForReplyShowing(/e2e-sum-final/);
    const systems = (next.messages ?? []).filter((m) => m.role === 'system').map((m) => m.content);
    const users = (next.messages ?? []).filter((m) => m.role === 'user').map((m) => m.content);
    assert.ok(systems.some((s) => s.startsWith(`Summary of the earlier part of this conversation (${omitted} turns)`)), JSON.stringify(systems.map((s) => s.slice(0, 80))));
    for (let i = 0; i < omitted; i++) assert.ok(!users.includes(`Question e2e-sum-${i} len:2000`), `replaced turn ${i} is not sent`);
    assert.equal(users.at(-1), final);
    assert.ok((next.messages ?? []).length < 2 * TURNS + 1, `fewer messages than the conversation holds: ${(next.messages ?? []).length}`);
    assert.ok((next.messages ?? []).length <= (lastBefore.messages ?? []).length + 2, 'no more than the request before the summary, give or take the summary and the new turn');

    // Reload: the card is kept with the conversation.
    await wb.reloadWindow();
    wb = e2e().wb;
    chat = await wb
      .chatFrame(20_000)
      .then(() => wb.settledChat())
      .catch(() => wb.openChat());
    await waitFor(
      async () => {
        if (chat.frame.isDetached()) chat = await wb.settledChat();
        return chat.frame.getByRole('region', { name: `Summary of ${omitted} turns` }).isVisible();
      },
      'the summary card is not back after the reload',
      60_000,
    );

    // Remove is the undo: the next request sends the turns that fit, and no summary.
    const kept = chat.frame.getByRole('region', { name: `Summary of ${omitted} turns` });
    await kept.getByRole('button', { name: /^Remove the summary/ }).click();
    await kept.waitFor({ state: 'hidden', timeout: 15_000 });
    const again = chatRequests().length;
    await chat.send('After removing e2e-sum-removed');
    const undone = (await waitForChatRequests(again + 1))[again];
    await chat.waitForReplyShowing(/e2e-sum-removed/);
    assert.equal((undone.messages ?? []).filter((m) => m.content.startsWith('Summary of the earlier part')).length, 0, 'no summary after Remove');

    // The command asks with the price first; Cancel spends nothing.
    const asked = chatRequests().length;
    await wb.runCommand('AI Chat: Summarize Earlier Turns');
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    const question = squash((await dialog.textContent()) ?? '');
    assert.match(question, new RegExp(`Summarize the \\d+ turns? above the line: ${price}`), question);
    assert.ok(await wb.answerDialog(/^Cancel$/));
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    assert.equal(chatRequests().length, asked, 'nothing was sent');
  });
});
