// The `#` menu of the message box in Chromium, through the real webview bundle: `#` at the start of
// the box or after a space asks the host what can be attached for the `#word` typed (each question
// numbered); the host's answer opens a listbox the box keeps the focus over; a late answer to an
// older question is dropped, a second answer to the same one (the symbols) keeps the current option;
// Enter chooses: the `#word` leaves the box and the host is asked for that option of that answer,
// with the box's text; Escape closes; a `#` inside a word opens nothing. Options are text, never HTML.
import type { Browser, Page } from 'playwright-core';
import { serveChatPanel, frames, give, type Recorder as Record } from './harness';

const START = [
  { type: 'settings', settings: { models: [{ valueId: 'swift-chat', name: 'Swift Chat', cost: 1, usable: true }], modelsLoading: false, selectedModel: 'swift-chat', selectedModelCost: 1, search: false, temperature: 1, fontSize: 0, hasKey: true } },
  { type: 'conversation', conversation: { id: 'c', title: 'New Chat', messages: [] }, status: { busy: false }, version: 1 },
];

type Posted = { type: string; seq?: number; query?: string; kind?: string; label?: string; question?: string; text?: string };

const searches = (page: Page) => page.evaluate(() => (window as unknown as { __posted: Posted[] }).__posted.filter((m) => m.type === 'contextSearch' || m.type === 'contextChoose' || m.type === 'send'));

const menu = (page: Page) =>
  page.evaluate(() => {
    const box = document.querySelector('textarea#message') as HTMLTextAreaElement;
    const list = document.querySelector('#hash-menu');
    const activeId = box.getAttribute('aria-activedescendant');
    return {
      open: !!list && !(list.parentElement as HTMLElement).hidden,
      labels: [...document.querySelectorAll('#hash-menu [role="option"]')].map((o) => o.textContent ?? ''),
      active: activeId ? (document.getElementById(activeId)?.textContent ?? null) : null,
      controls: box.getAttribute('aria-controls'),
      box: box.value,
      focus: document.activeElement === box,
      status: list?.parentElement?.querySelector('.menu-status')?.textContent ?? '',
    };
  });

const ACTIONS = [
  { kind: 'action', icon: 'search-fuzzy', label: 'codebase', detail: 'files for the question, found on this machine, nothing sent' },
  { kind: 'action', icon: 'file', label: 'file', detail: 'the current file' },
  { kind: 'action', icon: 'git-compare', label: 'changes', detail: 'the working tree\'s changes (git diff)' },
];

