// Journey 52: a reply's changes across files. A reply names three files (one new) in its code
// blocks; Apply All lists them, Enter keeps them all in one step; after Reload Window the reply
// still offers Undo, which gives both files back byte for byte (a byte-order mark with CRLF, and no
// final newline) and removes the new one; Redo writes the reply's version again.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { e2e } from '../setup';
import { readyWithKey, resetServer } from '../steps';
import { waitFor, type Chat } from '../workbench';

const ONE = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('export const one = "e2e-apply-all-one";\r\nexport const keep = 1;\r\n')]);
const TWO = Buffer.from('export const two = "e2e-apply-all-two";\nexport const last = 2;');

describe('Journey 52: Apply All and Undo of a reply\'s changes', () => {
  const files: string[] = [];

  after(async () => {
    const { wb } = e2e();
    await wb.closeQuickInput().catch(() => undefined);
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    for (const f of files) rmSync(f, { force: true });
  });

  /** The row under the last reply: its state and its buttons. */
  const row = (chat: Chat) => chat.lastReply().locator('.reply-changes');

  it('keeps three files in one step, and after a reload Undo gives every byte back and removes the new file', async () => {
    resetServer();
    const { demo, page } = e2e();
    const at = (name: string) => path.join(demo.profile.workspace, 'src', name);
    const [one, two, created] = [at('aa-one.ts'), at('aa-two.ts'), at('aa-new.ts')];
    files.push(one, two, created);
    writeFileSync(one, ONE);
    writeFileSync(two, TWO);
    rmSync(created, { force: true });

    let wb = await readyWithKey();
    let chat = await wb.chat();
    await chat.newChat();
    await chat.ask('Change these e2e-apply-all file:src/aa-one.ts file:src/aa-two.ts file:src/aa-new.ts');
    await row(chat).getByRole('button', { name: 'Apply All (3 files)…' }).click();

    // The review list: every file, checked; nothing on disk yet.
    await waitFor(async () => (await wb.quickPickRows().count()) === 3, 'the review list does not show the three files');
    const labels = (await wb.quickPickLabels()).join(' | ');
    for (const name of ['src/aa-one.ts', 'src/aa-two.ts', 'src/aa-new.ts']) assert.ok(labels.includes(name), `${name} is not in the list: ${labels}`);
    assert.match(labels, /new file/);
    assert.deepEqual(readFileSync(one), ONE, 'nothing is written before Keep');
    assert.equal(existsSync(created), false);
    await wb.quickInputBox().press('Enter');

    await waitFor(async () => existsSync(created) && !readFileSync(two).equals(TWO) && !readFileSync(one).equals(ONE), 'Keep All did not write the three files');
    const applied = [readFileSync(one), readFileSync(two), readFileSync(created)];
    assert.deepEqual(applied[0].subarray(0, 3), Buffer.from([0xef, 0xbb, 0xbf]), 'the byte-order mark is kept');
    assert.ok(applied[0].includes('\r\n'), 'the CRLF line ends are kept');
    await row(chat).getByText('Applied to 3 files').waitFor({ timeout: 20_000 });

    // A reload: the reply still knows its changes.
    await wb.clearNotifications();
    await wb.reloadWindow();
    wb = e2e().wb;
    chat = await wb.settledChat();
    await row(chat).getByText('Applied to 3 files').waitFor({ timeout: 30_000 });
    await row(chat).getByRole('button', { name: 'Undo', exact: true }).click();

    await waitFor(async () => !existsSync(created) && readFileSync(one).equals(ONE) && readFileSync(two).equals(TWO), 'Undo did not give the files back byte for byte');
    await row(chat).getByText('Changes undone').waitFor({ timeout: 20_000 });

    await row(chat).getByRole('button', { name: 'Redo', exact: true }).click();
    await waitFor(async () => existsSync(created) && readFileSync(one).equals(applied[0]) && readFileSync(two).equals(applied[1]), 'Redo did not write the reply\'s version');
    await row(chat).getByText('Applied to 3 files').waitFor({ timeout: 20_000 });
    assert.equal(await page.locator('.tab.dirty').count(), 0, 'no editor holds unsaved changes');
  });
});
