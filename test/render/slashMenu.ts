// The `/` menu of the message box in Chromium, through the real webview bundle: `/` at the start of
// the box opens a listbox of the commands the host sent, filtered as the user types; Up / Down move
// (the box keeps the focus and names the current option with aria-activedescendant), Enter or Tab
// chooses (the `/name` leaves the box and the host is asked to expand it; nothing is sent), Escape
// closes; `/name words` + Enter chooses with those words. A prompt file's words are shown as text,
// never HTML. axe finds no serious or critical violation with the menu open (dark and light).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DARK_THEME, LIGHT_MODERN_THEME } from './axe';
import { ROOT, serveChatPanel, frames, give, type Recorder as Record } from './harness';

const AXE = readFileSync(resolve(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

const PROMPTS = {
  type: 'promptList',
  prompts: [
    { name: 'explain', description: 'Explain the selected code', source: 'built-in' },
    { name: 'fix', description: 'Fix the selected code', source: 'built-in' },
    { name: 'tests', description: 'Write tests for the selected code', source: 'built-in' },
    { name: 'new', description: 'Start a new chat', source: 'built-in' },
    {
      name: 'review',
      description: 'Review <img src=x onerror="window.__pwned=1"> the code',
      source: '.github/prompts/review.prompt.md',
      argumentHint: 'focus area',
      note: 'Not supported: tools, mode · Names the model chat-large',
    },
    { name: 'fix-issue', description: 'Fix a GitHub issue', source: '.claude/commands/fix-issue.md', argumentHint: '[issue-number]' },
    { name: 'broken', description: '', source: '.github/prompts/broken.prompt.md', error: '.github/prompts/broken.prompt.md: the front matter opened on line 1 is never closed with "---"' },
    { name: 'review:claude', description: 'Review (Claude)', source: '.claude/commands/review.md', note: '/review is taken by an earlier prompt' },
  ],
};

const START = [
  { type: 'settings', settings: { models: [{ valueId: 'swift-chat', name: 'Swift Chat', cost: 1, usable: true }], modelsLoading: false, selectedModel: 'swift-chat', selectedModelCost: 1, search: false, temperature: 1, fontSize: 0, hasKey: true } },
  { type: 'conversation', conversation: { id: 'c', title: 'New Chat', messages: [] }, status: { busy: false }, version: 1 },
  PROMPTS,
];

interface MenuState {
  open: boolean;
  names: string[];
  active: string | null;
  activeName: string | null;
  controls: string | null;
  box: string;
  focus: string;
  role: string | null;
  label: string | null;
  status: string;
}

const menu = (page: Page): Promise<MenuState> =>
  page.evaluate(() => {
    const box = document.querySelector('textarea#message') as HTMLTextAreaElement;
    const list = document.querySelector('#slash-menu');
    const host = list?.parentElement;
    const activeId = box.getAttribute('aria-activedescendant');
    const active = activeId ? document.getElementById(activeId) : null;
    return {
      open: !!host && !host.hidden && host.getClientRects().length > 0,
      names: [...document.querySelectorAll('#slash-menu [role="option"] .slash-name')].map((n) => n.textContent ?? ''),
      active: active?.querySelector('.slash-name')?.textContent ?? null,
      activeName: active?.textContent?.replace(/\s+/g, ' ').trim() ?? null,
      controls: box.getAttribute('aria-controls'),
      box: box.value,
      focus: document.activeElement === box ? 'box' : (document.activeElement?.tagName ?? 'none'),
      role: list?.getAttribute('role') ?? null,
      label: list?.getAttribute('aria-label') ?? null,
      status: document.querySelector('#slash-menu + .menu-status')?.textContent ?? '',
    };
  });

const posted = (page: Page, from: number) => page.evaluate((n) => (window as unknown as { __posted: Array<{ type: string; name?: string; args?: string; text?: string; model?: string }> }).__posted.slice(n).filter((m) => m.type !== 'draft' && m.type !== 'promptsWanted'), from);
/** How many times the page asked the host to read the prompt files again. */
const wanted = (page: Page) => page.evaluate(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.filter((m) => m.type === 'promptsWanted').length);
const count = (page: Page) => page.evaluate(() => (window as unknown as { __posted: unknown[] }).__posted.length);

export async function slashMenuChecks(browser: Browser, record: Record): Promise<void> {
  const group = 'slash menu';
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

    await page.keyboard.type('/');
    let s = await menu(page);
    record(group, '"/" at the start of the box opens the list of every command', s.open && s.names.length === PROMPTS.prompts.length && s.names[0] === '/explain', JSON.stringify(s.names));
    record(group, 'the list is a named listbox the box controls; the first option is current', s.role === 'listbox' && !!s.label && s.controls === 'slash-menu' && s.active === '/explain' && s.focus === 'box', JSON.stringify(s));
    record(group, 'the count is said in a status line', /8 commands/.test(s.status), s.status);
    const asked = await wanted(page);

    // The host read the files again and found a new one: the open list counts it at once.
    await give(page, [{ ...PROMPTS, prompts: [...PROMPTS.prompts, { name: 'release', description: 'Draft release notes', source: '.github/prompts/release.prompt.md' }] }]);
    await frames(page);
    s = await menu(page);
    record(group, 'opening the list asks the host once to read the prompt files again; the list it sends back is shown while open', asked === 1 && s.open && /9 commands/.test(s.status), JSON.stringify({ asked, status: s.status }));
    await give(page, [PROMPTS]);
    await frames(page);

    await page.keyboard.type('rev');
    s = await menu(page);
    record(group, 'typing filters: names starting with the text first', JSON.stringify(s.names) === JSON.stringify(['/review', '/review:claude']) && s.active === '/review', JSON.stringify(s.names));
    record(
      group,
      'an option is named with its name, argument hint, description, source and note',
      !!s.activeName && ['/review', 'focus area', 'Review', '.github/prompts/review.prompt.md', 'Not supported: tools, mode'].every((w) => s.activeName!.includes(w)),
      String(s.activeName),
    );
    const html = await page.evaluate(() => ({ imgs: document.querySelectorAll('#slash-menu img').length, pwned: (window as unknown as { __pwned?: number }).__pwned }));
    record(group, 'a prompt file\'s description is text, never HTML', html.imgs === 0 && html.pwned === undefined && (await page.locator('#slash-menu').textContent())!.includes('<img src=x'), JSON.stringify(html));

    await page.keyboard.press('ArrowDown');
    const down = (await menu(page)).active;
    await page.keyboard.press('ArrowDown');
    const wrapped = (await menu(page)).active;
    await page.keyboard.press('ArrowUp');
    const up = (await menu(page)).active;
    record(group, 'Down and Up move the current option (wrapping), the box keeps the focus', down === '/review:claude' && wrapped === '/review' && up === '/review:claude' && (await menu(page)).focus === 'box', JSON.stringify([down, wrapped, up]));

    await page.keyboard.press('Escape');
    s = await menu(page);
    record(group, 'Escape closes the list and keeps the text', !s.open && s.box === '/rev' && s.controls === null && s.active === null, JSON.stringify(s));
    await page.keyboard.press('Backspace');
    s = await menu(page);
    record(group, 'typing again opens it again (and asks for the files again; typing within the open list does not)', s.open && s.names.includes('/review') && (await wanted(page)) === 2, JSON.stringify({ names: s.names, asked: await wanted(page) }));

    let before = await count(page);
    await page.keyboard.press('Enter');
    let sent = await posted(page, before);
    s = await menu(page);
    record(group, 'Enter chooses the current option: the host is asked to expand it, nothing is sent', JSON.stringify(sent) === JSON.stringify([{ type: 'expandPrompt', name: 'review' }]) && !s.open && s.box === '', JSON.stringify({ sent, box: s.box }));

    // The host puts the expanded text in the box: editable, not sent.
    before = await count(page);
    await give(page, [{ type: 'insertPrompt', text: 'Review this code:\n\nconst a = 1;' }]);
    await frames(page);
    s = await menu(page);
    sent = await posted(page, before);
    record(group, 'the expanded text goes into the box, with the focus, and is not sent', s.box === 'Review this code:\n\nconst a = 1;' && s.focus === 'box' && !sent.some((m) => m.type === 'send') && !s.open, JSON.stringify({ box: s.box, sent }));

    // A prompt's own model: the cost line shows its name and price before sending (also after a
    // settings update), the send carries it once; an emptied box drops it.
    const cost = () => page.evaluate(() => document.querySelector('.composer-bar .cost')?.textContent ?? '');
    await box.fill('');
    await give(page, [{ type: 'insertPrompt', text: 'Review with the big model', model: { id: 'deep-think', label: 'Deep Think · 3 credits' } }]);
    await frames(page);
    const shownCost = await cost();
    await give(page, [START[0]]);
    await frames(page);
    const keptCost = await cost();
    before = await count(page);
    await page.keyboard.press('Enter');
    sent = await posted(page, before);
    await frames(page);
    const afterCost = await cost();
    record(
      group,
      "a prompt's own model: its name and price on the cost line, the send carries it, then the selected model's price again",
      shownCost === 'Next message: Deep Think · 3 credits' && keptCost === shownCost && sent.length === 1 && sent[0].type === 'send' && sent[0].model === 'deep-think' && afterCost === 'Next message: 1 credit',
      JSON.stringify({ shownCost, keptCost, sent, afterCost }),
    );
    await give(page, [{ type: 'insertPrompt', text: 'Again', model: { id: 'deep-think', label: 'Deep Think · 3 credits' } }]);
    await frames(page);
    await box.fill('');
    await page.keyboard.type('plain');
    before = await count(page);
    await page.keyboard.press('Enter');
    sent = await posted(page, before);
    record(group, "an emptied box drops the prompt's model: the next send goes to the selected one", (await cost()) === 'Next message: 1 credit' && sent.length === 1 && sent[0].model === undefined, JSON.stringify(sent));

    // Tab chooses too.
    await box.fill('');
    await page.keyboard.type('/te');
    before = await count(page);
    await page.keyboard.press('Tab');
    sent = await posted(page, before);
    record(group, 'Tab chooses the current option', JSON.stringify(sent) === JSON.stringify([{ type: 'expandPrompt', name: 'tests' }]) && (await menu(page)).focus === 'box', JSON.stringify(sent));

    // A command with words after it (the space closed the list): Enter chooses it with them.
    await page.keyboard.type('/fix-issue 42');
    s = await menu(page);
    before = await count(page);
    await page.keyboard.press('Enter');
    sent = await posted(page, before);
    record(group, '"/name words" + Enter asks for that command with its words', !s.open && JSON.stringify(sent) === JSON.stringify([{ type: 'expandPrompt', name: 'fix-issue', args: '42' }]), JSON.stringify({ open: s.open, sent }));

    // A broken file is listed with its error (choosing it lets the host say why).
    await page.keyboard.type('/bro');
    s = await menu(page);
    const broken = await page.evaluate(() => {
      const o = document.querySelector('#slash-menu [role="option"]');
      return { disabled: o?.getAttribute('aria-disabled'), error: o?.querySelector('.slash-error')?.textContent ?? '' };
    });
    record(group, 'a malformed prompt file is listed with its error, marked as not usable', s.names[0] === '/broken' && broken.disabled === 'true' && /never closed/.test(broken.error) && /Cannot be used/.test(s.activeName ?? ''), JSON.stringify(broken));

    // Nothing matches: the list says so, and Enter sends the text as it is.
    await box.fill('');
    await page.keyboard.type('/zzz');
    s = await menu(page);
    record(group, 'no match: the list says so', s.open && s.names.length === 0 && /No command matches/.test(s.status), s.status);
    before = await count(page);
    await page.keyboard.press('Enter');
    sent = await posted(page, before);
    record(group, 'no match: Enter sends the text as typed', sent.length === 1 && sent[0].type === 'send' && sent[0].text === '/zzz', JSON.stringify(sent));

    // "/" later in the text is just text; and the list changes when the host sends a new one.
    await box.fill('');
    await page.keyboard.type('a /');
    record(group, '"/" after other text opens nothing', !(await menu(page)).open);
    await box.fill('');
    await page.keyboard.type('/');
    await give(page, [{ type: 'promptList', prompts: [PROMPTS.prompts[0], { name: 'lint', description: 'Lint it', source: '.github/prompts/lint.prompt.md' }] }]);
    await frames(page);
    s = await menu(page);
    record(group, 'a new list from the host (a file changed) is shown at once', JSON.stringify(s.names) === JSON.stringify(['/explain', '/lint']), JSON.stringify(s.names));

    // Many commands: a window of 8 options follows the current one; each says its place in all.
    const many = Array.from({ length: 30 }, (_, i) => ({ name: `p${String(i).padStart(2, '0')}`, description: `Prompt ${i}`, source: `.github/prompts/p${i}.prompt.md` }));
    await box.fill('');
    await give(page, [{ type: 'promptList', prompts: many }]);
    await page.keyboard.type('/p');
    // The new list is in the menu (it may arrive after the keys: the open menu follows it).
    await page.waitForFunction(() => document.querySelector('#slash-menu [role="option"] .slash-name')?.textContent === '/p00', undefined, { timeout: 10_000 }).catch(() => undefined);
    for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowDown');
    const windowed = await page.evaluate(() => {
      const box = document.querySelector('textarea#message')!;
      const current = document.getElementById(box.getAttribute('aria-activedescendant') ?? '');
      return {
        options: document.querySelectorAll('#slash-menu [role="option"]').length,
        current: current?.querySelector('.slash-name')?.textContent,
        selected: current?.getAttribute('aria-selected'),
        place: `${current?.getAttribute('aria-posinset')}/${current?.getAttribute('aria-setsize')}`,
      };
    });
    record(group, '30 commands: 8 options shown, the current one among them with its place (13 of 30)', windowed.options === 8 && windowed.current === '/p12' && windowed.selected === 'true' && windowed.place === '13/30', JSON.stringify(windowed));
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Escape');
    record(group, 'no page errors', errors.length === 0, errors.join('; ').slice(0, 300));
  } finally {
    await page.close();
  }

  // axe with the list open, in a dark and a light theme.
  for (const [theme, colours, bodyClass] of [['dark', DARK_THEME, 'vscode-dark'], ['light', LIGHT_MODERN_THEME, 'vscode-light']] as const) {
    const p = await browser.newPage({ viewport: { width: 420, height: 700 } });
    try {
      await p.goto(panel.url);
      await p.addStyleTag({ content: colours });
      await p.evaluate((c) => document.body.classList.add(c), bodyClass);
      await p.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
      await give(p, START);
      await frames(p, 4);
      await p.locator('textarea#message').focus();
      await p.keyboard.type('/');
      await p.keyboard.press('ArrowDown');
      await p.addScriptTag({ content: AXE });
      const bad = await p.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
        const result = await axe.run(document, { resultTypes: ['violations'] });
        return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}, ${v.nodes[0]?.target.join(' ')})`);
      });
      record(group, `axe, ${theme}, the list open: no violation of impact serious or critical`, bad.length === 0, bad.join('; '));
    } finally {
      await p.close();
    }
  }
  await panel.close();
}
