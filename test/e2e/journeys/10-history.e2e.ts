// Journey 10: History finds a conversation by a word inside a reply; rename and delete (with
// undo) from its buttons; conversations saved by 0.1.0 open after the upgrade.
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { e2e } from '../setup';
import { readyWithKey, resetServer } from '../steps';
import { waitFor, type Workbench } from '../workbench';

async function showHistory(wb: Workbench, query = ''): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    await wb.runCommand('AI Chat: Show History');
    // History, not the palette that is still closing.
    const history = wb.page.locator('.quick-input-widget input[placeholder^="Search every message"]');
    const typed = await history
      .waitFor({ state: 'visible', timeout: 15_000 })
      .then(() => (query ? history.fill(query, { timeout: attempt < 2 ? 10_000 : 30_000 }) : undefined))
      .then(() => true, (err: unknown) => {
        if (attempt >= 2) throw err;
        return false;
      });
    if (typed) return;
    // History closed by a focus change before it was typed into: open it again.
    await wb.closeQuickInput();
    await wb.focusWorkbench();
  }
}

async function row(wb: Workbench, text: string, timeoutMs = 15_000): Promise<Locator> {
  const r = wb.quickPickRows().filter({ hasText: text }).first();
  await r.waitFor({ state: 'visible', timeout: timeoutMs }).catch(async () => {
    throw new Error(`History shows no "${text}"; it lists: ${(await wb.quickPickLabels()).join(' | ')}`);
  });
  return r;
}

async function clickRowButton(r: Locator, name: string): Promise<void> {
  await r.hover();
  await r.locator(`.action-label[aria-label="${name}"], a[aria-label="${name}"]`).first().click();
}

describe('Journey 10: History search, rename, delete and 0.1.0 conversations', () => {
  it('finds a conversation by a word of a reply, renames it, deletes it and brings it back', async () => {
    resetServer();
    const wb = await readyWithKey();
    const chat = await wb.chat();
    await chat.newChat();
    const question = 'Journey nine question e2e-hist-gamma';
    const reply = await chat.ask(question);
    // A word of the reply that the question does not contain.
    const asked = new Set(question.toLowerCase().split(/\W+/));
    const word = reply
      .split(/\s+/)
      .map((w) => w.replace(/[.,:;!?]+$/, ''))
      .find((w) => /^[a-z]{7,}$/.test(w) && !asked.has(w));
    assert.ok(word, `no long word in the reply: ${reply.slice(0, 200)}`);

    await showHistory(wb, word);
    // The search result, not the plain listing shown before the search ran.
    const found = wb.quickPickRows().filter({ hasText: 'e2e-hist-gamma' }).filter({ hasText: /matching message/ }).first();
    await found.waitFor({ state: 'visible', timeout: 15_000 }).catch(async () => {
      throw new Error(`History found no "${word}" in the reply; it lists: ${(await wb.quickPickLabels()).join(' | ')}`);
    });

    // From History to the rename box and back the quick input stays open and the focus goes
    // nowhere else (a closed one gives the focus back to the chat, which can take it again).
    const watched = await wb.watchQuickInput();
    await clickRowButton(found, 'Rename');
    // The rename box replaces History: typing before it shows would go into History's filter.
    await wb.quickInput().filter({ hasText: 'Rename conversation' }).first().waitFor({ timeout: 15_000 });
    await wb.answerInput('Renamed e2e-hist-delta');
    await row(wb, 'Renamed e2e-hist-delta');
    assert.deepEqual(await watched(), [], 'the quick input closed or lost the focus between History and the rename box');
    await wb.closeQuickInput();

    await showHistory(wb, 'e2e-hist-delta');
    await clickRowButton(await row(wb, 'Renamed e2e-hist-delta'), 'Delete');
    const toast = await wb.waitForNotification(/Deleted “Renamed e2e-hist-delta”/);
    assert.match(toast, /Undo/);
    await waitFor(async () => (await wb.quickPickRows().filter({ hasText: 'Renamed e2e-hist-delta' }).count()) === 0, 'the deleted conversation is still listed');
    await wb.closeQuickInput();
    await wb.notifications().filter({ hasText: 'Deleted' }).getByRole('button', { name: 'Undo' }).first().click();
    // Undo reopens the conversation in the chat (it was the current one), which takes the focus:
    // wait until it is done, or the chat closes the History opened meanwhile.
    await wb.page.locator('.part.statusbar').getByText(/Restored “Renamed e2e-hist-delta”/).first().waitFor({ timeout: 15_000 });
    await showHistory(wb, word);
    await row(wb, 'Renamed e2e-hist-delta');
    await wb.closeQuickInput();
  });

  it('opens a conversation saved by 0.1.0, found by a word of its reply', async () => {
    const { wb } = e2e();
    const chat = await wb.chat();
    await showHistory(wb, 'countdown');
    await (await row(wb, 'How do I debounce a function in TypeScript?')).click();
    await wb.quickInput().waitFor({ state: 'hidden', timeout: 10_000 });
    let seen: string[] = [];
    await waitFor(
      async () => {
        seen = await chat.transcript();
        return seen.some((t) => t.includes('restarts the countdown')) && seen.some((t) => t.includes('keep the time of the last run'));
      },
      () => `the 0.1.0 conversation did not open; the panel shows: ${JSON.stringify(seen.map((t) => t.slice(0, 70)))}`,
    );
  });
});
