// Shared by the render safety test and the render benchmark: bundles a page entry with esbuild,
// serves it from a loopback HTTP server with the panel's CSP, and launches Debian Chromium.
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';

export const ROOT = resolve(__dirname, '..', '..');
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic',
];

/** Makes sure Debian chromium is installed (fresh machines). */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  const script = resolve(ROOT, 'scripts', 'ensure-system.sh');
  try {
    if (existsSync(script)) execSync(`bash "${script}"`, { stdio: 'inherit', cwd: ROOT });
  } catch {
    // fall through to the direct install below
  }
  if (!existsSync(CHROMIUM)) {
    execSync('command -v chromium || (apt-get update && apt-get install -y --no-install-recommends chromium)', {
      stdio: 'inherit',
      shell: '/bin/bash',
    });
  }
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing; install Debian's chromium package`);
}

/** Bundles already made in this process (each group of the render tier serves the same panel). */
const bundles = new Map<string, Promise<string>>();

export function bundle(entry: string, minify = false): Promise<string> {
  const key = `${entry}\0${minify}`;
  let made = bundles.get(key);
  if (!made) {
    made = build(entry, minify);
    bundles.set(key, made);
    made.catch(() => bundles.delete(key));
  }
  return made;
}

async function build(entry: string, minify: boolean): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [resolve(ROOT, entry)],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify,
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

export interface PageServer {
  /** Origin, e.g. http://127.0.0.1:PORT */
  origin: string;
  /** URL of the page with the panel-like CSP. */
  strictUrl: string;
  /** URL of the same page without any CSP (to prove the sanitizer alone holds). */
  noCspUrl: string;
  /** Paths the page may load. */
  ownPaths: Set<string>;
  close(): Promise<void>;
}

/** Serves `/` (strict CSP), `/no-csp`, `/page.js` and `/render.css` from 127.0.0.1. */
export async function servePage(script: string, title: string): Promise<PageServer> {
  const css = readFileSync(resolve(ROOT, 'media', 'render.css'), 'utf8');
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/' || path === '/no-csp') {
      const nonce = randomBytes(16).toString('base64');
      const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
      if (path === '/') {
        headers['content-security-policy'] = [
          "default-src 'none'",
          `script-src 'nonce-${nonce}'`,
          "style-src 'self'",
          "img-src 'none'",
          "font-src 'none'",
          "connect-src 'none'",
          "frame-src 'none'",
          "object-src 'none'",
          "base-uri 'none'",
          "form-action 'none'",
        ].join('; ');
      }
      res.writeHead(200, headers);
      res.end(
        `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>` +
          `<link rel="stylesheet" href="/render.css"></head>` +
          `<body><main id="app"></main><script nonce="${nonce}" src="/page.js"></script></body></html>`,
      );
    } else if (path === '/page.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(script);
    } else if (path === '/render.css') {
      res.writeHead(200, { 'content-type': 'text/css; charset=utf-8' });
      res.end(css);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    strictUrl: `${origin}/`,
    noCspUrl: `${origin}/no-csp`,
    ownPaths: new Set(['/', '/no-csp', '/page.js', '/render.css', '/favicon.ico']),
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  ensureChromium();
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * Serves the chat panel's page: the real webview bundle (or `entry`) after a stand-in for
 * acquireVsCodeApi that records what the page posts in window.__posted; host messages are given
 * with window.postMessage.
 */
export async function serveChatPanel(entry = 'src/webview/main.ts', minify = true): Promise<{ url: string; close(): Promise<void> }> {
  const prelude = `
    window.__posted = [];
    window.acquireVsCodeApi = () => ({
      postMessage: (m) => window.__posted.push(m),
      getState: () => undefined,
      setState: (s) => (window.__state = s),
    });`;
  const script = prelude + '\n' + (await bundle(entry, minify));
  const files: Record<string, [string, string]> = {
    '/page.js': ['text/javascript', script],
    // The highlight.js languages the panel loads beside its script when a block names one.
    '/languages.js': ['text/javascript', await bundle('src/webview/render/languagesChunk.ts', minify)],
    '/chat.css': ['text/css', readFileSync(resolve(ROOT, 'media', 'chat.css'), 'utf8')],
    '/render.css': ['text/css', readFileSync(resolve(ROOT, 'media', 'render.css'), 'utf8')],
    '/': [
      'text/html',
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>AI Chat</title><link rel="stylesheet" href="/chat.css"><link rel="stylesheet" href="/render.css">' +
        '<style>html,body{height:100%;margin:0}</style></head><body><div id="app" class="app"></div><script src="/page.js"></script></body></html>',
    ],
  };
  const server = createServer((req, res) => {
    const f = files[(req.url ?? '/').split('?')[0]];
    if (!f) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': `${f[0]}; charset=utf-8` }).end(f[1]);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

/** Records one check of a render group: its name, whether it held, and what was seen. */
export type Recorder = (group: string, name: string, ok: boolean, detail?: string) => void;

/** Waits `n` animation frames (and a task after each) in the page. */
export const frames = (page: Page, n = 3) =>
  page.evaluate(async (count) => {
    for (let i = 0; i < count; i++) await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
  }, n);

/** Posts host messages to the panel, in order, as the extension would. */
export const give = (page: Page, messages: unknown[]) =>
  page.evaluate((json) => json.forEach((m) => window.postMessage(JSON.parse(m), '*')), messages.map((m) => JSON.stringify(m)));
