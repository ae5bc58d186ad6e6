// Journey 55: Edit of an earlier question as a branch: its text comes into the box under "Editing
// question 1", the request of the edit holds only the turns above it, the question shows "2 / 2"
// (heard as "Question 2 of 2"), the old branch comes back whole from the pager (keyboard), both
// survive a reload, and the next message's request holds the branch shown.
import assert from 'node:assert/strict';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer, waitForChatRequests } from '../steps';
import { waitFor } from '../workbench';

type Sent = { messages?: Array<{ role: string; content: string }> };
const history = (r: unknown) => ((r as Sent | undefined)?.messages ?? []).filter((m) => m.role !== 'system');

describe('Journey 55: Edit an earlier question as a branch', () => {
  it('edits the first of two questions, keeps the old branch behind the pager across a reload, and goes on from the branch shown', async () => {
    resetServer();
    let wb = await readyWithKey();
    let chat = await wb.chat();
    await chat.newChat();
    await chat.ask('The first question e2e-branch-one');
    await chat.ask('The second question e2e-branch-two');

    // Edit on the first question: its text in the box, the bar says which question is edited.
    const first = chat.articles().nth(0);
    await first.hover();
    await first.getByRole('button', { name: 'Edit', exact: true }).click();
    await waitFor(async () => (await chat.message().inputValue()) === 'The first question e2e-branch-one', 'the question did not come into the box', 15_000);
    await chat.frame.getByText('Editing question 1', { exact: false }).waitFor({ timeout: 15_000 });
    const sent = chatRequests().length;
    await chat.send('The first question, better e2e-branch-three');
    const edit = (await waitForChatRequests(sent + 1)).at(-1);
    assert.deepEqual(history(edit).map((m) => m.content.split('\n')[0]), ['The first question, better e2e-branch-three'], 'the request holds the edit alone');
    const pager = (n: number) => chat.frame.getByRole('group', { name: `Question ${n} of 2` });
    await pager(2).waitFor({ timeout: 30_000 });
    await chat.waitForIdle();
    await waitFor(async () => (await chat.articles().count()) === 2, 'the branch shows the edit and its reply only', 15_000);

    // The old branch, whole, from the keyboard.
    await pager(2).getByRole('button', { name: 'Previous branch' }).press('Enter');
    await pager(1).waitFor({ timeout: 15_000 });
    await waitFor(async () => (await chat.articles().count()) === 4, 'the old branch did not come back whole', 15_000);
    assert.ok(await chat.frame.locator(':focus').evaluate((el) => !!el.closest('[role="group"]')), 'the keyboard stays on the pager');

    // Both branches survive a reload, with the one shown.
    await wb.reloadWindow();
    wb = e2e().wb;
    chat = await wb
      .chatFrame(20_000)
      .then(() => wb.settledChat())
      .catch(() => wb.openChat());
    await waitFor(async () => (await pager(1).count()) > 0, 'the question with its two branches did not come back after the reload', 30_000);

    // The next message goes on from the branch shown (the old one: both of its turns, not the edit).
    const before = chatRequests().length;
    await chat.ask('And a follow-up e2e-branch-four');
    const next = history((await waitForChatRequests(before + 1)).at(-1)).map((m) => m.content.split('\n')[0]);
    assert.deepEqual(next.filter((_, i) => i % 2 === 0), ['The first question e2e-branch-one', 'The second question e2e-branch-two', 'And a follow-up e2e-branch-four']);
    assert.ok(!next.some((t) => t.includes('e2e-branch-three')), 'the edit is not in the request');
  });
});
