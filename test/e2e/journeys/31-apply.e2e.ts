// Journey 31: Apply to File: a code block of a reply shown as a diff against the file it is
// for, accepted as one edit that one Undo takes back.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { e2e } from '../setup';
import { readyWithKey, resetServer } from '../steps';
import { waitFor } from '../workbench';

const ORIGINAL = 'export const original = "e2e-apply-original";\n';

describe('Journey 31: Apply to File', () => {
  let file = '';
  const cleanup: string[] = [];

  after(async () => {
    const { wb } = e2e();
    await wb.runCommand('File: Revert File').catch(() => undefined);
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    // A file left changed asks whether to save: it is a test file, not saved.
    await wb.answerDialog(/Don.t Save/).catch(() => false);
    if (file) rmSync(file, { force: true });
    for (const p of cleanup) rmSync(p, { recursive: true, force: true });
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
  it('a block naming another file is diffed against that file, and Accept changes that file only', async () => {
    resetServer();
    const { demo, page } = e2e();
    const wb = await readyWithKey();
    await wb.runCommand('View: Close All Editors');
    await wb.answerDialog(/Don.t Save/).catch(() => false);
    const active = path.join(demo.profile.workspace, 'src', 'apply-active.ts');
    const named = path.join(demo.profile.workspace, 'src', 'apply-named.ts');
    cleanup.push(active, named);
    const ACTIVE = 'export const active = "e2e-apply-active-untouched";\n';
    writeFileSync(active, ACTIVE);
    writeFileSync(named, 'export const named = "e2e-apply-named-original";\n');
    await wb.openFile('apply-active.ts');

    const chat = await wb.chat();
    await chat.newChat();
    await chat.ask('Write the helper e2e-apply-named file:src/apply-named.ts');
    const block = chat.lastReply().locator('.code-block').first();
    const code = ((await block.locator('pre code').textContent()) ?? '').replace(/\n$/, '');
    const firstLine = code.split('\n').find((l) => l.trim() !== '') ?? '';
    assert.ok(firstLine, 'the reply has a code block');
    await block.hover();
    await block.getByRole('button', { name: 'Apply to File', exact: true }).click();

    // The diff and the question name the file the block names, not the active editor.
    await page.locator('.tab', { hasText: /apply-named\.ts ↔ proposed change/ }).first().waitFor({ timeout: 20_000 });
    await wb.waitForNotification(/Review the change to src\/apply-named\.ts \(whole file\)/);
    assert.equal(await page.locator('.tab', { hasText: /apply-active\.ts ↔/ }).count(), 0, 'no diff against the active editor');
    await wb.notifications().filter({ hasText: 'Review the change' }).getByRole('button', { name: 'Accept' }).first().click();

    await waitFor(async () => (await page.locator('.tab', { hasText: /proposed change/ }).count()) === 0, 'the diff stayed open');
    await page.locator('.tab.active', { hasText: 'apply-named.ts' }).first().waitFor({ timeout: 15_000 });
    const shown = async () => (await wb.editor().locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
    await waitFor(async () => (await shown()).includes(firstLine.trim()), 'the named file does not show the applied code');
    // Saved, the named file holds the block; the active editor's file was not touched.
    await wb.runCommand('File: Save');
    await waitFor(async () => readFileSync(named, 'utf8').includes(firstLine.trim()), 'the named file on disk does not hold the block');
    assert.equal(readFileSync(active, 'utf8'), ACTIVE, 'the active editor\'s file is unchanged');
    assert.equal(await page.locator('.tab.dirty', { hasText: 'apply-active.ts' }).count(), 0, 'the active editor has no unsaved change');
  });

  it('a block naming a path through a symbolic link out of the workspace is refused with a message', async () => {
    resetServer();
    const { demo, page } = e2e();
    const wb = await readyWithKey();
    const outside = mkdtempSync(path.join(tmpdir(), 'e2e-outside-'));
    const victim = path.join(outside, 'victim.ts');
    writeFileSync(victim, 'export const victim = "e2e-outside-untouched";\n');
    const link = path.join(demo.profile.workspace, 'e2e-out');
    symlinkSync(outside, link);
    cleanup.push(link, outside);

    const chat = await wb.chat();
    await chat.newChat();
    await chat.ask('Write the helper e2e-apply-link file:e2e-out/victim.ts');
    const block = chat.lastReply().locator('.code-block').first();
    await block.hover();
    await block.getByRole('button', { name: 'Apply to File', exact: true }).click();
    await wb.waitForNotification(/"e2e-out\/victim\.ts" leads outside this workspace \(through a symbolic link\); the change was not applied/);
    assert.equal(await page.locator('.tab', { hasText: /proposed change/ }).count(), 0, 'no diff was opened');
    assert.equal(readFileSync(victim, 'utf8'), 'export const victim = "e2e-outside-untouched";\n', 'the file outside is unchanged');
  });
});
