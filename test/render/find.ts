// Find in chat in Chromium, through the real webview bundle: Ctrl+F opens the bar, matches are
// counted and highlighted in rendered Markdown and code, a match in a turn that is not rendered
// yet is rendered and brought into view, Enter / Shift+Enter / F3 move through the matches,
// case sensitivity changes the count, Escape closes it and gives the keyboard back to the box.
import type { Browser, Page } from 'playwright-core';
import { serveChatPanel, frames, give, type Recorder as Record } from './harness';

const TURNS = 80;
const hex = (n: number) => `msg_${n.toString(16).padStart(3, '0')}`;

/** A conversation where each word searched for is placed on purpose. */
export function findConversation(turns = TURNS): unknown[] {
  const messages: unknown[] = [];
  for (let i = 0; i < turns; i++) {
    const user = i === 3 ? 'Where did the zebracorn go?' : `Question ${i} about the common topic`;
    let reply = `Answer ${i}: the common topic again.\n\n| Col | Val |\n|-----|-----|\n| row | ${i} |\n\nSee [docs](https://example.com/${i}).`;
    if (i === 3) reply += '\n\n```ts\nconst zebracorn = findZebracorn();\n```';
    if (i === turns - 1) reply += '\n\nA **pineapple** here, and in code:\n\n```py\nfruit = "pineapple"\n```';
    messages.push({ id: hex(2 * i), role: 'user', content: user, status: 'complete' });
    messages.push({ id: hex(2 * i + 1), role: 'assistant', content: reply, status: 'complete', meta: { model: 'swift-chat', credits: 1 } });
  }
  return [
    {
      type: 'settings',
      settings: { models: [{ valueId: 'swift-chat', name: 'Swift Chat', cost: 1, usable: true }], modelsLoading: false, selectedModel: 'swift-chat', selectedModelCost: 1, search: false, temperature: 1, fontSize: 0, hasKey: true },
    },
    { type: 'conversation', conversation: { id: 'conv-find', title: 'Find', messages }, status: { busy: false }, version: 1 },
  ];
}

/** The most matches the find bar highlights at once (src/webview/find.ts). */
const MAX_HIGHLIGHTED = 2000;
const SAMPLE = 'const value = await fetchResource(endpoint, { retries: 3 });\n'; // 7 "e"s
const BIG_PER_MESSAGE = 40_000;
const BIG_MESSAGES = 3;
/** Matches of "e" (any case) in bigConversation. */
const BIG_MATCHES = BIG_PER_MESSAGE * 7 * BIG_MESSAGES;

/**
 * A conversation whose replies are long code blocks (as a log or a file pasted back): "e" occurs
 * 7 times a line, 840,000 times in all, all of it rendered.
 */
function bigConversation(): unknown[] {
  const messages: unknown[] = [];
  for (let i = 0; i < BIG_MESSAGES; i++) {
    messages.push({ id: hex(2 * i), role: 'user', content: `Part ${i + 1}?`.replace(/e/gi, ''), status: 'complete' });
    messages.push({ id: hex(2 * i + 1), role: 'assistant', content: '```\n' + SAMPLE.repeat(BIG_PER_MESSAGE) + '```', status: 'complete', meta: { model: 'swift-chat', credits: 1 } });
  }
  const [settings] = findConversation(1);
  return [settings, { type: 'conversation', conversation: { id: 'conv-find-big', title: 'Big', messages }, status: { busy: false }, version: 100 }];
}

