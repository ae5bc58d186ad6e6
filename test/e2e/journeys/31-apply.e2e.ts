// Journey 31: Apply to File: a code block of a reply shown as a diff against the file it is
// for, accepted as one edit that one Undo takes back.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { e2e } from '../setup';
import { readyWithKey, resetServer } from '../steps';
import { waitFor } from '../workbench';

const ORIGINAL = 'export const original = "e2e-apply-original";\n';

describe('Journey 31: Apply to File', () => {
  let file = '';

  after(async () => {
    const { wb } = e2e();
    await wb.runCommand('File: Revert File').catch(() => undefined);
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    // A file left changed asks whether to save: it is a test file, not saved.
    await wb.answerDialog(/Don.t Save/).catch(() => false);
    if (file) rmSync(file, { force: true });
  });

  it('shows the change as a diff, Accept writes it, and one Undo restores the file', async () => {
    resetServer();
    const { demo, page } = e2e();
    file = path.join(demo.profile.workspace, 'src', 'apply-target.ts');
    writeFileSync(file, ORIGINAL);
    const wb = await readyWithKey();
    await wb.openFile('apply-target.ts');

    const chat = await wb.chat();
    await chat.newChat();
    await chat.ask('Write the code for this file e2e-apply');
    const block = chat.lastReply().locator('.code-block').first();
    const code = ((await block.locator('pre code').textContent()) ?? '').replace(/\n$/, '');
    const firstLine = code.split('\n').find((l) => l.trim() !== '') ?? '';
    assert.ok(firstLine, 'the reply has a code block');

    await block.hover();
    await block.getByRole('button', { name: 'Apply to File', exact: true }).click();
    // The diff, titled with the file, and the question.
    await page.locator('.tab', { hasText: /apply-target\.ts ↔ proposed change/ }).first().waitFor({ timeout: 20_000 });
    await wb.waitForNotification(/Review the change to src\/apply-target\.ts \(whole file\)/);
    await wb.notifications().filter({ hasText: 'Review the change' }).getByRole('button', { name: 'Accept' }).first().click();

    // The diff closes; the file holds the block, not yet saved (Undo and Save are the user's).
    await waitFor(async () => (await page.locator('.tab', { hasText: /proposed change/ }).count()) === 0, 'the diff stayed open');
    await page.locator('.tab.active', { hasText: 'apply-target.ts' }).first().waitFor({ timeout: 15_000 });
    const shown = async () => (await wb.editor().locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
    await waitFor(async () => (await shown()).includes(firstLine.trim()), 'the editor does not show the applied code');
    assert.ok(!(await shown()).includes('e2e-apply-original'), 'the old content is gone');

    // One Undo takes the whole change back.
    await wb.runCommand('View: Focus Active Editor Group');
    await page.keyboard.press('Control+Z');
    await waitFor(async () => (await shown()).includes('e2e-apply-original'), 'Undo did not restore the file');
    assert.ok(!(await shown()).includes(firstLine.trim()), 'one Undo removed the whole change');
  });
});
