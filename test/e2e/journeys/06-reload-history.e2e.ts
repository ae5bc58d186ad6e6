// Journey 6: the conversation survives a window reload; older ones reopen from History.
import assert from 'node:assert/strict';
import { e2e } from '../setup';
import { readyWithKey, resetServer } from '../steps';
import { waitFor, type Chat } from '../workbench';

async function openHistoryItem(chat: Chat, text: string): Promise<void> {
  const { wb } = e2e();
  await chat.button('History').click();
  // The list may be a quick pick of the workbench or a list inside the panel.
  await waitFor(
    async () => {
      const row = wb.quickPickRows().filter({ hasText: text }).first();
      if (await row.isVisible().catch(() => false)) {
        await row.click();
        return true;
      }
      for (const role of ['option', 'button', 'listitem', 'link', 'menuitem'] as const) {
        const item = chat.frame.getByRole(role).filter({ hasText: text }).first();
        if (await item.isVisible().catch(() => false)) {
          await item.click();
          return true;
        }
      }
      return false;
    },
    `History did not offer the conversation "${text}"`,
    15_000,
  );
}

describe('Journey 6: Reload and History', () => {
  it('restores the conversation after a reload and reopens an older one', async () => {
    resetServer();
    let wb = await readyWithKey();
    let chat = await wb.chat();

    await chat.button('New Chat').click();
    await chat.ask('First conversation about stock levels e2e-history-alpha');
    await chat.button('New Chat').click();
    await waitFor(async () => (await chat.articles().count()) === 0, 'New Chat did not clear the panel');
    await chat.ask('Second conversation about slugs e2e-history-beta');

    await wb.reload();
    wb = e2e().wb;
    chat = await wb.chat();
    const restored = await waitFor(
      async () => {
        const t = await chat.transcript();
        return t.some((x) => x.includes('e2e-history-beta')) ? t : undefined;
      },
      'the conversation was not restored after the reload',
    );
    assert.ok(restored.length >= 2, 'both my message and the reply are restored');
    assert.ok(!restored.some((x) => x.includes('e2e-history-alpha')), 'the restored panel shows the latest conversation');

    await openHistoryItem(chat, 'e2e-history-alpha');
    chat = await wb.chat();
    const older = await waitFor(
      async () => {
        const t = await chat.transcript();
        return t.some((x) => x.includes('e2e-history-alpha')) ? t : undefined;
      },
      'the older conversation did not reopen',
    );
    assert.ok(!older.some((x) => x.includes('e2e-history-beta')), 'only the older conversation is shown');
    await wb.closeQuickInput();
  });
});
