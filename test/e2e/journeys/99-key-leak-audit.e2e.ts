// Key-leak audit, after every other journey: the API keys typed during the run appear nowhere in
// the code-server profile (settings, state databases and their WAL/journal files, logs, global and
// workspace storage, the demo folder, exported files) nor in any frame of the page, in any
// encoding the scanner knows (test/unit/security/keyAudit.test.ts proves it finds each one).
//
// Nothing is excluded. The key itself lives in SecretStorage, which code-server keeps in the
// page's localStorage ("secrets.provider"), encrypted with a key the page gets from the server
// (code-server's secret storage since 4.17): no file of the profile holds it, and the page's
// localStorage is searched like the rest: a key readable there is a leak too.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { DEMO_KEY } from '../../server/fixtures';
import { keysInText, keysUsedBy, scanForKeys } from '../keyAudit';
import { ROOT } from '../launcher';
import { RESULTS, e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer } from '../steps';
import { Chat, provesNothingHappensFor, waitFor } from '../workbench';

function e2eSources(): string[] {
  const dir = path.join(ROOT, 'test', 'e2e');
  const journeys = path.join(dir, 'journeys');
  return [
    ...readdirSync(journeys).map((n) => path.join(journeys, n)),
    ...readdirSync(dir).filter((n) => n.endsWith('.ts')).map((n) => path.join(dir, n)),
  ];
}

describe('Journey 99: key-leak audit', () => {
  it('no API key used in the run is in the profile, the demo folder or the page', async function () {
    this.timeout(180_000);
    const { wb, page, demo } = e2e();
    const keys = keysUsedBy(e2eSources(), [DEMO_KEY]);
    assert.ok(keys.includes(DEMO_KEY) && keys.length >= 2, `keys of the run: ${keys.length}`);

    // One more turn with the key set, the conversation exported, then a reload so that VS Code
    // writes its state databases.
    resetServer(0);
    await readyWithKey();
    await wb.openChat();
    // Opening the chat in the editor moves it out of the side bar, where the previous journeys
    // left it: ask in the frame that stays.
    const chat = await wb.settledChat();
    await chat.waitForState(() => true, 'the chat in the editor never heard from the extension');
    await chat.ask('A last question before the audit');
    // Export Chat asks for the format: Markdown (the lossless file asks where to save it).
    await wb.runCommandAndPick('AI Chat: Export Chat', 'Markdown');
    // The export is a Markdown document that takes the focus when it opens: the next command's
    // palette is opened once it has, or the opening editor would close that palette. A
    // conversation of more than one turn is first asked which turns: the whole conversation.
    const markdownOpen = page.locator('[id="status.editor.mode"]', { hasText: 'Markdown' }).first();
    const whole = wb.quickPickRows().filter({ hasText: 'Whole conversation' }).first();
    await markdownOpen.or(whole).first().waitFor({ timeout: 30_000 });
    if (await whole.isVisible()) await whole.click();
    await markdownOpen.waitFor({ timeout: 30_000 });

    // Every frame of the page (the workbench, the chat webview and its inner frame): HTML and the
    // values of inputs and text areas, which the HTML does not show.
    const texts: string[] = [];
    for (const f of page.frames()) {
      if (f.isDetached()) continue;
      try {
        texts.push(
          await f.evaluate(() => {
            const values = [...document.querySelectorAll('input, textarea')].map((e) => (e as HTMLInputElement).value);
            return `${document.documentElement.outerHTML}\n${values.join('\n')}`;
          }),
        );
      } catch {
        /* a frame navigating away */
      }
    }
    assert.ok(texts.length >= 3, `frames read: ${texts.length}`);
    assert.ok(texts.some((t) => t.includes('A last question before the audit')), 'the chat webview was among the frames read');
    assert.deepEqual(keysInText(texts.join('\n'), keys), [], 'a key is in the page');
    const stored = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
    assert.deepEqual(keysInText(stored, keys), [], "a key is readable in the page's localStorage");

    // The key pasted into the message box by mistake and Enter pressed: nothing goes to the
    // service, the box gets it back and says why; the window is then reloaded with the key still
    // in the box, and the scan below finds it in no file (the draft is kept on disk otherwise).
    // In the side bar, where a new user has the chat.
    await wb.runCommand('AI Chat: Move Chat to Side Bar');
    await page.locator('.part.sidebar .composite.title', { hasText: 'AI Chat' }).first().waitFor({ timeout: 30_000 });
    const side = new Chat(wb, await wb.chatFrame());
    const pasted = `Is this key right? ${DEMO_KEY}`;
    const requestsBefore = chatRequests().length;
    await side.message().fill(pasted);
    await side.message().press('Enter');
    await waitFor(async () => (await side.alertTexts()).some((t) => /^This message holds your AI Chat API key/.test(t)), 'the message with the key was not refused');
    await waitFor(async () => (await side.alertTexts()).some((t) => /^The message box holds your AI Chat API key/.test(t)), 'the box does not say it holds the key');
    assert.equal(chatRequests().length, requestsBefore, 'the message with the key went to the service');
    assert.equal(await side.message().inputValue(), pasted, 'the refused text is back in the box');

    // Developer: Reload Window: the workbench saves its layout and the webview's state first (a
    // page reload may come back to an older layout). The box is read once the conversation is
    // back, after the webview put back whatever draft was saved for it.
    await wb.reloadWindow();
    const reopened = new Chat(wb, await wb.chatFrame());
    await waitFor(async () => (await reopened.transcript()).some((t) => t.includes('A last question before the audit')), 'the conversation did not come back after the reload', 30_000);
    await provesNothingHappensFor(1_000, 'the box does not get the key back (the draft is not put back with it)');
    assert.ok(await page.locator('.part.sidebar .composite.title', { hasText: 'AI Chat' }).first().isVisible(), 'the chat is in the side bar after the reload');
    assert.ok(!(await reopened.message().inputValue()).includes(DEMO_KEY), 'the box holds the key again after the reload');
    // The whole profile folder (user data, extensions, the demo folder, code-server's log and
    // config) and the run's results (screenshots, the logs kept for failures).
    const roots = [path.dirname(demo.profile.userDataDir), RESULTS];
    const hits = scanForKeys(roots, keys).map((h) => `${path.relative(path.dirname(demo.profile.userDataDir), h.file)} (${h.encoding})`);
    assert.deepEqual(hits, [], `the key was found in:\n${hits.join('\n')}`);
  });
});
