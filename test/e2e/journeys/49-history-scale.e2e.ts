// Journey 49: History with a few thousand conversations saved by 0.1.0. After the upgrade (a
// window reload finds them) the conversations come in the background with a progress
// notification; History lists conversations at once, and a phrase inside a message of one
// already indexed is found while the index is still being built ("Indexing… N of M").
//
// The oldest conversation's file stalls, as on a slow network drive: it is a named pipe that gives
// its text only when the journey writes it. The index is therefore still being built, whatever the
// machine's speed, until the journey has seen the list and the phrase; then the file is given and
// the build ends.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXTENSION_ID } from '../launcher';
import { e2e } from '../setup';
import { feedStalled, makeStalled } from '../stalledFile';
import type { Workbench } from '../workbench';

const COUNT = 3000;
const TURNS = 12;
const TAG = 'e2e49';

function conversationsDir(): string {
  return path.join(e2e().demo.profile.userDataDir, 'User', 'globalStorage', EXTENSION_ID, 'conversations');
}

const idOf = (n: number) => `${TAG}-${String(n).padStart(5, '0')}-0000-4000-8000-000000000000`;

/** The oldest conversation: a named pipe (see above); its text, small enough for one write to a pipe. */
const stalled = (dir: string) => path.join(dir, `${idOf(0)}.json`);
const STALLED_TEXT = JSON.stringify({
  version: 1,
  id: idOf(0),
  title: `Scale ${TAG} number 0`,
  createdAt: '2020-01-01T00:00:00.000Z',
  updatedAt: '2020-01-01T00:00:00.000Z',
  nextSeq: 2,
  messages: [
    { id: 'msg_000', role: 'user', content: `how do I do thing 0q0 ${TAG}?`, createdAt: '2020-01-01T00:00:00.000Z', status: 'complete' },
    { id: 'msg_001', role: 'assistant', content: 'Like so.', createdAt: '2020-01-01T00:00:00.000Z', status: 'complete' },
  ],
});

/**
 * Gives the stalled file's text to every reader waiting on it (the index build, the upgrade), until
 * `done` says so (fails after `ms`); the pipe is found where the upgrade moves it too.
 */
function releaseStalled(dir: string, done: () => Promise<boolean>, what: string, ms: number): Promise<void> {
  return feedStalled([stalled(dir), path.join(dir, '0.1.0', `${idOf(0)}.json`)], STALLED_TEXT, done, what, ms);
}

/** Conversations as 0.1.0 saved them: one JSON file each, the newest written last; the oldest a named pipe. */
function seedLegacy(dir: string): void {
  mkdirSync(dir, { recursive: true });
  // Newer than the conversations of the journeys before this one, so that they head the list.
  const base = Date.now() + 3_600_000 - COUNT * 60_000;
  const filler = 'the reply goes on about caches, queues, parsers and the like; '.repeat(8);
  makeStalled(stalled(dir));
  utimesSync(stalled(dir), new Date(base), new Date(base));
  for (let n = 1; n < COUNT; n++) {
    const at = new Date(base + n * 60_000).toISOString();
    const messages: Array<Record<string, string>> = [];
    for (let t = 0; t < TURNS; t++) {
      const seq = messages.length;
      messages.push({ id: `msg_${String(seq).padStart(3, '0')}`, role: 'user', content: `how do I do thing ${n}q${t} ${TAG}?`, createdAt: at, status: 'complete' });
      messages.push({ id: `msg_${String(seq + 1).padStart(3, '0')}`, role: 'assistant', content: `Like so, for ${n}q${t}: ${filler}`, createdAt: at, status: 'complete' });
    }
    const file = path.join(dir, `${idOf(n)}.json`);
    writeFileSync(file, JSON.stringify({ version: 1, id: idOf(n), title: `Scale ${TAG} number ${n}`, createdAt: at, updatedAt: at, nextSeq: messages.length, messages }));
    const time = new Date(base + n * 1000);
    utimesSync(file, time, time);
  }
}

/** Removes what the journey seeded (brought in or not) and the indexes, so later journeys see the history they made. */
function removeSeeded(dir: string): void {
  for (const sub of [dir, path.join(dir, '0.1.0')]) {
    if (!existsSync(sub)) continue;
    for (const name of readdirSync(sub)) if (name.startsWith(`${TAG}-`)) rmSync(path.join(sub, name), { force: true });
  }
  rmSync(path.join(dir, '_index.jsonl'), { force: true });
  rmSync(path.join(dir, '_search.json'), { force: true });
}