export async function hashMenuChecks(browser: Browser, record: Record): Promise<void> {
  const group = 'hash menu';
  const panel = await serveChatPanel();
  const page = await browser.newPage({ viewport: { width: 500, height: 700 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(panel.url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
    await give(page, START);
    await frames(page);
    const box = page.locator('textarea#message');
    await box.focus();

    await page.keyboard.type('Where is #');
    let asked = await searches(page);
    const first = asked.at(-1);
    record(group, '"#" after a space asks the host for the options of an empty word', first?.type === 'contextSearch' && first.query === '' && typeof first.seq === 'number', JSON.stringify(asked));
    await give(page, [{ type: 'contextOptions', seq: first?.seq ?? 0, options: ACTIONS }]);
    await frames(page);
    let s = await menu(page);
    record(group, 'the answer opens a listbox the box controls, the first option current, the focus in the box', s.open && s.labels.length === 3 && s.controls === 'hash-menu' && /#codebase/.test(s.active ?? '') && s.focus, JSON.stringify(s));

    await page.keyboard.type('pri');
    asked = await searches(page);
    const typed = asked.at(-1);
    record(group, 'each letter asks again with the word typed, numbered after the last', typed?.query === 'pri' && (typed.seq ?? 0) > (first?.seq ?? 0), JSON.stringify(typed));
    // A late answer to an older question changes nothing.
    await give(page, [{ type: 'contextOptions', seq: first?.seq ?? 0, options: [ACTIONS[2]] }]);
    await frames(page);
    s = await menu(page);
    record(group, 'an answer to an older word is dropped', s.labels.length === 3, JSON.stringify(s.labels));

    const files = [
      { kind: 'file', icon: 'file', label: 'pricing.ts', detail: 'src/pricing.ts' },
      { kind: 'folder', icon: 'folder', label: 'src/prices' },
      { kind: 'file', icon: 'file', label: '<img src=x onerror="window.__pwned=1">.ts', detail: 'odd/<b>name</b>.ts' },
    ];
    await give(page, [{ type: 'contextOptions', seq: typed?.seq ?? 0, options: files, pending: true }]);
    await frames(page);
    s = await menu(page);
    record(group, 'files and folders are listed, and the status says symbols are still coming', s.labels.length === 3 && /pricing\.ts/.test(s.labels[0]) && /Looking for symbols/.test(s.status), JSON.stringify(s));
    const html = await page.evaluate(() => ({ imgs: document.querySelectorAll('#hash-menu img, #hash-menu b').length, pwned: (window as unknown as { __pwned?: number }).__pwned }));
    record(group, 'a file\'s name is text, never HTML', html.imgs === 0 && html.pwned === undefined, JSON.stringify(html));
    await page.keyboard.press('ArrowDown');
    const symbol = { kind: 'symbol', icon: 'symbol-method', label: 'priceOf', detail: 'src/pricing.ts:12' };
    await give(page, [{ type: 'contextOptions', seq: typed?.seq ?? 0, options: [symbol, ...files] }]);
    await frames(page);
    s = await menu(page);
    record(group, 'the second answer (with the symbols) keeps the option the user moved to current, though it moved in the list', s.labels.length === 4 && /priceOf/.test(s.labels[0]) && /src\/prices/.test(s.active ?? '') && !/Looking/.test(s.status), JSON.stringify(s));

    await page.keyboard.press('Enter');
    asked = await searches(page);
    const chosen = asked.at(-1);
    s = await menu(page);
    record(
      group,
      'Enter takes the "#word" out of the box and asks the host for that option of that answer, with the box\'s text',
      chosen?.type === 'contextChoose' && chosen.seq === typed?.seq && chosen.kind === 'folder' && chosen.label === 'src/prices' && chosen.question === 'Where is ' && s.box === 'Where is ' && !s.open && s.focus,
      JSON.stringify({ chosen, s }),
    );

    await page.keyboard.type('#zz');
    asked = await searches(page);
    await give(page, [{ type: 'contextOptions', seq: asked.at(-1)?.seq ?? 0, options: [] }]);
    await frames(page);
    s = await menu(page);
    record(group, 'nothing matches: the status says so', s.open && s.labels.length === 0 && /Nothing matches/.test(s.status), JSON.stringify(s));
    const escaped = (await searches(page)).at(-1)?.seq ?? 0;
    await page.keyboard.press('Escape');
    s = await menu(page);
    record(group, 'Escape closes the list and keeps the text', !s.open && s.box === 'Where is #zz' && s.controls === null, JSON.stringify(s));
    await give(page, [{ type: 'contextOptions', seq: escaped, options: [files[0]] }]);
    await frames(page);
    record(group, 'an answer still on its way after Escape does not open the list again', !(await menu(page)).open);

    // "fix #123": a loose match is current, nothing was moved to: Enter sends the message.
    await box.fill('');
    await page.keyboard.type('fix #123');
    const loose = (await searches(page)).at(-1);
    await give(page, [{ type: 'contextOptions', seq: loose?.seq ?? 0, options: [{ kind: 'file', icon: 'file', label: 'a1b2c3.ts', detail: 'src/a1b2c3.ts' }] }]);
    await frames(page);
    const openBefore = (await menu(page)).open;
    await page.keyboard.press('Enter');
    const after = (await searches(page)).at(-1);
    record(group, 'Enter on a word only loosely matched ("fix #123") sends the message', openBefore && after?.type === 'send' && after.text === 'fix #123', JSON.stringify({ openBefore, after }));

    // The caret moved out of the word: the list closes; Enter then sends.
    await page.keyboard.type('#pri');
    const moving = (await searches(page)).at(-1);
    await give(page, [{ type: 'contextOptions', seq: moving?.seq ?? 0, options: files }]);
    await frames(page);
    const openThen = (await menu(page)).open;
    await page.keyboard.press('Home');
    await frames(page);
    record(group, 'the caret moved out of the #word (Home) closes the list', openThen && !(await menu(page)).open, JSON.stringify({ openThen }));

    await box.fill('');
    const before = (await searches(page)).length;
    await page.keyboard.type('issue#12 and a#b');
    record(group, 'a "#" inside a word asks nothing', (await searches(page)).length === before, JSON.stringify((await searches(page)).slice(before)));
    // The + button: a `#` at the caret opens the same list; left unused, the `#` goes again.
    await box.fill('Explain');
    const plus = page.getByRole('button', { name: 'Attach to the next message' });
    await plus.click();
    const fromPlus = (await searches(page)).at(-1);
    s = await menu(page);
    record(group, 'the + button puts "#" after the text (with a space) and asks the host for the options of an empty word', fromPlus?.type === 'contextSearch' && fromPlus.query === '' && s.box === 'Explain #' && s.focus, JSON.stringify({ fromPlus, s }));
    await give(page, [{ type: 'contextOptions', seq: fromPlus?.seq ?? 0, options: ACTIONS }]);
    await frames(page);
    const openedByPlus = (await menu(page)).open;
    await page.keyboard.press('Escape');
    s = await menu(page);
    record(group, 'Escape on the list the + button opened closes it and takes its "#" out again', openedByPlus && !s.open && s.box === 'Explain' && s.focus, JSON.stringify({ openedByPlus, s }));
    await plus.click();
    const again = (await searches(page)).at(-1);
    await give(page, [{ type: 'contextOptions', seq: again?.seq ?? 0, options: ACTIONS }]);
    await frames(page);
    await page.keyboard.press('Enter');
    const picked = (await searches(page)).at(-1);
    s = await menu(page);
    record(
      group,
      'Enter on the list the + button opened chooses the first option, and the box is as it was',
      picked?.type === 'contextChoose' && picked.kind === 'action' && picked.label === 'codebase' && picked.question === 'Explain' && s.box === 'Explain' && !s.open,
      JSON.stringify({ picked, s }),
    );
    record(group, 'no page errors', errors.length === 0, errors.join('; ').slice(0, 300));
  } finally {
    await page.close();
    await panel.close();
  }
}
