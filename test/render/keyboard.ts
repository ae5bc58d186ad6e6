// The keyboard map of the conversation in Chromium, through the real webview bundle: Ctrl+Up from
// the message box to the newest message, Up / Down between messages (rendering those not rendered
// yet), Home to the first, Enter into a message and Tab to its code block's buttons, Escape back
// to the box, Down on the newest back to the box; every action of a message named; the keyboard
// stays on its message when the conversation is rendered again.
import type { Browser, Page } from 'playwright-core';
import { findConversation } from './find';
import { serveChatPanel, frames, give, type Recorder as Record } from './harness';

const TURNS = 40;

/** Where the keyboard is: the message box, an article (its first words) or a control (its name). */
const where = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    if (!a || a === document.body) return 'body';
    if (a.id === 'message') return 'box';
    if (a.matches('article.message')) return `article:${/^(Question|Answer) \d+/.exec(a.querySelector('.reply-body')?.textContent?.trim() ?? '')?.[0] ?? ''}`;
    return `${a.tagName.toLowerCase()}:${a.getAttribute('aria-label') ?? a.textContent?.trim().slice(0, 20) ?? ''}`;
  });

export async function keyboardChecks(browser: Browser, record: Record): Promise<void> {
  const group = 'keyboard';
  const panel = await serveChatPanel();
  const page = await browser.newPage({ viewport: { width: 800, height: 700 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(panel.url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
    const conversation = findConversation(TURNS);
    await give(page, conversation);
    await frames(page);
    await page.locator('textarea#message').focus();

    await page.keyboard.press('Control+ArrowUp');
    const newest = await where(page);
    record(group, 'Ctrl+Up in the message box goes to the newest message', newest === `article:Answer ${TURNS - 1}`, newest);
    const name = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    record(group, 'the message is read with its name', name === 'Assistant, swift-chat, 1 credit', String(name));

    const path: string[] = [];
    for (const key of ['ArrowUp', 'ArrowUp', 'ArrowDown', 'Control+ArrowDown', 'ArrowDown']) {
      await page.keyboard.press(key);
      path.push(await where(page));
    }
    record(group, 'Up / Down move between messages; Down on the newest goes back to the box',
      JSON.stringify(path) === JSON.stringify([`article:Question ${TURNS - 1}`, `article:Answer ${TURNS - 2}`, `article:Question ${TURNS - 1}`, `article:Answer ${TURNS - 1}`, 'box']), JSON.stringify(path));

    // Into the newest reply, through its link to its code block's buttons, and Copy.
    await page.keyboard.press('Control+ArrowUp');
    await page.keyboard.press('Enter');
    const inside: string[] = [await where(page)];
    for (let i = 0; i < 12 && !inside.at(-1)?.startsWith('pre:'); i++) {
      await page.keyboard.press('Tab');
      inside.push(await where(page));
    }
    for (let i = 0; i < 4 && inside.at(-1) !== 'button:Copy'; i++) {
      await page.keyboard.press('Shift+Tab');
      inside.push(await where(page));
    }
    record(group, 'Enter goes into the message, Tab on to its code block (its buttons and the code)', inside[0] === 'a:docs' && inside.includes('button:Apply to File') && inside.some((w) => w.startsWith('pre:')) && inside.at(-1) === 'button:Copy', JSON.stringify(inside));
    const before = await page.evaluate(() => (window as unknown as { __posted: unknown[] }).__posted.length);
    await page.keyboard.press('Enter');
    const copied = await page.evaluate((n) => (window as unknown as { __posted: Array<{ type: string; action?: string; code?: string }> }).__posted.slice(n), before);
    record(group, 'Enter on Copy copies that code block', copied.length === 1 && copied[0].action === 'copy' && copied[0].code === 'fruit = "pineapple"', JSON.stringify(copied));
    await page.keyboard.press('Escape');
    const back = await where(page);
    record(group, 'Escape in a message goes back to the box', back === 'box', back);

    // Every action of the newest messages has a name.
    const names = await page.evaluate(() => {
      const articles = [...document.querySelectorAll('article.message')];
      const buttons = articles.slice(-2).flatMap((a) => [...a.querySelectorAll('button')]);
      return buttons.map((b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim());
    });
    const wanted = ['Edit', 'Copy reply', 'Apply to File', 'Copy', 'Insert at Cursor', 'Open in New Editor'];
    record(group, 'every action of a message is a named button (edit, copy, fork, apply, insert)', wanted.every((w) => names.includes(w)) && names.some((n) => n.startsWith('Fork')) && names.every((n) => n.length > 0), JSON.stringify(names));

    // Home: the first message, rendered first (it was not).
    await page.keyboard.press('Control+ArrowUp');
    await page.keyboard.press('Home');
    await frames(page, 2);
    const first = await where(page);
    record(group, 'Home goes to the first message of the conversation, rendered first', first === 'article:Question 0', first);
    await page.keyboard.press('End');
    await frames(page, 2);
    const end = await where(page);
    record(group, 'End goes to the newest message', end === `article:Answer ${TURNS - 1}`, end);

    // "Go to Question" chose the 6th question (not rendered): rendered, on screen, with the keyboard.
    await give(page, [{ type: 'revealMessage', messageId: 'msg_00a' }]);
    await frames(page, 2);
    const chosen = await where(page);
    const onScreen = await page.evaluate(() => {
      const a = document.activeElement!.getBoundingClientRect();
      const box = document.querySelector('.messages')!.getBoundingClientRect();
      return a.top >= box.top - 1 && a.top < box.bottom;
    });
    record(group, 'a question chosen in "Go to Question" is rendered, brought into view and given the keyboard', chosen === 'article:Question 5' && onScreen, JSON.stringify({ chosen, onScreen }));
    await page.keyboard.press('End');
    await frames(page, 2);

    // The conversation rendered again (a whole state from the host): the keyboard stays on that message.
    await page.keyboard.press('ArrowUp');
    (conversation[1] as { version: number }).version = 2;
    await give(page, [conversation[1]]);
    await frames(page, 2);
    const kept = await where(page);
    record(group, 'a message that has the keyboard keeps it when it is rendered again', kept === `article:Question ${TURNS - 1}`, kept);
    // Leaving for the box and then a new render: the box keeps it.
    await page.locator('textarea#message').focus();
    (conversation[1] as { version: number }).version = 3;
    await give(page, [conversation[1]]);
    await frames(page, 2);
    const box = await where(page);
    record(group, 'the box keeps the keyboard when the conversation is rendered again', box === 'box', box);
    record(group, 'no page errors', errors.length === 0, errors.join('; ').slice(0, 300));
  } finally {
    await page.close();
    await panel.close();
  }
}
