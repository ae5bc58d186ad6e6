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
});
