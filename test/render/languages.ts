// The highlight.js languages the panel's first bundle leaves out, in Chromium: the real chat page
// (chatHtml, with its CSP and nonce) serves the panel's bundle and, beside it, the chunk of the
// other languages. A reply in a common language is highlighted without the chunk; one in a later
// language is shown plain, then highlighted once the chunk (allowed by the page's nonce) loaded,
// asked for once.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { chatHtml } from '../../src/extension/chat/common/html';
import { ROOT, bundle, frames, give, type Recorder } from './harness';

const settings = {
  models: [{ valueId: 'swift-chat', name: 'Swift Chat', cost: 1, usable: true }],
  modelsLoading: false,
  selectedModel: 'swift-chat',
  selectedModelCost: 1,
  search: false,
  temperature: 1,
  fontSize: 0,
  hasKey: true,
};

/** A conversation of one question per reply. */
const conversation = (version: number, replies: string[]) => ({
  type: 'conversation',
  conversation: {
    id: 'c',
    title: 't',
    messages: replies.flatMap((content, i) => [
      { id: `msg_00${2 * i}`, role: 'user', content: 'Show me.', status: 'complete' },
      { id: `msg_00${2 * i + 1}`, role: 'assistant', content, status: 'complete' },
    ]),
  },
  status: { busy: false },
  version,
});

export async function languageChecks(browser: Browser, record: Recorder): Promise<void> {
  const group = 'later languages';
  const prelude = `window.__posted = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => undefined, setState: () => {} });`;
  const files: Record<string, [string, string]> = {
    '/dist/webview.js': ['text/javascript', prelude + '\n' + (await bundle('src/webview/main.ts', true))],
    '/dist/languages.js': ['text/javascript', await bundle('src/webview/render/languagesChunk.ts', true)],
    '/chat.css': ['text/css', readFileSync(resolve(ROOT, 'media', 'chat.css'), 'utf8')],
    '/render.css': ['text/css', readFileSync(resolve(ROOT, 'media', 'render.css'), 'utf8')],
    '/codicon.css': ['text/css', ''],
  };
  const requested: string[] = [];
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    requested.push(path);
    if (path === '/') {
      const origin = `http://${req.headers.host}`;
      const nonce = randomBytes(16).toString('base64');
      const html = chatHtml({ cspSource: origin, nonce, scriptUri: `${origin}/dist/webview.js`, chatCssUri: '/chat.css', renderCssUri: '/render.css', codiconCssUri: '/codicon.css' });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    const f = files[path];
    if (!f) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': `${f[0]}; charset=utf-8` }).end(f[1]);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const page = await browser.newPage({ viewport: { width: 700, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) errors.push(m.text());
  });
  try {
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
    await give(page, [{ type: 'settings', settings }, conversation(1, ['```ts\nconst a = 1;\n```'])]);
    await page.locator('.reply-body pre code.language-ts').waitFor();
    await frames(page);
    const common = await page.evaluate(() => !!document.querySelector('.reply-body pre code.language-ts span.hljs-keyword'));
    record(group, 'a block in a common language is highlighted without the chunk', common && !requested.includes('/dist/languages.js'), JSON.stringify(requested));

    const rust = '```rust\nfn main() { let x = 1; }\n```';
    await give(page, [conversation(2, [rust, '```go\nfunc main() {}\n```'])]);
    const highlighted = await page
      .waitForFunction(() => ['rust', 'go'].every((l) => document.querySelector(`.reply-body pre code.language-${l} span.hljs-keyword`)), undefined, { timeout: 10_000 })
      .then(() => true, (e: unknown) => String(e).slice(0, 200));
    const text = await page.evaluate(() => document.querySelector('.reply-body pre code.language-rust')?.textContent ?? '');
    record(group, 'blocks in later languages are highlighted once the chunk loaded, their text unchanged', highlighted === true && text === 'fn main() { let x = 1; }\n', `${highlighted} ${JSON.stringify(text)}`);
    record(group, 'the chunk is asked for once, beside the panel script, under the page CSP', requested.filter((p) => p === '/dist/languages.js').length === 1 && errors.length === 0, JSON.stringify({ requested, errors }).slice(0, 400));

    await give(page, [conversation(3, ['```sql\nSELECT 1;\n```'])]);
    const sql = await page
      .waitForFunction(() => !!document.querySelector('.reply-body pre code.language-sql span.hljs-keyword'), undefined, { timeout: 10_000 })
      .then(() => true, (e: unknown) => String(e).slice(0, 200));
    record(group, 'a later language rendered after the chunk loaded is highlighted at once', sql === true, String(sql));
  } finally {
    await page.close();
    await new Promise<void>((ok) => server.close(() => ok()));
  }
}
