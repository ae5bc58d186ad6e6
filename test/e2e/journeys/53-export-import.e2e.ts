// Journey 53: a conversation taken out and brought back as a user would. Export Chat writes the
// conversation file where the save dialog is told; the conversation deleted from History, Import
// Conversation… reads the file back into History and the chat; the same file again is found in
// History (Open It), not imported twice.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { e2e } from '../setup';
import { readyWithKey, resetServer } from '../steps';
import { waitFor, type Workbench } from '../workbench';

const QUESTION = 'Question e2e-export-alpha';

/**
 * A file dialog (VS Code's own, in the browser): once its box shows where it starts (`ready`), the
 * path typed into it and Enter (again if the dialog was still filling it in), until it closes.
 */
async function answerFileDialog(wb: Workbench, file: string, ready: (value: string) => boolean): Promise<void> {
  const box = wb.quickInputBox();
  await waitFor(async () => (await box.isVisible()) && ready(await box.inputValue()), 'the file dialog did not open', 20_000);
  // Typed and Enter until the dialog takes it: on a loaded machine the dialog can still be filling
  // in its folder when the path is typed, and then it lists the folder again instead of closing.
  await waitFor(async () => {
    if ((await box.inputValue()) !== file) await box.fill(file);
    if ((await box.inputValue()) !== file) return false;
    await box.press('Enter');
    return wb.quickInput().waitFor({ state: 'hidden', timeout: 5_000 }).then(
      () => true,
      () => false,
    );
  }, 'the file dialog did not take the path typed into it', 30_000);
}

/**
 * History's rows holding `text` (History opened on a search for it). History is opened again when
 * its list closed before the search was typed (the window, settling after the import or the
 * export on a loaded machine, can take the focus from it).
 */
async function historyRows(wb: Workbench, text: string) {
  const box = wb.page.locator('.quick-input-widget input[placeholder^="Search every message"]');
  await waitFor(async () => {
    await wb.runCommand('AI Chat: Show History');
    return box
      .waitFor({ state: 'visible', timeout: 15_000 })
      .then(() => box.fill(text, { timeout: 5_000 }))
      .then(async () => (await box.inputValue()) === text)
      .then(
        (typed) => typed,
        async () => {
          await wb.closeQuickInput().catch(() => undefined);
          return false;
        },
      );
  }, 'History did not take the search', 60_000);
  return wb.quickPickRows().filter({ hasText: /messages/ }).filter({ hasText: 'e2e-export-alpha' });
}

describe('Journey 53: a conversation exported to a file and imported back', () => {
  const files: string[] = [];
  after(async () => {
    const { wb } = e2e();
    await wb.closeQuickInput().catch(() => undefined);
    for (const f of files) rmSync(f, { force: true });
  });

  it('Export Chat writes the file; deleted from History, Import Conversation… brings it back into the chat; the same file again offers the first', async () => {
    resetServer();
    const { demo } = e2e();
    const file = path.join(demo.profile.workspace, 'e2e-export-alpha.aichat.json');
    // (Where the save dialog starts: the workspace folder and the conversation's title.)
    files.push(file, path.join(demo.profile.workspace, `${QUESTION}.aichat.json`));
    for (const f of files) rmSync(f, { force: true });
    const wb = await readyWithKey();
    const chat = await wb.chat();
    await chat.newChat();
    await chat.ask(QUESTION);

    // Export Chat → Conversation file (one turn: no range asked), saved where the user says.
    await wb.runCommandAndPick('AI Chat: Export Chat', 'Conversation file');
    await answerFileDialog(wb, file, (v) => v.endsWith('.aichat.json'));
    await waitFor(async () => existsSync(file), 'the conversation file was not written', 20_000);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { format: string; version: number; conversation: { messages: Array<{ role: string; content: string }> } };
    assert.equal(saved.format, 'ai-chat-conversation');
    assert.equal(saved.version, 1);
    assert.deepEqual(saved.conversation.messages.map((m) => m.role), ['user', 'assistant']);
    assert.equal(saved.conversation.messages[0].content, QUESTION);
    await wb.waitForNotification(/Exported “.*” \(2 messages\)/);
    await wb.clearNotifications();

    // Deleted from History (and from the chat, which starts a new conversation).
    const listed = await historyRows(wb, 'e2e-export-alpha');
    await listed.first().waitFor({ state: 'visible', timeout: 15_000 });
    await listed.first().hover();
    await listed.first().locator('.action-label[aria-label="Delete"], a[aria-label="Delete"]').first().click();
    await wb.waitForNotification(/Deleted “/);
    await wb.closeQuickInput();
    await wb.clearNotifications();
    await waitFor(async () => !(await chat.transcript()).some((t) => t.includes(QUESTION)), 'the deleted conversation is still in the chat', 15_000);

    // Import Conversation… reads it back: listed in History, opened in the chat.
    await wb.runCommand('AI Chat: Import Conversation…');
    await answerFileDialog(wb, file, (v) => v.endsWith('/'));
    await waitFor(async () => (await chat.transcript()).some((t) => t.includes(QUESTION)), 'the imported conversation is not in the chat', 30_000);
    assert.equal((await chat.transcript()).length, 2);
    const back = await historyRows(wb, 'e2e-export-alpha');
    await back.first().waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await back.count(), 1, 'History lists it once');
    await wb.closeQuickInput();

    // The same file again: found in History, nothing imported twice.
    await wb.runCommand('AI Chat: Import Conversation…');
    await answerFileDialog(wb, file, (v) => v.endsWith('/'));
    await waitFor(async () => wb.answerDialog(/Open It/), 'no "already in History" dialog', 20_000);
    const again = await historyRows(wb, 'e2e-export-alpha');
    await again.first().waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await again.count(), 1, 'still listed once');
    await wb.closeQuickInput();
  });
});
