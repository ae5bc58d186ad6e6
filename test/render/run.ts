// Render safety test: bundles the REAL reply renderer (src/webview/render) into a test page,
// serves it from 127.0.0.1 with a CSP like the chat panel's, and drives it in headless Debian
// Chromium. Every hostile reply of the corpus is rendered whole (setText) and streamed in small
// chunks (append, frame by frame), once under the CSP and once without any CSP (so that the
// sanitizer alone is shown to hold). After each it asserts: no script ran (window.__pwned, no
// dialog, no CSP violation), no request left the page, no dangerous element/attribute/URL in the
// DOM (checked after every streamed frame too), link clicks never navigate and only offer http(s)
// URLs to the host. Then positive checks: tables, highlighting, task lists, code toolbar, link
// and copy hooks, keyboard access, streaming of open fences/tables, scroll following, announcements.
// Prints per-group results and ends with "N passed, N failed".
import type { Page } from 'playwright-core';
import { HOSTILE_CASES, type HostileCase } from './corpus';
import { bundle, launchChromium, servePage, type PageServer } from './harness';
import { cardChecks } from './cards';
import { streamPartChecks } from './streamParts';
import { noticeChecks } from './notices';
import { windowingChecks } from './windowing';
import { contextMeterChecks } from './contextMeter';
import { summaryCardChecks } from './summaryCard';
import { surfaceChecks } from './surfaces';
import { findChecks } from './find';
import { branchChecks } from './branches';
import { screenReaderChecks } from './screenReader';
import { axeChecks } from './axe';
import { keyboardChecks } from './keyboard';
import { hashMenuChecks } from './hashMenu';
import { slashMenuChecks } from './slashMenu';
import { sendErrorChecks } from './sendErrors';
import { narrowChecks } from './narrow';
import { exportPageChecks } from './exportPage';
import { inlineStreamChecks } from './inlineStream';
import { languageChecks } from './languages';
import { FIXTURES, randomDocument, rng } from '../unit/render/fixtures';
import { generateReply } from '../../bench/render/generate';

interface Outcome {
  group: string;
  name: string;
  ok: boolean;
  detail?: string;
}

const outcomes: Outcome[] = [];
const record = (group: string, name: string, ok: boolean, detail?: string) => outcomes.push({ group, name, ok, detail });

/** Deterministic chunking: sizes 1..7, fewer chunks for huge inputs. */
function chunksOf(text: string, seed: number): string[] {
  let s = seed >>> 0;
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 16) / 65536;
  const minSize = Math.ceil(text.length / 150);
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const n = Math.max(minSize, 1 + Math.floor(next() * 7));
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

interface Probe {
  page: Page;
  dialogs: string[];
  foreignRequests: string[];
  navigations: string[];
  pageErrors: string[];
}

async function openProbe(server: PageServer, url: string, browser: Awaited<ReturnType<typeof launchChromium>>): Promise<Probe> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const probe: Probe = { page, dialogs: [], foreignRequests: [], navigations: [], pageErrors: [] };
  await context.route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (u.origin === server.origin && server.ownPaths.has(u.pathname)) return route.continue();
    probe.foreignRequests.push(route.request().url().slice(0, 120));
    return route.abort();
  });
  page.on('dialog', (d) => {
    probe.dialogs.push(d.message());
    void d.dismiss().catch(() => undefined);
  });
  page.on('pageerror', (e) => probe.pageErrors.push(String(e).slice(0, 200)));
  await page.goto(url);
  await page.waitForFunction(() => !!window.renderTest);
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) probe.navigations.push(f.url());
  });
  return probe;
}

interface CaseResult {
  violations: string[];
  links: { clicked: number; offered: string[]; defaultNotPrevented: number };
  text: string;
}

