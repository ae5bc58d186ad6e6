// The chat panel as a view of the host's state, in Chromium through the real webview bundle:
// until the host sent the conversation it says it is opening it (never "Ask anything" for a
// conversation that is not empty); a whole state older than the one shown is ignored; a change
// found missing makes it ask for the whole state (resync); a conversation that could not be
// brought up to date says so; over-long input stays in the box with a message.
import type { Browser, Page } from 'playwright-core';
import { MAX_TEXT } from '../../src/protocol';
import { serveChatPanel, frames, give, type Recorder as Record } from './harness';



const posted = (page: Page) => page.evaluate(() => (window as unknown as { __posted: Array<{ type: string; text?: string }> }).__posted.map((m) => ({ type: m.type, length: m.text?.length })));
const shown = (page: Page) =>
  page.evaluate(() => ({
    articles: [...document.querySelectorAll('article.message')].map((a) => a.textContent ?? ''),
    hints: [...document.querySelectorAll('.messages .empty-hint')].map((h) => h.textContent ?? ''),
  }));

const idle = { busy: false };
const msg = (id: string, role: 'user' | 'assistant', content: string) => ({ id, role, content, status: 'complete' });
const conv = (version: number, messages: unknown[], extra: object = {}) => ({ type: 'conversation', conversation: { id: 'conv-1', title: 't', messages }, status: idle, version, ...extra });

export async function surfaceChecks(browser: Browser, record: Record): Promise<void> {
  const group = 'surfaces';
  const panel = await serveChatPanel();
  const page = await browser.newPage({ viewport: { width: 600, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(panel.url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
    await frames(page);
    let s = await shown(page);
    record(group, 'before the host sent the conversation: "Opening the conversation…", not an empty chat', s.hints.some((h) => h.includes('Opening the conversation')) && !s.hints.some((h) => h.includes('Ask anything')), JSON.stringify(s.hints));

    // Nothing heard from the host: the page says `ready` again; once it hears anything, it stops.
    const readies = async () => (await posted(page)).filter((m) => m.type === 'ready').length;
    const askedAgain = await page
      .waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.filter((m) => m.type === 'ready').length >= 2, undefined, { timeout: 5_000 })
      .then(() => true, () => false);
    record(group, 'a page the host has not answered says ready again within 5 s', askedAgain, `${await readies()} ready`);
    await give(page, [{ type: 'queue', items: [], state: 'idle' }]);
    const heardAt = await readies();
    await page.waitForTimeout(4_500);
    record(group, 'once the host answered, the page asks no more', (await readies()) === heardAt, `${heardAt} then ${await readies()} ready`);

    await give(page, [conv(5, [msg('msg_000', 'user', 'Restored question'), msg('msg_001', 'assistant', 'Restored answer')])]);
    await frames(page);
    s = await shown(page);
    record(group, 'the conversation replaces the opening hint', s.articles.length === 2 && s.hints.length === 0, JSON.stringify(s));

    // An older whole state (e.g. one queued before a restore) does not replace the newer one.
    await give(page, [conv(3, [])]);
    await frames(page);
    s = await shown(page);
    record(group, 'a whole state older than the one shown is ignored', s.articles.length === 2 && !s.hints.some((h) => h.includes('Ask anything')), JSON.stringify(s));

    // A change already in the state shown is ignored; one after a missing change asks for the whole state.
    await give(page, [{ type: 'messageChanged', message: msg('msg_001', 'assistant', 'Older text'), version: 5 }]);
    await frames(page);
    s = await shown(page);
    record(group, 'a change already in the state shown is ignored', s.articles[1]?.includes('Restored answer') ?? false, s.articles[1]?.slice(0, 80));
    await give(page, [{ type: 'messageChanged', message: msg('msg_001', 'assistant', 'Changed after a gap'), version: 8 }]);
    await frames(page);
    const asked = (await posted(page)).filter((m) => m.type === 'resync').length;
    record(group, 'a change after a missing one asks the host for the whole state (resync)', asked === 1, `${asked} resync`);
    // The host's answer: the whole state at its version (the same as the last change), taken.
    await give(page, [conv(8, [msg('msg_000', 'user', 'Restored question'), msg('msg_001', 'assistant', 'Changed after a gap'), msg('msg_002', 'user', 'The missing turn')])]);
    await frames(page);
    s = await shown(page);
    record(group, 'the whole state sent for a resync is shown, even at the version of the last change', s.articles.length === 3 && s.articles[2].includes('The missing turn'), JSON.stringify(s.articles.map((a) => a.slice(0, 40))));

    // A conversation that could not be reopened: the chat says so instead of "Ask anything".
    await give(page, [{ ...conv(9, []), conversation: { id: 'conv-2', title: 'New Chat', messages: [] }, notice: 'The last conversation could not be reopened. Look for it in History.' }]);
    await frames(page);
    s = await shown(page);
    record(group, 'a conversation that could not be reopened says so', s.hints.some((h) => h.includes('could not be reopened')) && !s.hints.some((h) => h.includes('Ask anything')), JSON.stringify(s.hints));

    // Over-long input: nothing is sent, the text stays in the box, and the chat says why.
    const before = (await posted(page)).filter((m) => m.type === 'send').length;
    await page.evaluate((n) => {
      const box = document.querySelector('textarea#message') as HTMLTextAreaElement;
      box.value = 'y'.repeat(n);
      box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    }, MAX_TEXT + 1);
    await frames(page);
    const after = await page.evaluate(() => ({
      length: (document.querySelector('textarea#message') as HTMLTextAreaElement).value.length,
      error: document.querySelector('.send-error')?.textContent ?? '',
    }));
    const sends = (await posted(page)).filter((m) => m.type === 'send').length;
    record(group, 'over-long input is not sent and stays in the box', sends === before && after.length === MAX_TEXT + 1, `sends ${sends - before}, box ${after.length}`);
    record(group, 'over-long input: the chat says why', /too long/.test(after.error), after.error.slice(0, 120));
    // Within the limit it goes as before, and the box is emptied.
    await page.evaluate(() => {
      const box = document.querySelector('textarea#message') as HTMLTextAreaElement;
      box.value = 'A short question';
      box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    });
    await frames(page);
    const last = (await posted(page)).filter((m) => m.type === 'send').at(-1);
    const emptied = await page.evaluate(() => (document.querySelector('textarea#message') as HTMLTextAreaElement).value === '');
    record(group, 'input within the limit is sent and the box emptied', last?.length === 'A short question'.length && emptied, JSON.stringify(last));
    record(group, 'no page errors', errors.length === 0, errors.join('; ').slice(0, 300));
  } finally {
    await page.close();
    await panel.close();
  }
}
