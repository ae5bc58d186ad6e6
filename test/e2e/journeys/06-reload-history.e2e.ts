// Journey 6: the conversation survives a window reload; older ones reopen from History.
import assert from 'node:assert/strict';
import { e2e } from '../setup';
import { readyWithKey, resetServer } from '../steps';
import { Chat, waitFor } from '../workbench';

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

    await chat.newChat();
    await chat.ask('First conversation about stock levels e2e-history-alpha');
    await chat.newChat();
    await chat.ask('Second conversation about slugs e2e-history-beta');

    // Developer: Reload Window: the workbench saves the window's state (open editors, webview
    // state) before it reloads, which a page reload leaves to the background.
    await wb.reloadWindow();
    wb = e2e().wb;
    // The panel comes back by itself (a webview serializer); else the user opens it. The side bar
    // view may show the chat for a moment before it learns that the restored tab holds it.
    chat = await wb
      .chatFrame(20_000)
      .then(() => wb.settledChat())
      .catch(() => wb.openChat());
    let seen: string[] = [];
    const restored = await waitFor(
      async () => {
        if (chat.frame.isDetached()) chat = await wb.settledChat();
        seen = await chat.transcript();
        return seen.some((x) => x.includes('e2e-history-beta')) ? seen : undefined;
      },
      () => `the conversation was not restored after the reload; the panel shows: ${JSON.stringify(seen.map((t) => t.slice(0, 70)))}`,
    );
    assert.ok(restored.length >= 2, 'both my message and the reply are restored');
    assert.ok(!restored.some((x) => x.includes('e2e-history-alpha')), 'the restored panel shows the latest conversation');

    await openHistoryItem(chat, 'e2e-history-alpha');
    await wb.quickInput().waitFor({ state: 'hidden', timeout: 10_000 });
    const older = await waitFor(
      async () => {
        seen = await chat.transcript();
        return seen.some((x) => x.includes('e2e-history-alpha')) ? seen : undefined;
      },
      () => `the older conversation did not reopen; the panel shows: ${JSON.stringify(seen.map((t) => t.slice(0, 70)))}`,
    );
    assert.ok(!older.some((x) => x.includes('e2e-history-beta')), 'only the older conversation is shown');
    await wb.closeQuickInput();
  });
});
