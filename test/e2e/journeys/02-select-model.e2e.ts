// Journey 2: the user picks a model; the chat uses it.
import assert from 'node:assert/strict';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer, selectModel } from '../steps';
import { waitFor } from '../workbench';

describe('Journey 2: Select Model', () => {
  it("lists the server's models with their cost, refuses unusable ones, and the chosen model is the one the server receives", async () => {
    resetServer();
    const wb = await readyWithKey(1000);
    const { page } = e2e();

    await wb.clearNotifications();
    await wb.runCommand('AI Chat: Select Model');
    const labels = await waitFor(
      async () => {
        const l = await wb.quickPickLabels();
        return l.some((x) => x.includes('Deep Think')) ? l : undefined;
      },
      'the model quick pick never listed the models',
    );
    const row = (name: string) => labels.find((l) => l.includes(name)) ?? '';
    assert.match(row('Swift Chat'), /\b1 credit\b/, `Swift Chat row: ${row('Swift Chat')}`);
    assert.match(row('Deep Think'), /\b5 credits\b/, `Deep Think row: ${row('Deep Think')}`);
    assert.match(row('Code Pro'), /\b3 credits\b/, `Code Pro row: ${row('Code Pro')}`);
    await wb.screenshot('model-pick');

    // Unusable models (inactive, image, id the chat request refuses) cannot be chosen.
    for (const name of ['Legacy Chat', 'Pixel Art', 'Turbo V2']) {
      const target = wb.quickPickRows().filter({ hasText: name }).first();
      if ((await target.count()) === 0) continue; // not offered at all: fine too
      await target.click();
      assert.ok(await wb.quickInput().isVisible(), `choosing ${name} closed the pick as if it were selected`);
    }

    await wb.quickPickRows().filter({ hasText: 'Deep Think' }).first().click();
    await wb.quickInput().waitFor({ state: 'hidden', timeout: 10_000 });

    try {
      const chat = await wb.openChat();
      const before = chatRequests().length;
      const reply = await chat.ask('Which model answers this? e2e-model-check');
      assert.match(reply, /e2e-model-check/);
      const reqs = chatRequests();
      assert.equal(reqs.length, before + 1, 'exactly one chat request was sent');
      assert.equal(reqs[reqs.length - 1].model, 'deep-think', 'the server received the chosen model');
      const body = await chat.frame.locator('body').innerText();
      assert.match(body, /deep-think · 5 credits/, 'the reply names the model and its cost');
    } finally {
      // The journeys after this one chat with Swift Chat.
      await selectModel(wb, 'Swift Chat');
    }

    await page.mouse.move(0, 0);
  });

  it('from the balance in the status bar: the menu\'s Select Model opens the models in its place, and the model picked there is sent', async () => {
    const wb = await readyWithKey();
    try {
      await wb.statusItem().click();
      const menuRow = wb.quickPickRows().filter({ hasText: 'Select Model' }).first();
      await menuRow.waitFor({ timeout: 15_000 }).catch(async () => {
        throw new Error(`the balance menu has no Select Model; it lists: ${(await wb.quickPickLabels()).join(' | ')}`);
      });
      const watched = await wb.watchQuickInput();
      await menuRow.click();
      const codePro = wb.quickPickRows().filter({ hasText: 'Code Pro' }).first();
      await codePro.waitFor({ timeout: 15_000 });
      assert.deepEqual(await watched(), [], 'the quick input closed or lost the focus between the balance menu and the models');
      await codePro.click();
      await wb.quickInput().waitFor({ state: 'hidden', timeout: 10_000 });

      const chat = await wb.openChat();
      const before = chatRequests().length;
      await chat.ask('Which model answers this? e2e-menu-model');
      const reqs = chatRequests();
      assert.equal(reqs.length, before + 1, 'exactly one chat request was sent');
      assert.equal(reqs[reqs.length - 1].model, 'code-pro', 'the server received the model picked from the balance menu');
    } finally {
      await selectModel(wb, 'Swift Chat');
    }
  });
});
