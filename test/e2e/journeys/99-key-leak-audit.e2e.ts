// Last in the run: no API key used by any journey is left anywhere in the VS Code
// profile (settings, state databases with their -wal/-journal files, logs, extension
// global and workspace storage, exported files, the workspace folder) nor in the chat
// panel's page (every frame's HTML and the value of every field).
//
// Nothing is excluded from the search. The key lives in SecretStorage, which code-server
// keeps on the browser side of the workbench: the page's localStorage, encrypted with a
// key the page gets from the server (code-server's secret storage since 4.17). So no
// file in the user-data folder holds it, and the page's localStorage is searched too:
// a key readable there is a leak as well.
//
// The first test proves the search: it plants a key into copies of each kind of file and
// fails if any would be missed.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { DEMO_KEY, EMPTY_KEY, LOW_KEY } from '../../server/fixtures';
import { masked, scanBuffer, scanFiles, type KeyHit } from '../keyscan';
import { RESULTS, e2e } from '../setup';

/** Every API key a journey uses: the server's keys and each `sk-…` literal in a journey. */
function keysOfTheRun(): string[] {
  const keys = new Set([DEMO_KEY, LOW_KEY, EMPTY_KEY]);
  for (const name of readdirSync(__dirname)) {
    if (!name.endsWith('.e2e.ts') || name === path.basename(__filename)) continue;
    for (const m of readFileSync(path.join(__dirname, name), 'utf8').matchAll(/['"`](sk-[A-Za-z0-9_-]{8,})['"`]/g)) keys.add(m[1]);
  }
  return [...keys];
}

/** The HTML of every frame of the page and the value of every input, select and text area. */
async function frameHits(frames: Frame[], keys: string[]): Promise<KeyHit[]> {
  const hits: KeyHit[] = [];
  for (const [i, f] of frames.entries()) {
    if (f.isDetached()) continue;
    let html = '';
    let values: string[] = [];
    try {
      html = await f.content();
      values = await f.evaluate(() =>
        Array.from(document.querySelectorAll('input, textarea, select'), (el) => (el as HTMLInputElement).value ?? ''),
      );
    } catch {
      continue; // a frame navigating away
    }
    const where = `frame ${i} (${f.url().slice(0, 80)})`;
    hits.push(...scanBuffer(Buffer.from(html, 'utf8'), keys, `${where} HTML`));
    hits.push(...scanBuffer(Buffer.from(values.join('\n'), 'utf8'), keys, `${where} field values`));
  }
  return hits;
}

const report = (hits: KeyHit[]) => hits.map((h) => `${h.key} as ${h.encoding} in ${h.where}`).join('\n');

describe('Journey 99: API key leak audit', () => {
  it('the search finds a key planted in JSON, SQLite bytes (UTF-16LE/BE, -wal, -journal), a log, base64 and a page', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ai-chat-keyscan-'));
    try {
      const key = 'sk-plant-0000000000000042';
      const sqliteHeader = Buffer.from('SQLite format 3\0', 'binary');
      const planted: Record<string, Buffer> = {
        'User/settings.json': Buffer.from(JSON.stringify({ 'aiChat.apiKey': key }, null, 2)),
        'User/globalStorage/state.vscdb': Buffer.concat([sqliteHeader, Buffer.alloc(100), Buffer.from(`{"k":"${key}"}`, 'utf16le')]),
        'User/globalStorage/state.vscdb-wal': Buffer.concat([Buffer.alloc(32), Buffer.from(key, 'utf16le').swap16()]),
        'User/workspaceStorage/abc/state.vscdb-journal': Buffer.concat([Buffer.alloc(512), Buffer.from(key, 'utf8')]),
        'logs/20260101/exthost1/output_logging/1-AI Chat.log': Buffer.from(`2026-01-01 [info] header x-api-key: ${key}\n`),
        'demo-project/chat-export.md': Buffer.from(`# Chat\n\n${key}\n`),
      };
      // base64 at each of the three alignments inside a longer text
      for (const prefix of ['', 'a', 'ab']) {
        planted[`User/globalStorage/b64-${prefix.length}.json`] = Buffer.from(
          JSON.stringify({ v: Buffer.from(`${prefix}${key}!`).toString('base64') }),
        );
      }
      for (const [rel, bytes] of Object.entries(planted)) {
        mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        writeFileSync(path.join(dir, rel), bytes);
      }
      writeFileSync(path.join(dir, 'clean.json'), JSON.stringify({ other: 'sk-plant-0000000000000043' }));

      const { hits, files } = scanFiles([dir], [key]);
      assert.equal(files, Object.keys(planted).length + 1);
      for (const rel of Object.keys(planted)) {
        assert.ok(
          hits.some((h) => h.where === path.join(dir, rel)),
          `the planted key in ${rel} was missed; hits:\n${report(hits)}`,
        );
      }
      assert.ok(!hits.some((h) => h.where.endsWith('clean.json')), 'a different key counts as a hit');
      assert.ok(!report(hits).includes(key), 'the report prints the key whole');
      assert.equal(masked(key).length < key.length, true);

      // a page: the key in an attribute, or typed into a field
      assert.equal(scanBuffer(Buffer.from(`<input value="${key}">`), [key], 'html').length, 1);
      assert.equal(scanBuffer(Buffer.from('<input value="">'), [key], 'html').length, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no API key used in this run is in the VS Code profile, the workspace, the results or the chat panel', async () => {
    const { wb, demo, page } = e2e();
    const keys = keysOfTheRun();
    assert.ok(keys.includes(DEMO_KEY) && keys.length >= 3, `keys of the run: ${keys.map(masked).join(', ')}`);

    // The chat panel open, so that its page is searched too.
    const chat = await wb.openChat();
    await chat.message().waitFor();
    const pageHits = await frameHits(page.frames(), keys);
    const stored = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
    pageHits.push(...scanBuffer(Buffer.from(stored, 'utf8'), keys, "the workbench page's localStorage"));

    // The whole profile folder: user data (settings, state databases, logs, storage),
    // extensions, the workspace, code-server's own log and config; and the run's results.
    const profileDir = path.dirname(demo.profile.userDataDir);
    const { hits, files, bytes } = scanFiles([profileDir, RESULTS], keys);
    console.log(`      searched ${files} files (${(bytes / 1e6).toFixed(1)} MB) and ${page.frames().length} frames for ${keys.length} keys`);
    assert.ok(files > 20, `the profile folder looks empty (${files} files under ${profileDir})`);

    assert.deepEqual([...hits, ...pageHits].map((h) => `${h.key} as ${h.encoding} in ${h.where}`), [], 'an API key was found');
  });
});
