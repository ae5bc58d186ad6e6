// The exported web page (src/core/export/htmlPage.ts) in Chromium: one page holding the whole
// hostile corpus (each case as a question, as a reply, as a reply's thinking, in an error and a
// file name; the first as the title) is opened twice, with its own CSP and with that meta taken
// out (the markdown and allowlist alone hold). On each: no script ran (window.__pwned, no dialog,
// no page error, no CSP violation), no request left the page, no element or attribute that could
// run or load anything is in the DOM, every link is http(s) or an anchor; and the page is the
// chat's: every message an article, code highlighted, the thinking folded.
import type { Browser } from 'playwright-core';
import { appendMessage, createConversation, type Conversation } from '../../src/core';
import { conversationToHtml, HTML_PAGE_CSP } from '../../src/core/export/htmlPage';
import { HOSTILE_CASES } from './corpus';
import type { Recorder } from './harness';

const ORIGIN = 'http://export-page.test';
const PAGE = `${ORIGIN}/conversation.html`;

function hostileConversation(): Conversation {
  const start = Date.parse('2026-12-01T10:00:00.000Z');
  const conv = createConversation('conv-hostile-export', new Date(start));
  conv.title = HOSTILE_CASES[0].text;
  HOSTILE_CASES.forEach((c, i) => {
    const at = new Date(start + i * 60_000);
    appendMessage(conv, 'user', c.text, at, { files: [`src/${c.text.slice(0, 200)}`] });
    appendMessage(conv, 'assistant', c.text, at, {
      meta: { model: c.text.slice(0, 100), credits: 1, reasoning: c.text, note: c.text.slice(0, 400) },
      ...(i % 5 === 0 ? { status: 'error' as const, error: { kind: 'connection' as const, message: c.text.slice(0, 2000), actions: [] } } : {}),
    });
  });
  appendMessage(conv, 'assistant', '```ts\nconst answer: number = 42; // the answer\nfunction f() { return "x"; }\n```', new Date(start), { meta: { model: 'swift-chat', reasoning: 'Plain thinking.' } });
  return conv;
}

interface PageState {
  pwned: unknown;
  csp: string[];
  articles: number;
  dangerous: string[];
  handlers: string[];
  badLinks: string[];
  loading: string[];
  highlighted: number;
  reasoning: number;
  reasoningClosed: number;
  text: string;
}

export async function exportPageChecks(browser: Browser, record: Recorder): Promise<void> {
  const group = 'export page';
  const conv = hostileConversation();
  const html = conversationToHtml(conv);
  record(group, 'the page holds no <script> and its CSP allows no script', !/<script/i.test(html) && html.includes(`content="${HTML_PAGE_CSP}"`) && !/script-src/.test(HTML_PAGE_CSP), html.match(/<script[^>]*>/i)?.[0]);
  // The two pages open side by side (each its own context).
  const open = async (variant: 'its CSP' | 'no CSP') => {
    const body = variant === 'its CSP' ? html : html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
    const context = await browser.newContext();
    const requests: string[] = [];
    const dialogs: string[] = [];
    const errors: string[] = [];
    // (The browser's own favicon look-up is not the page's; anything else is.)
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url === PAGE) return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body });
      if (url === `${ORIGIN}/favicon.ico`) return route.fulfill({ status: 404, body: '' });
      requests.push(url.slice(0, 120));
      return route.abort();
    });
    await context.addInitScript(() => {
      const w = window as unknown as { __cspViolations: string[] };
      w.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const page = await context.newPage();
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss().catch(() => undefined);
    });
    page.on('pageerror', (e) => errors.push(String(e).slice(0, 200)));
    try {
      await page.goto(PAGE, { waitUntil: 'load' });
      // Every folded section opened (a toggle handler would run now), then late effects (timers, load events).
      await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
      await page.waitForTimeout(300);
      await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = false)));
      const state: PageState = await page.evaluate(() => {
        const all = [...document.querySelectorAll('*')];
        const risky = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'img', 'svg', 'math', 'video', 'audio', 'source', 'link', 'base', 'form', 'button', 'portal', 'template', 'noscript', 'marquee']);
        const inBody = new Set(document.body.querySelectorAll('*'));
        return {
          pwned: (window as unknown as { __pwned?: unknown }).__pwned,
          csp: (window as unknown as { __cspViolations: string[] }).__cspViolations,
          articles: document.querySelectorAll('article').length,
          dangerous: all.filter((e) => risky.has(e.localName) || (e.localName === 'style' && inBody.has(e)) || (e.localName === 'meta' && inBody.has(e))).map((e) => e.localName),
          handlers: all.flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name) || /^(src|srcdoc|action|formaction|xlink:href|style|background|poster|data)$/i.test(a.name)).map((a) => `${e.localName}[${a.name}]`)),
          badLinks: [...document.querySelectorAll('[href]')].map((e) => e.getAttribute('href') ?? '').filter((h) => !/^(https?:\/\/|#)/i.test(h)),
          loading: performance.getEntriesByType('resource').map((r) => r.name).filter((n) => !n.endsWith('/favicon.ico')),
          highlighted: document.querySelectorAll('pre code span[class^="hljs-"]').length,
          reasoning: document.querySelectorAll('details.reasoning').length,
          reasoningClosed: document.querySelectorAll('details.reasoning:not([open])').length,
          text: document.body.textContent ?? '',
        };
      });
      const ran: string[] = [];
      if (state.pwned !== undefined) ran.push('window.__pwned set');
      if (dialogs.length) ran.push(`dialogs: ${dialogs.join(', ')}`);
      if (errors.length) ran.push(`page errors: ${errors.join(' ')}`);
      if (state.csp.length) ran.push(`CSP violations: ${state.csp.slice(0, 5).join(' ')}`);
      record(group, `no script ran [${variant}]`, ran.length === 0, ran.join('; ').slice(0, 400));
      record(group, `no request left the page [${variant}]`, requests.length === 0 && state.loading.length === 0, [...requests, ...state.loading].join(' ').slice(0, 400));
      record(group, `no element that runs or loads anything, no handler or loading attribute [${variant}]`, state.dangerous.length === 0 && state.handlers.length === 0, [...new Set([...state.dangerous, ...state.handlers])].join(' ').slice(0, 400));
      record(group, `every link is http(s) or an anchor [${variant}]`, state.badLinks.length === 0, state.badLinks.join(' ').slice(0, 300));
      record(group, `every message is an article, the hostile text shown as text [${variant}]`, state.articles === conv.messages.length && state.text.includes(`<script>window.__pwned=1;alert(1)</script>`), `${state.articles} of ${conv.messages.length}`);
      record(group, `code is highlighted and the thinking folded [${variant}]`, state.highlighted >= 3 && state.reasoning === HOSTILE_CASES.length + 1 && state.reasoningClosed === state.reasoning, JSON.stringify({ highlighted: state.highlighted, reasoning: state.reasoning, closed: state.reasoningClosed }));
    } finally {
      await context.close();
    }
  };
  await Promise.all([open('its CSP'), open('no CSP')]);
}
