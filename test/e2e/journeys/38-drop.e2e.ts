// Journey 38: files dropped on the chat become chips and are sent as fenced blocks. The drop is
// the one VS Code's Explorer makes (its data transfer kinds: the full URI list, resourceurls and
// the one-entry text/uri-list), dispatched in the chat frame: a mouse drag from the workbench
// into a webview's nested frame is not something the browser automation can perform.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Frame } from 'playwright-core';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer, waitForChatRequests } from '../steps';
import { waitFor } from '../workbench';

/** Drags `data` over the panel (enter, over) and drops it, as the workbench hands a drop to a webview. */
async function dropOnChat(frame: Frame, data: Record<string, string>, drop = true): Promise<boolean> {
  // A script as text: the test runner's transform would add helpers the page does not have.
  const script = `(() => {
    const data = ${JSON.stringify(data)};
    const dt = new DataTransfer();
    for (const [type, value] of Object.entries(data)) dt.setData(type, value);
    const target = document.querySelector('.conversation') || document.body;
    const fire = (type) => target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    fire('dragenter');
    const accepted = !fire('dragover');
    const hint = document.querySelector('.drop-hint');
    const hintShown = !!hint && !hint.hidden;
    fire(${drop ? "'drop'" : "'dragleave'"});
    return accepted && hintShown;
  })()`;
  return (await frame.evaluate(script)) === true;
}

describe('Journey 38: Drop files into the chat', () => {
  after(async () => {
    const { wb } = e2e();
    await wb.clearNotifications().catch(() => undefined);
  });

  // Folders a test made in the workspace, taken out after.
  const made: string[] = [];
  after(() => {
    for (const f of made) rmSync(f, { recursive: true, force: true });
  });

  it('shows where to drop, attaches the dropped files as chips, a dropped folder\'s files too, and sends each file once as a fenced block', async () => {
    resetServer();
    const { demo } = e2e();
    const wb = await readyWithKey();
    const chat = await wb.openChat();
    await chat.newChat();
    const chips = chat.frame.locator('.context-chip');
    const src = path.join(demo.profile.workspace, 'src');
    const files = ['inventory.ts', 'slugify.py'];
    const uris = files.map((f) => pathToFileURL(path.join(src, f)).toString());

    // Text dragged over the panel is not a file drop: no hint, not taken.
    assert.equal(await dropOnChat(chat.frame, { 'text/plain': 'just words' }, false), false);

    // Two files from the Explorer: the full list, and the one-entry text/uri-list beside it.
    const taken = await dropOnChat(chat.frame, {
      'application/vnd.code.uri-list': uris.join('\r\n'),
      resourceurls: JSON.stringify(uris),
      'text/uri-list': uris[0],
      'text/plain': path.join(src, files[0]),
    });
    assert.ok(taken, 'the panel did not take the drop or show where to drop');
    await waitFor(async () => (await chips.count()) === 2, 'the dropped files are not both shown as chips', 15_000);
    const labels = await chips.allTextContents();
    assert.match(labels[0], /inventory\.ts/);
    assert.match(labels[1], /slugify\.py/);
    assert.ok(await chat.frame.locator('.drop-hint').isHidden(), 'the drop hint stayed after the drop');

    // A folder attaches its files (within the budget): its new file is a chip of its own; the
    // folder src, whose files are attached already, adds none again.
    const folder = path.join(demo.profile.workspace, 'e2e-drop-folder');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'notes.md'), '# Notes\n\ne2e-drop-folder-check\n');
    made.push(folder);
    await dropOnChat(chat.frame, { 'text/uri-list': pathToFileURL(src).toString() });
    await dropOnChat(chat.frame, { 'text/uri-list': pathToFileURL(folder).toString() });
    await waitFor(async () => (await chips.count()) === 3, 'the dropped folder\'s file is not a chip', 15_000);
    const all = await chips.allTextContents();
    assert.equal(all.filter((l) => /notes\.md/.test(l)).length, 1, all.join(' | '));
    assert.equal(all.filter((l) => /inventory\.ts/.test(l)).length, 1, all.join(' | '));

    const before = chatRequests().length;
    const replies = await chat.articles('Assistant').count();
    await chat.send('Review these e2e-drop-check');
    const reqs = await waitForChatRequests(before + 1);
    await chat.waitForNewReply(replies);
    const last = reqs[before]?.messages?.at(-1)?.content ?? '';
    assert.ok(last.startsWith('Review these e2e-drop-check\n\n'), last.slice(0, 200));
    assert.match(last, /`src\/inventory\.ts`:\n\n```typescript\n/);
    assert.match(last, /`src\/slugify\.py`:\n\n```python\n/);
    assert.match(last, /`e2e-drop-folder\/notes\.md`:\n\n```[a-z]*\n# Notes/);
    assert.equal(last.split('`src/inventory.ts`:').length, 2, 'src/inventory.ts goes once');
    await waitFor(async () => (await chips.count()) === 0, 'the chips stayed after the send');
  });
});