const historyBox = (wb: Workbench) => wb.page.locator('.quick-input-widget input[placeholder^="Search every message"]');

async function openHistory(wb: Workbench): Promise<void> {
  await wb.runCommand('AI Chat: Show History');
  await historyBox(wb).waitFor({ state: 'visible', timeout: 15_000 });
}

const historyTitle = (wb: Workbench) => wb.quickInput().locator('.quick-input-title').innerText().catch(() => '');

describe('Journey 49: History with thousands of conversations from 0.1.0', () => {
  after(async () => {
    // Wait until every file is brought in (nothing writes any more), then leave the history as it was.
    const dir = conversationsDir();
    const broughtIn = async () => readdirSync(dir).every((n) => !(n.startsWith(`${TAG}-`) && n.endsWith('.json')));
    await releaseStalled(dir, broughtIn, 'the 0.1.0 files were not all brought in', 240_000).catch(() => undefined);
    removeSeeded(dir);
    await e2e().wb.closeQuickInput().catch(() => undefined);
    await e2e().wb.reloadWindow();
  });

  it('lists conversations at once and finds a phrase inside a message while the index is still built', async function () {
    this.timeout(6 * 60_000);
    const { wb } = e2e();
    const dir = conversationsDir();
    seedLegacy(dir);
    await wb.reloadWindow();

    await openHistory(wb);
    // The list is there before the index is whole: conversations, the newest first, and the progress in the title.
    const first = wb.quickPickRows().filter({ hasText: `Scale ${TAG} number` }).first();
    await first.waitFor({ state: 'visible', timeout: 15_000 }).catch(async () => {
      throw new Error(`History lists none of the ${COUNT} conversations; it shows: ${(await wb.quickPickLabels()).join(' | ')} (title: ${await historyTitle(wb)})`);
    });
    const titleWhenListed = await historyTitle(wb);
    assert.match(titleWhenListed, /Indexing… \d+ of \d+|Loading the search index/, 'the list came after the index was whole: nothing here shows it was not blocked on it');
    const newest = await first.innerText();
    // The label, then the description ("24 messages · …") right after it.
    assert.match(newest, new RegExp(`number (${COUNT - 1}|${COUNT - 2}|${COUNT - 3})\\s*${TURNS * 2} messages`), `the newest conversations come first: ${newest}`);

    // A phrase inside a message of a conversation indexed already (the newest are read first).
    const n = COUNT - 1;
    await wb.quickInputBox().fill(`thing ${n}q7 ${TAG}`);
    const found = wb.quickPickRows().filter({ hasText: `Scale ${TAG} number ${n}` }).filter({ hasText: /matching message/ }).first();
    await found.waitFor({ state: 'visible', timeout: 15_000 }).catch(async () => {
      throw new Error(`History did not find "thing ${n}q7"; it shows: ${(await wb.quickPickLabels()).join(' | ')} (title: ${await historyTitle(wb)})`);
    });
    assert.match(await historyTitle(wb), /Indexing… \d+ of \d+/, 'found while the index is still being built');
    const labels = await wb.quickPickLabels();
    assert.ok(!labels.some((l) => /No conversation contains/.test(l)), `History said no conversation contains the phrase: ${labels.join(' | ')}`);

    // The upgrade is told in a progress notification; once the stalled file reads, the build ends.
    await wb.waitForNotification(/bringing your saved conversations into History/, 30_000);
    // Looking for it in the Notifications center runs a command, which closes History: open it again.
    if (!(await historyBox(wb).isVisible())) await openHistory(wb);
    await releaseStalled(dir, async () => (await historyBox(wb).isVisible()) && !/Indexing…/.test(await historyTitle(wb)), 'the index was not built', 180_000);
    await wb.quickInputBox().fill(`thing 5q3 ${TAG}`);
    await wb.quickPickRows().filter({ hasText: `Scale ${TAG} number 5` }).filter({ hasText: /matching message/ }).first().waitFor({ state: 'visible', timeout: 15_000 });
    await wb.closeQuickInput();
  });
});