/** What the find bar and the highlights show. */
const state = (page: Page) =>
  page.evaluate(() => {
    const bar = document.querySelector<HTMLElement>('.find-bar');
    const all = CSS.highlights.get('chat-find');
    const current = CSS.highlights.get('chat-find-current');
    const range = current ? ([...current][0] as Range | undefined) : undefined;
    const scroller = document.querySelector('.messages')!.getBoundingClientRect();
    const rect = range?.getBoundingClientRect();
    return {
      open: !!bar && !bar.hidden,
      focused: document.activeElement?.classList.contains('find-input') ?? false,
      count: bar?.querySelector('.find-count')?.textContent ?? '',
      highlighted: all ? all.size : 0,
      currentText: range?.toString() ?? '',
      inCode: !!range?.startContainer.parentElement?.closest('pre code'),
      inStrong: !!range?.startContainer.parentElement?.closest('strong'),
      article: range?.startContainer.parentElement?.closest('article')?.textContent?.slice(0, 60) ?? '',
      onScreen: !!rect && rect.height > 0 && rect.top >= scroller.top && rect.bottom <= scroller.bottom,
      rendered: document.querySelectorAll('article.message').length,
      rect: rect ? [Math.round(rect.top), Math.round(rect.bottom)] : null,
      box: [Math.round(scroller.top), Math.round(scroller.bottom)],
    };
  });

async function typeQuery(page: Page, text: string): Promise<void> {
  await page.locator('.find-input').fill(text);
  await frames(page, 2);
}

