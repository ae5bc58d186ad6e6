// Journey 43: Edit in the editor. Select lines, AI Chat: Edit Selection…, say what to change (the
// quick input shows the model and the price), watch the reply stream into the file, review the
// change there: Undo Edit leaves the file on disk as it was after a save; Keep Edit saves the new
// code, and one Undo takes it back; a save while the reply streams writes the original. code-server
// saves a file a second after each change (files.autoSave afterDelay, its default): while "1 change
// proposed" waits, those saves write the file as it was, and the proposal stays in the editor.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer } from '../steps';
import { waitFor, type Workbench } from '../workbench';

const ORIGINAL = [
  '// e2e-edit-target',
  '',
  'export function total(values: number[]): number {',
  '  let sum = 0;',
  '  for (const v of values) sum += v;',
  '  return sum;',
  '}',
  '',
].join('\n');

/**
 * The text of `file` once a write under way is over: a save empties the file before it writes it
 * (read in between, it is empty), and the text here is never empty.
 */
async function onDisk(file: string): Promise<string> {
  let text = '';
  await waitFor(() => (text = readFileSync(file, 'utf8')) !== '', 'the file stayed empty');
  return text;
}

/** Waits for a save to write `file` again (its modification time changes from `since`); its text then. */
async function savedAgain(file: string, since: number, what: string): Promise<string> {
  await waitFor(() => statSync(file).mtimeMs !== since, what, 30_000);
  return onDisk(file);
}

