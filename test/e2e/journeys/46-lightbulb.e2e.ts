// Journey 46: the lightbulb. A TypeScript file with a type error: Ctrl+. on the error lists
// "Fix with AI Chat" beside the language's own actions; on a line where TypeScript only notes an
// unused parameter, "Explain with AI Chat" puts an editable prompt with that note's message and
// the code around it in the chat's box, and sending it sends the note's message.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer } from '../steps';
import { waitFor, type Workbench } from '../workbench';

const SOURCE = [
  '// e2e-lightbulb-target',
  'export function twice(value: number, unusedFlag: boolean): number {',
  '  return value * 2;',
  '}',
  '',
  "export const count: number = 'three';",
  '',
].join('\n');

/** Ctrl+. at the cursor: the titles the action list shows (once it lists `expected`). */
async function lightbulbMenu(wb: Workbench, expected: RegExp): Promise<string[]> {
  const page = wb.page;
  const rows = page.locator('.action-widget .monaco-list-row');
  let titles: string[] = [];
  await waitFor(
    async () => {
      // TypeScript may answer the first Ctrl+. before its diagnostics reach the lightbulb: ask again.
      if (!(await rows.first().isVisible().catch(() => false))) await page.keyboard.press('Control+.');
      await rows.first().waitFor({ timeout: 5_000 }).catch(() => undefined);
      titles = (await rows.allInnerTexts().catch(() => [])).map((t) => t.trim()).filter(Boolean);
      if (titles.some((t) => expected.test(t))) return true;
      await page.keyboard.press('Escape');
      return false;
    },
    () => `the action list never showed ${String(expected)}; it had: ${titles.join(' | ')}`,
    60_000,
  );
  return titles;
}

/** Puts the cursor at line `line`, column `column` (1-based) of the active editor. */
async function goTo(wb: Workbench, line: number, column: number): Promise<void> {
  await wb.editor().locator('.view-lines').click();
  await wb.page.keyboard.press('Control+G');
  await wb.page.keyboard.type(`${line}:${column}`);
  await wb.page.keyboard.press('Enter');
}

describe('Journey 46: Fix and Explain with AI Chat in the lightbulb', () => {
  let file = '';

  after(async () => {
    const { wb } = e2e();
    await wb.page.keyboard.press('Escape').catch(() => undefined);
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    if (file) rmSync(file, { force: true });
    await (await wb.chat()).type('').catch(() => undefined);
  });

  it('Ctrl+. on a type error lists Fix with AI Chat; Explain with AI Chat on a note puts its message and the code in the box, and Send sends them', async () => {
    resetServer();
    const { demo, page } = e2e();
    file = path.join(demo.profile.workspace, 'src', 'lightbulb-target.ts');
    writeFileSync(file, SOURCE);
    const wb = await readyWithKey();
    const chat = await wb.chat();
    await chat.newChat();
    await chat.type('');

    await wb.openFile('lightbulb-target.ts');
    // TypeScript has checked the file: the error is underlined.
    await page.locator('.squiggly-error').first().waitFor({ timeout: 90_000 });
    await goTo(wb, 6, 15); // on `count`
    const atError = await lightbulbMenu(wb, /Fix with AI Chat/);
    assert.ok(!atError.some((t) => /Explain with AI Chat/.test(t)), `only Fix at an error: ${atError.join(' | ')}`);
    await wb.screenshot('lightbulb-fix');
    await page.keyboard.press('Escape');

    await goTo(wb, 2, 40); // on `unusedFlag`, which TypeScript notes as never read
    const atNote = await lightbulbMenu(wb, /Explain with AI Chat/);
    assert.ok(!atNote.some((t) => /Fix with AI Chat/.test(t)), `no Fix on a note: ${atNote.join(' | ')}`);
    const before = chatRequests().length;
    await page.locator('.action-widget .monaco-list-row', { hasText: 'Explain with AI Chat' }).first().click();

    let value = '';
    await waitFor(
      async () => {
        value = await chat.message().inputValue();
        return value.includes('Explain this note and the code it is about:');
      },
      () => `the message box never got the prompt; it holds: ${JSON.stringify(value.slice(0, 300))}`,
    );
    assert.match(value, /^Explain this note and the code it is about:\n- Hint ts\(6133\), line 2, column \d+: 'unusedFlag' is declared but its value is never read\.\n\n`[^`\n]*lightbulb-target\.ts`, lines 1-7:\n\n```typescript\n\/\/ e2e-lightbulb-target\n/);
    assert.equal(chatRequests().length, before, 'nothing is sent until Send');

    await chat.sendButton().click();
    await waitFor(async () => chatRequests().length > before, 'Send sent no request', 30_000);
    const last = chatRequests().at(-1)?.messages?.at(-1)?.content ?? '';
    assert.match(last, /'unusedFlag' is declared but its value is never read\./);
    assert.match(last, /export const count: number = 'three';/);
    await chat.waitForIdle();
  });
});