export async function findChecks(browser: Browser, record: Record): Promise<void> {
  const group = 'find';
  const panel = await serveChatPanel();
  const page = await browser.newPage({ viewport: { width: 800, height: 700 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(panel.url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
    await give(page, findConversation());
    await frames(page);
    const before = await state(page);

    // The workbench's frame passes a webview's keys on from its window (as VS Code's does).
    await page.evaluate(`window.addEventListener('keydown', (e) => (window.__passedOn ??= []).push((e.ctrlKey ? 'Ctrl+' : '') + e.key))`);
    const passedOn = () => page.evaluate<string[]>(`(window.__passedOn ?? []).slice()`);
    await page.locator('textarea#message').focus();
    await page.keyboard.press('Control+f');
    let s = await state(page);
    record(group, 'Ctrl+F opens the find bar with the keyboard in its field', s.open && s.focused, JSON.stringify(s));
    const heard = await passedOn();
    record(group, 'the Ctrl+F the chat handled is not passed on to the workbench (its Find in Chat would open the bar again)', !heard.some((k) => /^Ctrl\+f$/i.test(k)), JSON.stringify(heard));

    await typeQuery(page, 'pineapple');
    s = await state(page);
    record(group, 'a word in rendered Markdown (bold) and in a code block: both counted and highlighted', s.count === '2 of 2' && s.highlighted === 2 && s.currentText === 'pineapple' && s.onScreen, JSON.stringify(s));
    const first = { strong: s.inStrong, code: s.inCode };
    await page.keyboard.press('Enter');
    s = await state(page);
    const second = { strong: s.inStrong, code: s.inCode };
    record(group, 'the two matches are the one in bold and the one in code', (first.strong && second.code) || (first.code && second.strong), JSON.stringify({ first, second }));

    await typeQuery(page, 'common topic');
    s = await state(page);
    const total = Number(/of (\d+)/.exec(s.count)?.[1] ?? 0);
    const startAt = Number(/^(\d+)/.exec(s.count)?.[1] ?? 0);
    record(group, 'a phrase in every turn: counted over the whole conversation (rendered or not), starting at the newest on screen', total === 2 * TURNS - 1 && startAt === total, s.count);
    await page.keyboard.press('Shift+Enter');
    const up = (await state(page)).count;
    await page.keyboard.press('Shift+Enter');
    const up2 = (await state(page)).count;
    await page.keyboard.press('Enter');
    const down = (await state(page)).count;
    await page.keyboard.press('F3');
    const f3 = (await state(page)).count;
    await page.keyboard.press('Shift+F3');
    const shiftF3 = (await state(page)).count;
    record(group, 'Shift+Enter goes up, Enter down, F3 / Shift+F3 the same; the count follows', up === `${total - 1} of ${total}` && up2 === `${total - 2} of ${total}` && down === up && f3 === `${total} of ${total}` && shiftF3 === up, JSON.stringify([up, up2, down, f3, shiftF3]));
    await page.keyboard.press('Enter');
    const wrapped = (await state(page)).count;
    await page.keyboard.press('Enter');
    s = await state(page);
    record(group, 'after the last match comes the first (in the oldest turn, rendered and on screen)', wrapped === `${total} of ${total}` && s.count === `1 of ${total}` && s.onScreen && s.article.includes('Question 0'), JSON.stringify({ wrapped, s }));

    // The conversation again (as when it is reopened): only its newest turns are rendered.
    const again = findConversation();
    (again[1] as { version: number }).version = 2;
    await give(page, again);
    await frames(page);
    const unrendered = await page.evaluate(() => ![...document.querySelectorAll('article.message')].some((a) => a.textContent?.includes('zebracorn')));
    await page.locator('.find-input').focus();
    await typeQuery(page, 'zebracorn');
    // The turns around it are rendered in the frames after (the match stays on screen).
    await frames(page, 8);
    s = await state(page);
    record(group, 'a word only in a turn that was not rendered: counted from the text, rendered and brought into view', unrendered && before.rendered < 2 * TURNS && s.count.endsWith('of 3') && s.onScreen && s.currentText.toLowerCase() === 'zebracorn', JSON.stringify({ unrendered, before: before.rendered, ...s }));
    const codeSeen: boolean[] = [s.inCode];
    for (let i = 0; i < 2; i++) {
      await page.keyboard.press('Enter');
      s = await state(page);
      codeSeen.push(s.inCode);
    }
    record(group, 'in that turn, the matches in its code block are highlighted too (findZebracorn, the case differs)', codeSeen.filter(Boolean).length === 2 && s.highlighted === 3, JSON.stringify({ codeSeen, s }));

    await page.locator('.find-case').click();
    await frames(page, 2);
    s = await state(page);
    record(group, 'Match Case: "zebracorn" no longer matches "Zebracorn"', s.count.endsWith('of 2') && s.highlighted === 2, s.count);
    await page.locator('.find-case').click();
    await page.locator('.find-input').focus();

    await typeQuery(page, 'no such word anywhere');
    s = await state(page);
    record(group, 'no match: "No results", nothing highlighted', s.count === 'No results' && s.highlighted === 0, JSON.stringify(s));

    await typeQuery(page, 'zebracorn');
    await page.keyboard.press('Escape');
    s = await state(page);
    const box = await page.evaluate(() => document.activeElement?.id);
    record(group, 'Escape closes the bar, clears the highlights and gives the keyboard back to the message box', !s.open && s.highlighted === 0 && box === 'message', JSON.stringify({ s, box }));

    // A new turn while an old one is shown: the chat goes back to the newest, and the turn streams.
    await give(page, [
      { type: 'turnStarted', user: { id: hex(2 * TURNS), role: 'user', content: 'One more', status: 'complete' }, assistant: { id: hex(2 * TURNS + 1), role: 'assistant', content: '', status: 'streaming' }, status: { busy: true }, version: 3 },
      { type: 'streamChunk', messageId: hex(2 * TURNS + 1), offset: 0, text: 'Streamed reply', version: 4 },
      { type: 'turnEnded', message: { id: hex(2 * TURNS + 1), role: 'assistant', content: 'Streamed reply', status: 'complete' }, status: { busy: false }, version: 5 },
    ]);
    await frames(page, 4);
    const tail = await page.evaluate(() => {
      const articles = [...document.querySelectorAll('article.message')];
      const last = articles[articles.length - 1];
      const list = document.querySelector('.messages')!;
      return { last: last?.textContent ?? '', atBottom: list.scrollHeight - list.scrollTop - list.clientHeight < 10, previous: articles[articles.length - 3]?.textContent?.slice(0, 40) ?? '' };
    });
    record(group, 'a turn started while an old turn is shown: the newest messages are rendered again, the turn below them, on screen', tail.last.includes('Streamed reply') && tail.previous.includes(`Answer ${TURNS - 1}`) && tail.atBottom, JSON.stringify(tail));

    // The host's "Find in Chat" with a query.
    await give(page, [{ type: 'find', query: 'pineapple' }]);
    await frames(page, 2);
    s = await state(page);
    record(group, 'the host\'s "Find in Chat" opens the bar and searches', s.open && s.focused && s.count === '2 of 2', JSON.stringify(s));

    // A reply that streams while the bar is open: what it adds is counted (the text find read of it is read again).
    await typeQuery(page, 'kiwi');
    const none = (await state(page)).count;
    const settle = () => page.evaluate(() => new Promise((ok) => setTimeout(ok, 250))).then(() => frames(page, 2));
    await give(page, [
      { type: 'turnStarted', user: { id: hex(2 * TURNS + 2), role: 'user', content: 'Fruit?', status: 'complete' }, assistant: { id: hex(2 * TURNS + 3), role: 'assistant', content: '', status: 'streaming' }, status: { busy: true }, version: 6 },
      { type: 'streamChunk', messageId: hex(2 * TURNS + 3), offset: 0, text: 'A ripe kiwi and a pear', version: 7 },
    ]);
    await settle();
    const one = await state(page);
    await give(page, [{ type: 'streamChunk', messageId: hex(2 * TURNS + 3), offset: 22, text: ' with another kiwi', version: 8 }]);
    await settle();
    const two = await state(page);
    await give(page, [{ type: 'turnEnded', message: { id: hex(2 * TURNS + 3), role: 'assistant', content: 'A ripe kiwi and a pear with another kiwi', status: 'complete' }, status: { busy: false }, version: 9 }]);
    await settle();
    const ended = await state(page);
    record(
      group,
      'a reply streaming while the bar is open: its matches are counted and highlighted as they arrive',
      none === 'No results' && one.count === '1 of 1' && one.highlighted === 1 && /of 2$/.test(two.count) && two.highlighted === 2 && /of 2$/.test(ended.count) && ended.highlighted === 2,
      JSON.stringify({ none, one: [one.count, one.highlighted], two: [two.count, two.highlighted], ended: [ended.count, ended.highlighted] }),
    );
    await page.keyboard.press('Escape');
    record(group, 'no page errors', errors.length === 0, errors.join('; ').slice(0, 300));

    // A one-letter query in a long conversation: far more matches than can be highlighted.
    errors.length = 0;
    await give(page, bigConversation());
    await frames(page, 4);
    await page.locator('textarea#message').focus();
    await page.keyboard.press('Control+f');
    await typeQuery(page, 'e');
    s = await state(page);
    const big = { count: s.count, highlighted: s.highlighted, currentText: s.currentText, onScreen: s.onScreen };
    const bigTotal = Number(/of (\d+)$/.exec(s.count)?.[1] ?? 0);
    record(
      group,
      `more than 110,000 matches (a one-letter query): the count shows them all, at most ${MAX_HIGHLIGHTED} are highlighted, the current one on screen, nothing throws`,
      bigTotal === BIG_MATCHES && /^\d+ of /.test(s.count) && s.highlighted > 0 && s.highlighted <= MAX_HIGHLIGHTED && s.currentText === 'e' && errors.length === 0,
      JSON.stringify({ ...big, expected: BIG_MATCHES, errors: errors.join('; ').slice(0, 300) }),
    );
    await page.keyboard.press('Shift+Enter');
    await frames(page, 2);
    const upBig = await state(page);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await frames(page, 2);
    const downBig = await state(page);
    record(
      group,
      'in those matches, Shift+Enter and Enter move the current match and the count, the highlights stay capped',
      upBig.count === `${bigTotal - 1} of ${bigTotal}` && downBig.count === `1 of ${bigTotal}` && downBig.highlighted <= MAX_HIGHLIGHTED && upBig.currentText === 'e' && errors.length === 0,
      JSON.stringify({ up: [upBig.count, upBig.highlighted], down: [downBig.count, downBig.highlighted], errors: errors.join('; ').slice(0, 300) }),
    );
    await page.keyboard.press('Escape');
  } finally {
    await page.close();
    await panel.close();
  }
}