async function runHostile(probe: Probe, variant: string, c: HostileCase, index: number): Promise<void> {
  const { page } = probe;
  const startUrl = page.url();
  for (const mode of ['whole', 'streamed'] as const) {
    const before = {
      dialogs: probe.dialogs.length,
      requests: probe.foreignRequests.length,
      navigations: probe.navigations.length,
    };
    const failures: string[] = [];
    let result: CaseResult | undefined;
    try {
      result =
        mode === 'whole'
          ? await page.evaluate((text) => window.renderTest.whole(text), c.text)
          : await page.evaluate(
              ([chunks]) => window.renderTest.streamed(chunks, 2),
              [c.chunks ?? chunksOf(c.text, index * 31 + 7)] as const,
            );
    } catch (err) {
      failures.push(`render threw: ${String(err).slice(0, 200)}`);
    }
    // Let anything asynchronous (load/error events, timers) happen before judging.
    await page.evaluate(() => new Promise((ok) => setTimeout(ok, 20)));
    const state = await page.evaluate(() => ({ pwned: window.__pwned, csp: window.__cspViolations.length, url: location.href }));
    if (result) {
      failures.push(...result.violations);
      if (result.links.defaultNotPrevented) failures.push(`${result.links.defaultNotPrevented} link click(s) not prevented`);
      const badOffers = result.links.offered.filter((h) => !/^https?:\/\//i.test(h));
      if (badOffers.length) failures.push(`offered non-http links: ${badOffers.join(' ').slice(0, 120)}`);
      if (result.text !== (mode === 'whole' ? c.text : (c.chunks ?? [c.text]).join(''))) failures.push('text() differs from the input');
    }
    if (state.pwned !== undefined) failures.push('script ran (window.__pwned set)');
    if (state.csp) failures.push(`${state.csp} CSP violation(s)`);
    if (state.url !== startUrl) failures.push(`location changed to ${state.url}`);
    if (probe.dialogs.length > before.dialogs) failures.push(`dialog opened: ${probe.dialogs.slice(before.dialogs).join(', ')}`);
    if (probe.foreignRequests.length > before.requests) failures.push(`network request: ${probe.foreignRequests.slice(before.requests).join(' ')}`);
    if (probe.navigations.length > before.navigations) failures.push(`navigation: ${probe.navigations.slice(before.navigations).join(' ')}`);
    record(c.group, `${c.name} [${mode}, ${variant}]`, failures.length === 0, failures.join('; '));
  }
}

const POSITIVE_MD = [
  '# Report',
  '',
  'See [the docs](https://example.com/docs) and https://example.com/auto.',
  '',
  '| Name | Qty |',
  '|:-----|----:|',
  '| apple | 3 |',
  '| pear | 10 |',
  '',
  '- [x] done task',
  '- [ ] open task',
  '',
  '```ts',
  'const answer: number = 42;',
  '```',
  '',
  'The end.',
].join('\n');

/**
 * The streaming tail built from markdown-it's tokens (tokenDom.ts) against the same text through
 * markdown-it's HTML and the sanitizer, on every few characters of real-shaped replies, the
 * block-boundary fixtures and the hostile corpus: no difference, and the builder is what runs.
 */
async function tailBuilderChecks(page: Page): Promise<void> {
  const G = 'tail builder';
  const run = async (name: string, texts: string[], step: number, minBuiltShare: number, maxPrefixes = 300, plainCode = true) => {
    try {
      const r = await page.evaluate(([t, s, m, p]) => window.renderTest.tailBuilder(t, s, m, p), [texts, step, maxPrefixes, plainCode] as const);
      const share = r.built / r.compared;
      const detail = `${r.compared} prefixes: ${r.built} built, ${r.fallback} left to the sanitizer, ${r.differs} differ`;
      if (r.differs) record(G, name, false, `${detail}; first: ${r.first}`);
      else record(G, name, share >= minBuiltShare, share >= minBuiltShare ? undefined : `${detail} (the builder took under ${minBuiltShare * 100}%)`);
    } catch (err) {
      record(G, name, false, String(err).slice(0, 300));
    }
  };
  const generated = [generateReply(12 * 1024, 7), generateReply(12 * 1024, 8)];
  await run('generated replies (prose, lists, tasks, tables, code, quotes): built from tokens, equal to the sanitized render', generated, 11, 0.99);
  await run('block-boundary fixtures: equal to the sanitized render', Object.values(FIXTURES), 3, 0.9);
  const random = rng(11);
  await run('random documents of fixture pieces: equal to the sanitized render', Array.from({ length: 6 }, () => randomDocument(random)), 7, 0.9);
  await run('hostile replies (raw HTML, link schemes, entities, controls): equal to the sanitized render', HOSTILE_CASES.map((c) => c.text), 3, 0.5, 30);
  await run('the positive reply (links, table, task list, code): equal to the sanitized render', [POSITIVE_MD], 1, 0.99);
  // Finished blocks: the same builder unless highlighted code is in them.
  const prose = generated.map((t) => t.split(/\n\n/).filter((b) => !b.startsWith('```')).join('\n\n'));
  await run('finished blocks without code: built from tokens, equal to the sanitized render', prose, 11, 0.99, 300, false);
  await run('finished blocks with code: equal to the sanitized render', [...generated, ...Object.values(FIXTURES)], 13, 0, 300, false);
  try {
    const r = await page.evaluate(() => window.renderTest.tailBuilder(['```ts\nconst a = 1;\n```\n'], 100, 1, false));
    record(G, 'a finished code block is highlighted the sanitized way (the builder leaves it)', r.built === 0 && r.fallback === 1 && r.differs === 0, JSON.stringify(r));
  } catch (err) {
    record(G, 'a finished code block is highlighted the sanitized way (the builder leaves it)', false, String(err).slice(0, 300));
  }
  // An image is the sanitized way's (the builder leaves it), and still the same nodes.
  await run('an image in the tail is left to the sanitizer', ['Look: ![diagram](https://example.com/d.png) here'], 100, 0);
  try {
    const r = await page.evaluate(() => window.renderTest.tailBuilder(['![diagram](https://example.com/d.png)'], 100));
    record(G, 'an image is not built from tokens (the fallback runs)', r.built === 0 && r.fallback === 1, JSON.stringify(r));
  } catch (err) {
    record(G, 'an image is not built from tokens (the fallback runs)', false, String(err).slice(0, 300));
  }
}

async function positive(probe: Probe): Promise<void> {
  const { page } = probe;
  const G = 'positive';
  const check = async (name: string, fn: () => Promise<boolean | string>) => {
    try {
      const r = await fn();
      record(G, name, r === true, r === true ? undefined : r === false ? 'assertion failed' : r);
    } catch (err) {
      record(G, name, false, String(err).slice(0, 300));
    }
  };
  await page.evaluate((md) => window.renderTest.show(md), POSITIVE_MD);

  await check('GFM table renders with header and alignment classes', async () =>
    page.evaluate(() => {
      const t = document.querySelector('.reply-body table');
      return !!t && t.querySelectorAll('th').length === 2 && t.querySelectorAll('tbody tr').length === 2 && !!t.querySelector('td.md-align-right');
    }),
  );
  await check('fenced code is highlighted (hljs classes)', async () =>
    page.evaluate(() => !!document.querySelector('.reply-body pre code.hljs.language-ts span.hljs-keyword')),
  );
  await check('task list items have disabled checkboxes, one checked', async () =>
    page.evaluate(() => {
      const boxes = Array.from(document.querySelectorAll<HTMLInputElement>('.reply-body li.task-list-item input[type=checkbox]'));
      return boxes.length === 2 && boxes.every((b) => b.disabled) && boxes[0].checked && !boxes[1].checked;
    }),
  );
  await check('code toolbar buttons exist with accessible names', async () => {
    for (const name of ['Copy', 'Insert at Cursor', 'Open in New Editor']) {
      if ((await page.getByRole('button', { name, exact: true }).count()) !== 1) return `no button "${name}"`;
    }
    return (await page.getByRole('button', { name: 'Copy reply', exact: true }).count()) === 1 || 'no "Copy reply" button';
  });
  await check('clicking a link calls onOpenLink with the URL and does not navigate', async () => {
    const url = page.url();
    await page.getByRole('link', { name: 'the docs' }).click();
    await page.getByRole('link', { name: 'https://example.com/auto' }).click();
    await page.waitForTimeout(100);
    const calls = await page.evaluate(() => window.renderTest.calls.openLink.slice(-2));
    if (page.url() !== url) return `navigated to ${page.url()}`;
    return JSON.stringify(calls) === JSON.stringify(['https://example.com/docs', 'https://example.com/auto']) || `calls ${JSON.stringify(calls)}`;
  });
  await check('code toolbar buttons call onCodeAction(action, code, language)', async () => {
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByRole('button', { name: 'Insert at Cursor' }).click();
    await page.getByRole('button', { name: 'Open in New Editor' }).click();
    const calls = await page.evaluate(() => window.renderTest.calls.codeAction.slice(-3));
    const code = 'const answer: number = 42;';
    const expected = [['copy', code, 'ts'], ['insert', code, 'ts'], ['newEditor', code, 'ts']];
    return JSON.stringify(calls) === JSON.stringify(expected) || `calls ${JSON.stringify(calls)}`;
  });
  await check('Apply to File gets the file a code block names, through the real sanitizer (none when it names none)', async () => {
    const md = ['```ts src/utils.ts', 'export const a = 1;', '```', '', '```ts title="lib/b.ts"', 'export const b = 2;', '```', '', '```ts', 'export const c = 3;', '```'].join('\n');
    await page.evaluate((m) => window.renderTest.show(m), md);
    const kept = await page.evaluate(() => Array.from(document.querySelectorAll('.reply-body pre.md-code')).map((p) => p.getAttribute('data-path')));
    const buttons = page.getByRole('button', { name: 'Apply to File', exact: true });
    for (let i = 0; i < 3; i++) await buttons.nth(i).click();
    const paths = await page.evaluate(() => window.renderTest.calls.codePath.slice(-3));
    const actions = await page.evaluate(() => window.renderTest.calls.codeAction.slice(-3).map((c) => c[0]));
    await page.evaluate((m) => window.renderTest.show(m), POSITIVE_MD);
    if (JSON.stringify(kept) !== JSON.stringify(['src/utils.ts', 'lib/b.ts', null])) return `data-path after sanitizing: ${JSON.stringify(kept)}`;
    if (actions.some((a) => a !== 'apply')) return `actions ${JSON.stringify(actions)}`;
    return JSON.stringify(paths) === JSON.stringify(['src/utils.ts', 'lib/b.ts', null]) || `paths ${JSON.stringify(paths)}`;
  });
  await check('"Copy reply" calls onCopyReply with the markdown source', async () => {
    await page.getByRole('button', { name: 'Copy reply' }).click();
    const calls = await page.evaluate(() => window.renderTest.calls.copyReply);
    return calls[calls.length - 1] === POSITIVE_MD || 'wrong markdown';
  });
  await check('controls are reachable with Tab and work with Enter; focus is visible', async () => {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const seen: string[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      const name = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');
      seen.push(name);
      if (name === 'Insert at Cursor') break;
    }
    if (seen[seen.length - 1] !== 'Insert at Cursor') return `tab order: ${seen.join(' | ')}`;
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    const n = await page.evaluate(() => window.renderTest.calls.codeAction.length);
    await page.keyboard.press('Enter');
    const after = await page.evaluate(() => window.renderTest.calls.codeAction.at(-1)?.[0]);
    if (outline === 'none') return 'no visible focus outline';
    return (after === 'insert' && (await page.evaluate(() => window.renderTest.calls.codeAction.length)) === n + 1) || 'Enter did not act';
  });

  // Streaming: open fence and table render sensibly; finished blocks stay the same DOM nodes.
  const streamChunks = ['# Title\n\nIntro para', 'graph.\n\n```py', 'thon\nprint("hi")\n', 'x = 1\n', '```\n\n| a | b |\n|--', '-|---|\n| 1 | 2', ' |\n| 3 | 4 |\n\nEnd.'];
  const probeResult = await page.evaluate((chunks) => window.renderTest.streamProbe(chunks), streamChunks);
  await check('an unfinished code fence renders as a code block while streaming', async () =>
    /<pre class="md-code"><code class="hljs language-python">print\(/.test(probeResult.frames[2]) || probeResult.frames[2].slice(0, 300),
  );
  await check('an unfinished table renders as a table while streaming', async () =>
    (/<table>/.test(probeResult.frames[4]) && /<table>[\s\S]*<td>1<\/td>/.test(probeResult.frames[5])) || probeResult.frames[4].slice(-300),
  );
  await check('finished blocks are rendered once (same DOM node while the reply streams)', async () => probeResult.firstBlockKept);
  await check('the finished stream equals rendering the whole text (with code toolbar)', async () => {
    const whole = await page.evaluate((md) => {
      window.renderTest.show(md);
      return document.querySelector('.reply-body')!.innerHTML;
    }, streamChunks.join(''));
    return whole === probeResult.finalHtml || 'differs';
  });

  // Announcements.
  await check('a completed reply is announced once in a single polite live region', async () => {
    const view = await page.evaluateHandle(() => window.renderTest.createReplyView());
    await view.evaluate((v) => {
      v.append('All **done** here.');
      v.finish();
    });
    await page.waitForTimeout(150);
    const regions = await page.evaluate(() => window.renderTest.liveRegions());
    if (regions.length !== 1 || regions[0].live !== 'polite') return `regions ${JSON.stringify(regions)}`;
    if (!regions[0].text.includes('All done here.')) return `text ${regions[0].text}`;
    await view.evaluate((v) => v.finish());
    await page.evaluate(() => {
      const v = window.renderTest.createReplyView();
      v.setText('Restored reply');
    });
    await page.waitForTimeout(150);
    const again = await page.evaluate(() => window.renderTest.liveRegions());
    return (again.length === 1 && again[0].text === regions[0].text) || `after: ${JSON.stringify(again)}`;
  });

  // Scroll following.
  await page.evaluate(() => window.renderTest.setupScroll());
  await page.evaluate(() => window.renderTest.scrollAppend('Line of streamed text', 30));
  await check('follows new text while at the bottom', async () => {
    const s = await page.evaluate(() => window.renderTest.scrollState());
    return (s.max > 0 && Math.abs(s.top - s.max) <= 1) || JSON.stringify(s);
  });
  await check('scrolled up: stays put while text streams and shows "Jump to latest"', async () => {
    await page.locator('#scroller').hover();
    await page.mouse.wheel(0, -300);
    await page.waitForTimeout(200);
    const before = await page.evaluate(() => window.renderTest.scrollState());
    await page.evaluate(() => window.renderTest.scrollAppend('More text', 10));
    const after = await page.evaluate(() => window.renderTest.scrollState());
    if (after.top !== before.top) return `moved from ${before.top} to ${after.top}`;
    if (!(after.max > before.max)) return 'content did not grow';
    return (await page.getByRole('button', { name: 'Jump to latest', exact: true }).isVisible()) || 'button not visible';
  });
  await check('"Jump to latest" scrolls to the bottom and resumes following', async () => {
    await page.getByRole('button', { name: 'Jump to latest', exact: true }).click();
    await page.evaluate(() => window.renderTest.scrollAppend('After jump', 5));
    const s = await page.evaluate(() => window.renderTest.scrollState());
    const hidden = !(await page.getByRole('button', { name: 'Jump to latest', exact: true }).isVisible());
    return (Math.abs(s.top - s.max) <= 1 && hidden) || `${JSON.stringify(s)} hidden=${hidden}`;
  });
  await check('the scroller grown while at the bottom (its old place no longer reachable) keeps following', async () => {
    await page.evaluate(() => {
      const s = document.getElementById('scroller')!;
      s.style.height = '320px';
    });
    await page.evaluate(() => window.renderTest.scrollAppend('Taller', 3));
    await page.evaluate(() => {
      document.getElementById('scroller')!.style.height = '200px';
    });
    await page.evaluate(() => window.renderTest.scrollAppend('Shorter', 3));
    const s = await page.evaluate(() => window.renderTest.scrollState());
    const hidden = !(await page.getByRole('button', { name: 'Jump to latest', exact: true }).isVisible());
    return (Math.abs(s.top - s.max) <= 1 && hidden) || `${JSON.stringify(s)} hidden=${hidden}`;
  });
  await check('the scrollbar dragged up while text streams: the view stays where it was dragged, and "Jump to latest" shows', async () => {
    const dragged = await page.evaluate(() => window.renderTest.scrollDragThenAppend(300, 'Streamed on', 8));
    const s = await page.evaluate(() => window.renderTest.scrollState());
    const shown = await page.getByRole('button', { name: 'Jump to latest', exact: true }).isVisible();
    if (Math.abs(s.top - dragged) > 1) return `dragged to ${dragged}, the view is at ${s.top} of ${s.max}`;
    return shown || 'button not visible';
  });
  await check('after the drag, "Jump to latest" follows the stream again', async () => {
    await page.getByRole('button', { name: 'Jump to latest', exact: true }).click();
    await page.evaluate(() => window.renderTest.scrollAppend('After the drag', 5));
    const s = await page.evaluate(() => window.renderTest.scrollState());
    return Math.abs(s.top - s.max) <= 1 || JSON.stringify(s);
  });
  await check('no page errors, no foreign requests, no dialogs on the positive page', async () =>
    (probe.pageErrors.length === 0 && probe.foreignRequests.length === 0 && probe.dialogs.length === 0) ||
    JSON.stringify({ errors: probe.pageErrors, requests: probe.foreignRequests, dialogs: probe.dialogs }),
  );
}

/** Seconds each part of the run took, printed at the end (where the tier's time goes). */
const timings: Array<[string, number]> = [];
async function timed<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  try {
    return await fn();
  } finally {
    timings.push([name, Date.now() - t0]);
  }
}

async function main(): Promise<number> {
  const script = await bundle('test/render/page.ts');
  const server = await servePage(script, 'Render safety test');
  const browser = await launchChromium();
  // Three lanes at once, each on pages of its own: the hostile corpus under the panel's CSP; the
  // corpus without a CSP, then the renderer's positive checks; the chat panel's groups. Outcomes are
  // recorded by group, the panel's in a list of their own, so the output keeps one order.
  const panelOutcomes: Outcome[] = [];
  const recordPanel = (group: string, name: string, ok: boolean, detail?: string) => panelOutcomes.push({ group, name, ok, detail });
  const hostile = (variant: 'csp' | 'no-csp', url: string) =>
    timed(`hostile replies [${variant}]`, async () => {
      const probe = await openProbe(server, url, browser);
      for (const [i, c] of HOSTILE_CASES.entries()) await runHostile(probe, variant, c, i);
      // Late effects (timers, load events) after the whole corpus.
      await probe.page.waitForTimeout(300);
      const late = await probe.page.evaluate(() => ({ pwned: window.__pwned, csp: window.__cspViolations }));
      record('late-effects', `nothing ran after the corpus [${variant}]`,
        late.pwned === undefined && late.csp.length === 0 && probe.dialogs.length === 0 && probe.foreignRequests.length === 0 && probe.pageErrors.length === 0,
        JSON.stringify({ late, dialogs: probe.dialogs, requests: probe.foreignRequests, errors: probe.pageErrors }).slice(0, 400));
      await probe.page.context().close();
    });
  // The corpus under the panel's CSP (then the exported web page of the whole corpus) and without one, each on a page of its own.
  const cspLane = () => hostile('csp', server.strictUrl).then(() => timed('export page', () => exportPageChecks(browser, record)));
  const rendererLane = async () => {
    await hostile('no-csp', server.noCspUrl);
    await timed('positive and tail builder', async () => {
      const probe = await openProbe(server, server.strictUrl, browser);
      await positive(probe);
      await tailBuilderChecks(probe.page);
      await inlineStreamChecks(probe.page, record);
      await probe.page.context().close();
    });
  };
  const panelLane = async () => {
    await timed('windowing', () => windowingChecks(browser, recordPanel));
    await timed('cards', () => cardChecks(browser, recordPanel));
    await timed('context meter', () => contextMeterChecks(browser, recordPanel));
    await timed('notices', () => noticeChecks(browser, recordPanel));
    await timed('surfaces', () => surfaceChecks(browser, recordPanel));
    await timed('stream parts', () => streamPartChecks(browser, recordPanel));
    await timed('find', () => findChecks(browser, recordPanel));
    await timed('branches', () => branchChecks(browser, recordPanel));
    await timed('screen reader', () => screenReaderChecks(browser, recordPanel));
    await timed('keyboard', () => keyboardChecks(browser, recordPanel));
    await timed('slash menu', () => slashMenuChecks(browser, recordPanel));
    await timed('hash menu', () => hashMenuChecks(browser, recordPanel));
    await timed('send errors', () => sendErrorChecks(browser, recordPanel));
    await timed('summary card', () => summaryCardChecks(browser, recordPanel));
    await timed('narrow side bar', () => narrowChecks(browser, recordPanel));
    await timed('axe', () => axeChecks(browser, recordPanel));
    await timed('later languages', () => languageChecks(browser, recordPanel));
  };
  const t0 = Date.now();
  try {
    const lanes = await Promise.allSettled([timed('csp lane', cspLane), timed('no-csp and positive lane', rendererLane), timed('panel lane', panelLane)]);
    for (const lane of lanes) if (lane.status === 'rejected') throw lane.reason;
  } finally {
    outcomes.push(...panelOutcomes);
    await browser.close();
    await server.close();
  }
  timings.push(['whole run', Date.now() - t0]);

  console.log(`Render safety test: ${HOSTILE_CASES.length} hostile replies x (whole, streamed) x (panel CSP, no CSP), plus positive checks\n`);
  const groups = [...new Set(outcomes.map((o) => o.group))];
  for (const g of groups) {
    const mine = outcomes.filter((o) => o.group === g);
    const failed = mine.filter((o) => !o.ok);
    console.log(`${failed.length ? 'FAIL' : 'ok  '} ${g}: ${mine.length - failed.length}/${mine.length}`);
    for (const f of failed) console.log(`       x ${f.name}: ${f.detail ?? ''}`);
    if (g === 'positive') for (const o of mine.filter((m) => m.ok)) console.log(`       - ${o.name}`);
  }
  console.log(`\nTime per part (s): ${timings.map(([n, ms]) => `${n} ${(ms / 1000).toFixed(1)}`).join(', ')}`);
  const passed = outcomes.filter((o) => o.ok).length;
  const failed = outcomes.length - passed;
  console.log(`\n${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
