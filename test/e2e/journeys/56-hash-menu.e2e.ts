// Journey 56: `#` and a symbol's name in the message box: the menu lists the symbol (found by the
// TypeScript service), Enter attaches its lines as a chip named by it and takes the `#word` out of
// the box; the request carries the symbol's code once after the text; "Sent with this message"
// names the symbol, and a click on it opens the file with the symbol's lines selected.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer, waitForChatRequests } from '../steps';
import { waitFor } from '../workbench';

const SOURCE = [
  '// The ledger of the demo shop.',
  '',
  'export function ledgerBalanceOf(entries: number[]): number {',
  '  let sum = 0;',
  '  for (const e of entries) sum += e;',
  '  return sum;',
  '}',
  '',
  'export const ledgerName = "demo";',
  '',
].join('\n');

describe('Journey 56: # in the message box', () => {
  let file = '';

  after(async () => {
    const { wb } = e2e();
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    if (file) rmSync(file, { force: true });
  });

  it('#ledgerBal + Enter attaches the symbol; the request carries its code once; the record under the question opens it at its lines', async () => {
    resetServer();
    const { demo } = e2e();
    file = path.join(demo.profile.workspace, 'src', 'ledger.ts');
    writeFileSync(file, SOURCE);
    const wb = await readyWithKey();
    // The file open: the TypeScript service has it in a project, so its symbols are searchable.
    await wb.openFile('ledger.ts');
    const chat = await wb.chat();
    await chat.newChat();
    const box = chat.message();
    await box.click();
    await box.pressSequentially('Where is this used? #ledgerBa');

    // The symbols come from the TypeScript service once it has started: a letter typed again asks again.
    const symbol = chat.frame.locator('#hash-menu [role="option"]', { hasText: 'ledgerBalanceOf' }).filter({ hasText: 'symbol' });
    await waitFor(
      async () => {
        if ((await symbol.count()) > 0) return true;
        await box.press('Backspace');
        await box.pressSequentially('a');
        return (await symbol.first().waitFor({ timeout: 3_000 }).then(() => true).catch(() => false)) || undefined;
      },
      'the # menu never listed the symbol ledgerBalanceOf',
      90_000,
    );
    const active = () => chat.frame.evaluate(() => document.getElementById(document.querySelector('textarea#message')?.getAttribute('aria-activedescendant') ?? '')?.textContent ?? '');
    for (let i = 0; i < 10 && !/ledgerBalanceOf.*symbol/.test(await active()); i++) await box.press('ArrowDown');
    assert.match(await active(), /ledgerBalanceOf.*symbol/, 'the symbol is the current option');
    await box.press('Enter');

    const chips = chat.frame.locator('.context-chip');
    await waitFor(async () => (await chips.count()) === 1, 'no chip for the symbol');
    assert.match((await chips.first().textContent()) ?? '', /ledgerBalanceOf.*ledger\.ts:3-7/);
    assert.equal(await box.inputValue(), 'Where is this used? ', 'the #word left the box');

    const before = chatRequests().length;
    const replies = await chat.articles('Assistant').count();
    await box.pressSequentially('e2e-hash-symbol');
    await box.press('Enter');
    const requests = await waitForChatRequests(before + 1);
    await chat.waitForNewReply(replies);
    const sent = requests.at(-1)?.messages?.at(-1)?.content ?? '';
    // The TypeScript service may name a function with its parentheses.
    assert.match(sent, /^Where is this used\? e2e-hash-symbol\n\n`src\/ledger\.ts`, lines 3-7 \(ledgerBalanceOf(\(\))?\):\n\n```typescript\nexport function ledgerBalanceOf/, sent.slice(0, 300));
    assert.equal(sent.split('export function ledgerBalanceOf').length - 1, 1, 'the symbol\'s code goes once');
    assert.ok(!sent.includes('ledgerName'), 'only the symbol\'s lines, not the file');

    // "Sent with this message" under the question names the symbol; its item opens the file at its lines.
    const question = chat.articles('You').last();
    await question.locator('.sent-with summary').click();
    const item = question.getByRole('button', { name: 'ledgerBalanceOf' });
    await item.waitFor({ timeout: 10_000 });
    // Nothing is selected in ledger.ts before the click (the chat may itself be an editor tab: it stays open).
    // (The status bar shows the cursor only while a text editor is active.)
    const status = wb.page.locator('[id="status.editor.selection"]');
    const cursor = async () => ((await status.count()) ? ((await status.textContent({ timeout: 2_000 }).catch(() => '')) ?? '') : '');
    assert.ok(!/selected/.test(await cursor()), 'no selection before the click');
    await item.click();
    await waitFor(
      async () => /Ln (3|7), Col \d+ \(\d+ selected\)/.test(await cursor()) && (await wb.page.locator('.tab.active', { hasText: 'ledger.ts' }).count()) > 0,
      'the item did not open ledger.ts with the symbol\'s lines selected',
      20_000,
    );
  });
});
