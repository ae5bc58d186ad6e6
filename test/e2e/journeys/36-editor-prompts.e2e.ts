// Journey 36: the editor context submenu AI Chat > Explain puts an editable prompt with the
// selection into the message box (after what is already typed there) without sending it.
import assert from 'node:assert/strict';
import { chatRequests, readyWithKey, resetServer } from '../steps';
import { provesNothingHappensFor, waitFor, type Workbench } from '../workbench';

/** Opens the editor context menu on the selection, then the submenu `submenu`, then `item`. */
async function editorSubmenu(wb: Workbench, submenu: RegExp, item: RegExp): Promise<void> {
  const page = wb.page;
  const menus = page.locator('.context-view .monaco-menu');
  await page.keyboard.press('Shift+F10');
  await menus.first().waitFor({ timeout: 10_000 });
  const parent = menus.first().locator('.action-menu-item').filter({ hasText: submenu }).first();
  await parent.waitFor({ timeout: 10_000 }).catch(async () => {
    const all = await menus.first().locator('.action-label').allInnerTexts();
    throw new Error(`no ${String(submenu)} in the editor context menu; it has: ${all.filter(Boolean).join(' | ')}`);
  });
  await parent.hover();
  await page.keyboard.press('ArrowRight');
  const entry = page.locator('.context-view .monaco-submenu .action-menu-item').filter({ hasText: item }).first();
  await entry.waitFor({ timeout: 10_000 });
  await entry.hover();
  await page.keyboard.press('Enter');
  await menus.first().waitFor({ state: 'hidden', timeout: 5_000 });
}

describe('Journey 36: Explain, Fix and Write Tests from the editor', () => {
  let wb: Workbench | undefined;

  after(async () => {
    // Leave the message box empty, as the journey found it.
    if (wb) await (await wb.chat()).type('');
  });

  it('Explain puts the prompt and the fenced selection in the message box, unsent, after what was typed; sending it gets a reply', async () => {
    resetServer();
    wb = await readyWithKey();
    const chat = await wb.chat();
    await chat.newChat();
    await chat.type('my own words e2e-keep');

    await wb.openFile('inventory.ts');
    await wb.selectLines(9, 15); // function stockValue
    const before = chatRequests().length;
    await editorSubmenu(wb, /^\s*AI Chat\s*$/, /^\s*Explain\s*$/);

    let value = '';
    await waitFor(
      async () => {
        value = await chat.message().inputValue();
        return value.includes('Explain this code:');
      },
      () => `the message box never got the prompt; it holds: ${JSON.stringify(value.slice(0, 300))}`,
    );
    assert.ok(value.startsWith('my own words e2e-keep\n\nExplain this code:\n\n'), `what was typed stays first: ${value.slice(0, 200)}`);
    assert.match(value, /`[^`\n]*inventory\.ts`, lines 9-15:\n\n```typescript\nexport function stockValue/, 'file, lines and a fenced block');
    assert.match(value, /total \+= item\.quantity \* item\.unitPrice/);
    assert.ok(value.trimEnd().endsWith('```'), 'the fence is closed');
    assert.equal(await chat.message().evaluate((el) => el === el.ownerDocument.activeElement), true, 'the message box has the focus');
    // Nothing was sent: no new request reached the server and no message of mine is shown.
    await provesNothingHappensFor(1_000, 'nothing is sent');
    assert.equal(chatRequests().length, before, 'no chat request was sent');
    assert.equal(await chat.articles('You').count(), 0, 'no message was added to the conversation');
    await wb.screenshot('editor-prompt-explain');

    // The user sends it as it is: the server receives the prompt and the code, a reply arrives.
    await chat.sendButton().click();
    await waitFor(async () => (await chat.articles('Assistant').count()) > 0, 'no reply appeared after Send', 60_000);
    const reply = await chat.waitForIdle();
    assert.ok(reply.trim().length > 0, 'the reply arrived');
    const sent = chatRequests().pop();
    const last = sent?.messages?.[sent.messages.length - 1]?.content ?? '';
    assert.match(last, /^my own words e2e-keep\n\nExplain this code:/);
    assert.match(last, /export function stockValue/);
  });

  it('Fix says the selection has no problems, and Write Tests follows it after a blank line', async () => {
    wb ??= await readyWithKey();
    const chat = await wb.chat();
    await chat.type('');
    await wb.openFile('inventory.ts');
    await wb.selectLines(9, 15);
    const before = chatRequests().length;
    await editorSubmenu(wb, /^\s*AI Chat\s*$/, /^\s*Fix\s*$/);
    await waitFor(async () => (await chat.message().inputValue()).startsWith('Fix this code'), 'Fix did not fill the message box');
    await wb.openFile('inventory.ts');
    await wb.selectLines(9, 15);
    await editorSubmenu(wb, /^\s*AI Chat\s*$/, /^\s*Write Tests\s*$/);
    let value = '';
    await waitFor(
      async () => {
        value = await chat.message().inputValue();
        return value.includes('Write tests for this code');
      },
      () => `Write Tests did not add its prompt; the box holds: ${JSON.stringify(value.slice(0, 300))}`,
    );
    // The demo file has no problems: the Fix prompt says so; the two prompts are kept in order.
    assert.ok(value.startsWith('Fix this code (VS Code reports no problems in it):\n\n'), value.slice(0, 200));
    assert.match(value, /```\n\nWrite tests for this code[^\n]*:\n\n`[^`\n]*inventory\.ts`, lines 9-15:/);
    assert.equal(chatRequests().length, before, 'nothing was sent');
  });
});
