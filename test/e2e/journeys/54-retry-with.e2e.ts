// Journey 54: Retry with… another model: the reply shows "2 / 2" beside the first, the request
// carried the model picked, both replies survive a reload, Compare opens them as a diff, and the
// next message's request holds the variant shown.
import assert from 'node:assert/strict';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer, waitForChatRequests } from '../steps';
import { waitFor } from '../workbench';

describe('Journey 54: Retry with another model', () => {
  it('retries a reply with Deep Think (2 / 2), keeps both across a reload, and goes on from the variant shown', async () => {
    resetServer();
    let wb = await readyWithKey();
    let chat = await wb.chat();
    await chat.newChat();
    await chat.ask('A question for two models e2e-variant-one');

    // Retry with…: the quick pick of the models with their price; Deep Think picked.
    const sent = chatRequests().length;
    const reply = chat.lastReply();
    const firstId = await reply.getAttribute('data-id');
    await reply.hover();
    await reply.getByRole('button', { name: 'Retry with…' }).click();
    const row = wb.quickPickRows().filter({ hasText: 'Deep Think' }).first();
    await row.waitFor({ timeout: 15_000 });
    assert.match((await wb.quickPickLabels()).join(' | '), /Swift Chat.*Deep Think/, 'the reply\'s own model first');
    await row.click();
    const requests = await waitForChatRequests(sent + 1);
    assert.equal(requests.at(-1)?.model, 'deep-think', 'the request carried the model picked');
    const pager = () => chat.frame.getByRole('group', { name: 'Reply 2 of 2, deep-think' });
    await pager().waitFor({ timeout: 30_000 });
    await chat.waitForIdle();
    assert.equal(await chat.articles().count(), 2, 'the variant is beside the reply, not a new turn');

    // Both replies survive a reload, with the one shown.
    await wb.reloadWindow();
    wb = e2e().wb;
    chat = await wb
      .chatFrame(20_000)
      .then(() => wb.settledChat())
      .catch(() => wb.openChat());
    await waitFor(async () => (await pager().count()) > 0, 'the reply with its two variants did not come back after the reload', 30_000);
    // The pager from the keyboard: back to the first reply, then forward to Deep Think's again.
    await chat.frame.getByRole('button', { name: 'Previous reply' }).press('Enter');
    await chat.frame.getByRole('group', { name: 'Reply 1 of 2, swift-chat' }).waitFor({ timeout: 15_000 });
    await chat.frame.locator(':focus').press('Enter');
    await pager().waitFor({ timeout: 15_000 });
    // Compare: the two variants side by side in the diff editor, each named with its model.
    await pager().getByRole('button', { name: 'Compare with another variant' }).click();
    const diffTab = wb.page.locator('.tab').filter({ hasText: /swift-chat.*↔.*deep-think/ }).first();
    await diffTab.waitFor({ timeout: 15_000 });
    chat = await wb.chat();

    // The next message goes on from the variant shown (its id in the request, not the first reply's).
    const shownId = await chat.articles().nth(1).getAttribute('data-id');
    assert.ok(shownId && shownId !== firstId, `${shownId} / ${firstId}`);
    const before = chatRequests().length;
    await chat.ask('And a follow-up e2e-variant-two');
    const next = (await waitForChatRequests(before + 1)).at(-1) as { messages?: Array<{ id?: string; role: string }> } | undefined;
    const history = (next?.messages ?? []).filter((m) => m.role !== 'system');
    assert.deepEqual(history.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.equal(history[1].id, shownId, 'the request holds the variant shown');
  });
});
