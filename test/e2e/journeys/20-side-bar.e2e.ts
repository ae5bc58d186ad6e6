// Journey 20: the chat in the side bar: found from the activity bar, moved to the secondary
// side bar, and the same conversation moved into the editor and back (never in two places).
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { e2e } from '../setup';
import { readyWithKey, resetServer } from '../steps';
import { Chat, waitFor, type Workbench } from '../workbench';

/** The frame of the side bar view while it shows "The chat is open in the editor.". */
async function placeholderFrame(wb: Workbench): Promise<Frame> {
  return waitFor(
    async () => {
      for (const f of wb.page.frames()) {
        if (f.isDetached() || f === wb.page.mainFrame()) continue;
        if (await f.getByText('The chat is open in the editor.').count().catch(() => 0)) return f;
      }
      return undefined;
    },
    'the side bar view never said that the chat is open in the editor',
  );
}

describe('Journey 20: Chat in the side bar', () => {
  // Whatever happens, the next journeys find the view where a new user has it.
  after(async () => {
    const { wb } = e2e();
    await wb.closeQuickInput().catch(() => undefined);
    await wb.runCommand('View: Reset View Locations').catch(() => undefined);
  });

  it('opens from the activity bar, sends, moves to the secondary side bar, and moves into the editor and back', async () => {
    resetServer();
    const wb = await readyWithKey();
    const { page } = e2e();

    // A new user finds the chat by the activity bar's "AI Chat" icon, from another view (the icon
    // of the view already shown hides the side bar instead).
    await wb.runCommand('View: Show Explorer');
    await waitFor(async () => /explorer/i.test(await page.locator('.part.sidebar .title-label').first().innerText().catch(() => '')), 'the side bar does not show the Explorer', 30_000);
    await page.locator('.part.activitybar .action-item [aria-label^="AI Chat"], .part.activitybar .action-label[aria-label^="AI Chat"]').first().click();
    await page.locator('.part.sidebar .composite.title', { hasText: 'AI Chat' }).first().waitFor({ timeout: 30_000 });
    const chat = new Chat(wb, await wb.chatFrame());
    for (const name of ['New Chat', 'Show History', 'Open Chat in Editor']) {
      assert.ok((await page.locator(`.part.sidebar .composite.title [aria-label^="${name}"]`).count()) > 0, `view title action "${name}"`);
    }
    await page.locator('.part.sidebar .composite.title [aria-label^="New Chat"]').first().click();
    await waitFor(async () => (await chat.articles().count()) === 0, 'New Chat (view title) did not clear the chat');

    const reply = await chat.ask('Hello from the side bar e2e-sidebar-one');
    assert.match(reply, /e2e-sidebar-one/);
    await wb.screenshot('side-bar-chat-dark');

    // Move the view to the secondary side bar (View: Move View, as a user would).
    await chat.message().click();
    await wb.runCommand('View: Move View');
    const rows = await waitFor(async () => ((await wb.quickPickLabels()).length ? wb.quickPickLabels() : undefined), 'Move View offered nothing');
    if (!rows.some((r) => /Secondary Side Bar/i.test(r))) {
      // Asked which view first.
      await wb.answerInput('Chat');
    }
    const target = wb.quickPickRows().filter({ hasText: /Secondary Side Bar/i }).first();
    await target.waitFor({ timeout: 15_000 }).catch(async () => {
      throw new Error(`Move View has no secondary side bar entry: ${(await wb.quickPickLabels()).join(' | ')}`);
    });
    await target.click();
    await page.locator('.part.auxiliarybar').getByText('Chat', { exact: false }).first().waitFor({ timeout: 30_000 });
    const moved = new Chat(wb, await wb.chatFrame());
    await waitFor(async () => (await moved.transcript()).some((t) => t.includes('e2e-sidebar-one')), 'the conversation did not come along to the secondary side bar');
    await wb.screenshot('side-bar-secondary');

    // The same conversation in the editor: the view shows a placeholder, never a second chat.
    await wb.runCommand('AI Chat: Open Chat in Editor');
    await page.locator('.tab', { hasText: 'AI Chat' }).first().waitFor({ timeout: 30_000 });
    // The view turns into the placeholder first (its chat frame goes away), then the editor's chat.
    const holder = await placeholderFrame(wb);
    const inEditor = await wb.settledChat();
    await waitFor(async () => (await inEditor.transcript()).some((t) => t.includes('e2e-sidebar-one')), 'the editor does not show the same conversation');
    assert.equal(await holder.getByRole('textbox', { name: 'Message' }).count(), 0, 'no second chat in the view');
    const second = await inEditor.ask('Second question in the editor e2e-sidebar-two');
    assert.match(second, /e2e-sidebar-two/);

    // Back to the side bar with the placeholder's button: the editor tab closes, both messages are there.
    await holder.getByRole('button', { name: 'Move Chat to Side Bar' }).click();
    await page.locator('.tab', { hasText: 'AI Chat' }).first().waitFor({ state: 'detached', timeout: 30_000 });
    // The view's webview loads the conversation after its message box shows: wait for it.
    const back = new Chat(wb, await wb.chatFrame());
    let transcript = '';
    await waitFor(
      async () => {
        transcript = (await back.transcript()).join('\n');
        return /e2e-sidebar-one[\s\S]*e2e-sidebar-two/.test(transcript);
      },
      'the whole conversation did not come back to the view',
    ).catch((e: unknown) => {
      throw new Error(`${String(e)}; the view shows: ${transcript.slice(0, 400)}`);
    });

    // Keyboard: Focus Chat Input puts the cursor in the message box.
    await wb.focusWorkbench();
    await wb.runCommand('AI Chat: Focus Chat Input');
    await waitFor(() => back.frame.evaluate(() => document.activeElement?.getAttribute('aria-label') === 'Message'), 'the message box did not get focus');
  });
});
