// Journey 5: send selected code from the editor's context menu.
import assert from 'node:assert/strict';
import { chatRequests, readyWithKey, resetServer } from '../steps';
import { waitFor } from '../workbench';

describe('Journey 5: Send Selection', () => {
  it('shows the code block with file name and lines in the panel, and the reply arrives', async () => {
    resetServer();
    const wb = await readyWithKey();

    await wb.openFile('inventory.ts');
    await wb.selectLines(9, 15); // function stockValue
    await wb.editorContextMenu(/Send Selection/);
    // The optional question about the code.
    await wb.answerInput('What does this function do? e2e-selection-check');

    const chat = await wb.chat();
    let seen: string[] = [];
    const mine = await waitFor(
      async () => {
        seen = await chat.articles('You').allTextContents();
        return seen.find((t) => t.includes('e2e-selection-check'));
      },
      () => `the selection never showed up as my message; my messages: ${JSON.stringify(seen.map((t) => t.slice(0, 200)))}`,
    );
    assert.match(mine, /inventory\.ts/, `file name shown: ${mine}`);
    assert.match(mine, /\b9\b[^\n]*\b15\b/, `line range shown: ${mine}`);
    assert.match(mine, /export function stockValue/, 'the selected code is shown');
    const block = chat.articles('You').last().locator('pre').first();
    assert.match((await block.textContent()) ?? '', /total \+= item\.quantity \* item\.unitPrice/, 'the selection is shown as a code block');

    const reply = await chat.waitForIdle();
    assert.ok(reply.trim().length > 100, 'the reply arrived');
    const sent = chatRequests().pop();
    const last = sent?.messages?.[sent.messages.length - 1]?.content ?? '';
    assert.match(last, /export function stockValue/, 'the server received the selected code');
    assert.match(last, /inventory\.ts/);
    await wb.screenshot('send-selection');
  });

  it('from a window whose side bar shows the Explorer, the chat opens in the side bar with the selection and the editor keeps the focus', async () => {
    resetServer();
    const wb = await readyWithKey();
    // The side bar on another view across a reload: the chat's view is not shown, so not resolved.
    await wb.runCommand('AI Chat: Move Chat to Side Bar');
    const chatTabs = wb.page.locator('.tabs-container .tab').filter({ hasText: 'AI Chat' });
    await waitFor(async () => (await chatTabs.count()) === 0, 'the chat stayed in its editor tab', 15_000);
    await wb.runCommand('View: Show Explorer');
    const explorerShown = () =>
      waitFor(async () => /explorer/i.test(await wb.page.locator('.part.sidebar .title-label').first().innerText().catch(() => '')), 'the side bar does not show the Explorer', 30_000);
    await explorerShown();
    await wb.reloadWindow();
    await explorerShown();
    const chatShown = await wb.chatFrame(3_000).then(() => true, () => false);
    assert.equal(chatShown, false, 'no chat is shown before the selection is sent');
    await wb.openFile('inventory.ts');
    await wb.selectLines(9, 15);
    await wb.editorContextMenu(/Send Selection/);
    await wb.answerInput('And its cost? e2e-selection-unresolved');
    // Found where it opened, not brought forward with Open Chat (which would take the focus).
    const chat = await wb.settledChat();
    await waitFor(async () => (await chat.articles('You').allTextContents()).some((t) => t.includes('e2e-selection-unresolved')), 'the selection never showed up in the chat');
    assert.equal(await chatTabs.count(), 0, 'the chat opened in its side bar view, not in an editor tab');
    // The chat opened beside the editor without taking the keyboard: typing goes on in the editor.
    const inEditor = () => wb.page.evaluate(() => !!document.activeElement?.closest('.editor-group-container .monaco-editor'));
    assert.ok(await inEditor(), `the focus left the editor for ${await wb.page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120))}`);
    await chat.waitForIdle();
    assert.ok(await inEditor(), 'the focus stays in the editor while the reply streams');
    // The chat where the first test left it (in the editor) for the journeys after this one.
    await wb.chat();
  });
});