/** The active editor's text as shown (the view's non-breaking spaces as spaces). */
async function shown(wb: Workbench): Promise<string> {
  return (await wb.editor().locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
}

/** Selects the function, runs Edit Selection…, checks the price is shown and sends `instruction`; the number of requests before. */
async function startEdit(wb: Workbench, instruction: string): Promise<number> {
  await wb.openFile('edit-target.ts');
  await wb.selectLines(3, 7);
  const before = chatRequests().length;
  await wb.runCommand('AI Chat: Edit Selection…');
  const title = wb.quickInput().locator('.quick-input-title');
  await waitFor(async () => /Edit Selection \(.+ · \d+ credits?\)/.test(await title.innerText().catch(() => '')), 'the quick input never showed the model and the price');
  await wb.answerInput(instruction);
  return before;
}

/** Edit Selection… with `instruction`, waiting for the review. */
async function editSelection(wb: Workbench, instruction: string): Promise<void> {
  const before = await startEdit(wb, instruction);
  await wb.waitForNotification(/\d+ changes? proposed/, 60_000);
  const sent = chatRequests();
  assert.equal(sent.length, before + 1, 'one request was sent');
  const last = sent[sent.length - 1].messages?.at(-1)?.content ?? '';
  assert.match(last, new RegExp(`^Instruction: ${instruction}`));
  assert.match(last, /selected lines 3-7:\n```typescript\nexport function total/);
}

describe('Journey 43: Edit in the editor', () => {
  let file = '';

  after(async () => {
    const { wb } = e2e();
    await wb.runCommand('File: Revert File').catch(() => undefined);
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    await wb.answerDialog(/Don.t Save/).catch(() => false);
    if (file) rmSync(file, { force: true });
  });

  it('the change is reviewed in the file; Undo Edit leaves the file on disk unchanged after a save', async () => {
    resetServer();
    const { demo, page } = e2e();
    file = path.join(demo.profile.workspace, 'src', 'edit-target.ts');
    writeFileSync(file, ORIGINAL);
    const wb = await readyWithKey();
    const before = statSync(file).mtimeMs;
    await editSelection(wb, 'Use reduce e2e-edit-undo');
    // The reply's code is in the editor for review, with Keep and Undo above the change.
    await waitFor(async () => (await shown(wb)).includes('const out: string[] = [];'), 'the editor does not show the proposed code');
    await page.locator('.codelens-decoration', { hasText: /Undo/ }).first().waitFor({ timeout: 15_000 });
    await wb.screenshot('edit-selection-review');
    // code-server saves the file while the change waits: the file on disk is the original, the proposal stays in the editor.
    const autoSaved = await savedAgain(file, before, 'code-server did not save the file (files.autoSave afterDelay)');
    assert.equal(autoSaved, ORIGINAL, 'the proposal was written to disk before it was kept');
    await waitFor(async () => (await shown(wb)).includes('const out: string[] = [];'), 'the proposal is not in the editor after the save');
    assert.ok((await wb.notificationTexts()).some((t) => /changes? proposed/.test(t)), 'the change still waits for Keep or Undo');

    await wb.runCommand('AI Chat: Undo Edit');
    await waitFor(async () => (await shown(wb)).includes('let sum = 0;'), 'Undo Edit did not bring the original back');
    assert.ok(!(await shown(wb)).includes('const out: string[] = [];'), 'the proposal is gone');
    // The editor is the file on disk again: not marked as modified.
    await waitFor(async () => (await page.locator('.tabs-container .tab.active.dirty').count()) === 0, 'the editor is still marked as modified after Undo Edit');
    await wb.runCommand('File: Save');
    await waitFor(() => readFileSync(file, 'utf8') === ORIGINAL, 'the file on disk is not the original after Undo Edit and a save');
  });

  it('Keep Edit: the new code is on disk after a save; one Undo and a save give the original back', async () => {
    const { page } = e2e();
    const wb = await readyWithKey();
    // The file as the journey started it, whatever the first test left.
    writeFileSync(file, ORIGINAL);
    await wb.openFile('edit-target.ts');
    await wb.runCommand('File: Revert File');
    await waitFor(async () => (await shown(wb)).includes('let sum = 0;'), 'the editor does not show the original file');
    await editSelection(wb, 'Use reduce e2e-edit-keep');
    await waitFor(async () => (await shown(wb)).includes('const out: string[] = [];'), 'the editor does not show the proposed code');
    const autoSaved = await savedAgain(file, statSync(file).mtimeMs, 'code-server did not save the file (files.autoSave afterDelay)');
    assert.equal(autoSaved, ORIGINAL, 'the proposal was written to disk before it was kept');
    await wb.runCommand('AI Chat: Keep Edit');
    await waitFor(async () => (await page.locator('.codelens-decoration', { hasText: /Undo/ }).count()) === 0, 'the review\'s Keep/Undo stayed after Keep Edit');
    // Kept: the next auto save writes it.
    await waitFor(() => readFileSync(file, 'utf8').includes('const out: string[] = [];'), 'the new code is not on disk after Keep Edit', 30_000);
    await wb.runCommand('File: Save');
    const kept = await onDisk(file);
    assert.ok(kept.startsWith('// e2e-edit-target\n\n'), 'the lines before the selection are as they were');
    assert.ok(!kept.includes('let sum = 0;'), 'the selected lines were replaced');

    await wb.runCommand('View: Focus Active Editor Group');
    await page.keyboard.press('Control+Z');
    await waitFor(async () => (await shown(wb)).includes('let sum = 0;'), 'one Undo did not bring the original back');
    await wb.runCommand('File: Save');
    await waitFor(() => readFileSync(file, 'utf8') === ORIGINAL, 'the original is not on disk after Undo and a save');
  });

  it('a save while the reply streams writes the original; the reply goes on into review; Undo Edit leaves the editor clean', async () => {
    const { page, demo } = e2e();
    const wb = await readyWithKey();
    writeFileSync(file, ORIGINAL);
    await wb.openFile('edit-target.ts');
    await wb.runCommand('File: Revert File');
    await waitFor(async () => (await shown(wb)).includes('let sum = 0;'), 'the editor does not show the original file');
    // The reply streams slowly (24 characters every 800 ms): its code block takes some ten seconds.
    demo.server.control.injectFault({ kind: 'slow-chunks', ms: 800 });
    await startEdit(wb, 'Use reduce e2e-edit-save');
    // The reply's first lines are in the editor while the rest is still on its way.
    await waitFor(async () => (await shown(wb)).includes('const out: string[] = [];'), 'the reply\'s lines did not stream into the editor', 60_000);
    assert.ok(!(await shown(wb)).includes('return out;'), 'the reply is still streaming');
    assert.ok((await shown(wb)).includes('let sum = 0;'), 'the original lines not reached yet are still there');
    const written = statSync(file).mtimeMs;
    await wb.runCommand('File: Save');
    assert.equal(await savedAgain(file, written, 'the save did not write the file'), ORIGINAL, 'the file on disk is the original, not a mix with the streamed lines');
    assert.ok(!(await wb.notificationTexts()).some((t) => /changes? proposed/.test(t)), 'the save came while the reply streamed');
    // The reply goes on after the save and ends in review; the file on disk stays the original.
    await wb.waitForNotification(/\d+ changes? proposed/, 90_000);
    await waitFor(async () => (await shown(wb)).includes('return out;'), 'the whole reply is not in the editor');
    assert.ok(!(await shown(wb)).includes('let sum = 0;'), 'the selected lines were replaced in the editor');
    assert.equal(await onDisk(file), ORIGINAL, 'the file on disk is the original while the change waits');
    await page.locator('.codelens-decoration', { hasText: /Undo/ }).first().waitFor({ timeout: 15_000 });
    await wb.runCommand('AI Chat: Undo Edit');
    await waitFor(async () => (await shown(wb)).includes('let sum = 0;') && !(await shown(wb)).includes('return out;'), 'Undo Edit did not bring the original back');
    // The document is the one on disk again: its tab is not marked as modified.
    await waitFor(async () => (await page.locator('.tabs-container .tab.active.dirty').count()) === 0, 'the editor is still marked as modified after Undo Edit');
    await wb.runCommand('File: Save');
    await waitFor(() => readFileSync(file, 'utf8') === ORIGINAL, 'the file on disk is not the original after Undo Edit and a save');
  });
});
