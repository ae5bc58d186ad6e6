// Journey 32: messages typed while a reply streams are queued as cards with their cost, one is
// removed, and the other goes once the reply has finished, in order.
import assert from 'node:assert/strict';
import { chatRequests, readyWithKey, resetServer, waitForChatRequests } from '../steps';
import { provesNothingHappensFor, waitFor } from '../workbench';

describe('Journey 32: Queued messages', () => {
  after(() => {
    resetServer();
  });

  it('queues two messages while a reply streams, removes one, and sends the other after the reply', async () => {
    // A slow reply leaves time to type while it streams.
    resetServer(40);
    const wb = await readyWithKey(1000);
    const chat = await wb.openChat();
    await chat.newChat();
    const before = chatRequests().length;

    await chat.send('A long first answer please e2e-queue-first len:3000');
    await chat.stopButton().waitFor({ state: 'visible', timeout: 30_000 });
    // Enter while a reply streams queues the message (Send is Stop meanwhile).
    for (const text of ['Second, to be removed e2e-queue-second', 'Third, sent after the reply e2e-queue-third']) {
      await chat.type(text);
      await chat.message().press('Enter');
      await waitFor(async () => (await chat.message().inputValue()) === '', 'the queued text stayed in the box');
    }
    const cards = chat.frame.locator('.queue-card');
    await waitFor(async () => (await cards.count()) === 2, 'two queued cards are not shown');
    assert.deepEqual(await cards.locator('textarea').evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).value)), [
      'Second, to be removed e2e-queue-second',
      'Third, sent after the reply e2e-queue-third',
    ]);
    assert.match(await cards.first().locator('.cost').innerText(), /1 credit/);
    assert.ok(await chat.stopButton().isVisible(), 'the first reply is still streaming while the cards are shown');
    await wb.screenshot('queued-messages');

    await cards.first().getByRole('button', { name: 'Remove queued message' }).click();
    await waitFor(async () => (await cards.count()) === 1, 'the removed card is still shown');

    // The first reply ends, then the remaining message goes by itself.
    const reqs = await waitForChatRequests(before + 2);
    const lastUser = (r: (typeof reqs)[number]) => r.messages?.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    assert.deepEqual(reqs.slice(before).map(lastUser), ['A long first answer please e2e-queue-first len:3000', 'Third, sent after the reply e2e-queue-third']);
    await waitFor(async () => (await cards.count()) === 0, 'the sent card is still shown');
    await waitFor(async () => (await chat.articles('Assistant').count()) === 2, 'two replies are not shown');
    await chat.waitForIdle();
    const transcript = (await chat.articles('You').allInnerTexts()).join('\n');
    assert.doesNotMatch(transcript, /e2e-queue-second/, 'the removed message was sent');
    // Nothing more went out.
    await provesNothingHappensFor(1_000, 'no third request goes out');
    assert.equal(chatRequests().length, before + 2);
  });
});
