// History benchmark, webview and protocol part: the real chat webview bundle in headless Chromium,
// fed by the real ChatController and ChatSession (replies from the reference server).
//
// open300Ms            a 300-turn conversation (replies of about 8 KB) posted to a fresh panel
//                      (settings, then the conversation) until the frame after the last reply is
//                      on screen (median of OPEN_RUNS)
// postBytesPerChunk    mean JSON bytes of a streamed chunk message
// postBytesPerSettingsChange  JSON bytes posted when a setting changes, at 300 turns (a balance
//                      change posts nothing to the panel: the balance lives in the status bar)
// longestTaskMs        longest task on the page's main thread (thread time, Chromium trace)
//                      while a short reply streams at the end of the 300-turn chat
// sendToDone*Ms        send until the finished reply is on screen, at 300 turns and in an
//                      empty chat (median of SEND_RUNS each, alternating)
//
// Every message goes to the page as VS Code's postMessage does: JSON-serialised, then a
// `message` event; the page's acquireVsCodeApi records what the webview posts back.
import type { Page } from 'playwright-core';
import { ChatServiceClient } from '../../src/client';
import { ChatSession, ConversationStore, appendMessage, createConversation, requestBudget, type Conversation, directTurns } from '../../src/core';
import { ChatController } from '../../src/extension/chat/common/controller';
import type { HostMessage } from '../../src/protocol';
import { DEMO_KEY } from '../../test/server/fixtures';
import { startReferenceServer } from '../../test/server/server';
import { launchChromium, serveChatPanel } from '../../test/render/harness';
import { generateReply } from '../render/generate';
import { longestMainThreadTask } from '../render/trace';
import { MemoryConversationStorage } from '../../test/support/memoryStorage';
import { makeTurns } from '../../test/support/turns';

const TURNS = 300;
const REPLY_BYTES = 8 * 1024;
const OPEN_RUNS = 5;
const SEND_RUNS = 5;

export interface WebviewFigures {
  open300Ms: number;
  postBytesPerChunk: number;
  postBytesPerSettingsChange: number;
  longestTaskMs: number;
  sendToDone300Ms: number;
  sendToDoneEmptyMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const bytes = (m: unknown) => Buffer.byteLength(JSON.stringify(m));

/** A chat path to measure: the webview bundle's entry and how a chat is built on the host side. */
export interface ChatPath {
  /** Entry of the webview bundle, relative to the project root. */
  entry: string;
  chat(serverUrl: string, client: ChatServiceClient, conversation: Conversation): Promise<BenchChat>;
}

/** What the benchmark needs of a chat: loosely typed messages, so an older protocol can be measured. */
export interface BenchChat {
  /** What a fresh panel receives when it says it is ready. */
  initialMessages(): unknown[];
  /** What is posted when a setting changes. */
  settingsChanged(): unknown[];
  send(text: string): Promise<void>;
  onPost(listener: (m: { type: string }) => void): void;
}

const current: ChatPath = {
  entry: 'src/webview/main.ts',
  chat: async (serverUrl, client, conversation) => chat(serverUrl, client, conversation),
};

/** A conversation of `turns` turns, replies of about REPLY_BYTES (each its own text when `distinct`). */
export function conversationOf(turns: number, distinct = false): Conversation {
  const conv = createConversation('conv-bench');
  const reply = generateReply(REPLY_BYTES);
  for (let i = 0; i < turns; i++) {
    appendMessage(conv, 'user', `Question ${i}: how would you write this part?`, new Date());
    appendMessage(conv, 'assistant', distinct ? generateReply(REPLY_BYTES, i + 1) : reply, new Date(), { status: 'complete', meta: { model: 'swift-chat', credits: 1 } });
  }
  return conv;
}

/** A chat as the extension builds it, talking to the reference server; posts are recorded. */
export async function chat(serverUrl: string, client: ChatServiceClient, conversation: Conversation): Promise<BenchChat> {
  const settings = { model: 'swift-chat', search: false, temperature: 1, fontSize: 0, baseUrl: serverUrl };
  const store = new ConversationStore(new MemoryConversationStorage());
  await store.save(conversation);
  const listeners: Array<(m: HostMessage) => void> = [];
  let controller: ChatController | undefined;
  const session = new ChatSession({
    store,
    turns: directTurns(() => client),
    settings: () => ({ ...settings, stream: true, systemPrompt: '' }),
    modelCost: () => 1,
    onEvent: (e) => controller?.onSessionEvent(e),
    flushIntervalMs: 24,
    // Only the turns that fit swift-chat's budget are sent (max_tokens 4096), as in the extension.
    contextBudget: () => requestBudget(4096).inputTokens,
  });
  await session.open(conversation.id);
  controller = new ChatController({
    session,
    settings: () => settings,
    models: () => ({
      models: [{ valueId: 'swift-chat', name: 'Swift Chat', type: 'text', costInCreditPerUse: 1, isActive: true }],
      loading: false,
      error: undefined,
      costOf: () => 1,
    }),
    hasKey: () => true,
    turns: makeTurns({ key: () => DEMO_KEY, model: () => settings.model }).turns,
    pickModel: async () => true,
    notifyBusy: () => undefined,
    post: (m) => listeners.forEach((l) => l(m)),
  });
  const ctl = controller;
  return {
    initialMessages: () => ctl.initialMessages(),
    settingsChanged: () => [ctl.settingsMessage()],
    send: async (text) => void (await ctl.send(text)),
    onPost: (l) => listeners.push(l),
  };
}

/** Delivers host messages to the page in order, as VS Code does (JSON, then a message event). */
function deliver(page: Page) {
  let chain = Promise.resolve();
  return (m: unknown) => {
    const json = JSON.stringify(m);
    chain = chain.then(() => page.evaluate((data) => window.postMessage(JSON.parse(data), '*'), json));
    return chain;
  };
}

async function openPanel(page: Page, url: string, messages: unknown[], expectReply: boolean): Promise<number> {
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
  const json = messages.map((m) => JSON.stringify(m));
  return page.evaluate(async ([data, expectReply]) => {
    const t0 = performance.now();
    for (const d of data) window.postMessage(JSON.parse(d), '*');
    // Messages are dispatched as tasks: wait for them, then for the frame that paints the last reply.
    await new Promise((ok) => setTimeout(ok, 0));
    const articles = document.querySelectorAll('article.message.assistant');
    const last = articles[articles.length - 1];
    if (expectReply && (!last || !last.textContent)) throw new Error('the last reply is not on screen');
    await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
    const box = last?.getBoundingClientRect();
    if (box && (box.top >= window.innerHeight || box.bottom <= 0)) throw new Error('the last reply is out of view');
    return performance.now() - t0;
  }, [json, expectReply] as const);
}

/** Sends `text` and resolves with the ms until the finished reply is rendered in the page. */
async function sendToDone(page: Page, c: BenchChat, send: (m: unknown) => Promise<void>, text: string, endType: string): Promise<number> {
  const t0 = performance.now();
  let ended: Promise<void> | undefined;
  let last: Promise<void> = Promise.resolve();
  const done = new Promise<void>((ok) =>
    c.onPost((m) => {
      last = send(m);
      if (m.type === endType && !ended) ended = last.then(ok);
    }),
  );
  await c.send(text);
  await done;
  // Whatever the turn posted after its end (an older protocol's state snapshot) counts too.
  await last;
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0))));
  return performance.now() - t0;
}

export function measureWebview(): Promise<WebviewFigures> {
  return measureChatPath(current, 'turnEnded');
}

/** Measures a chat path; `endType` is the message that ends a turn in its protocol. */
export async function measureChatPath(path: ChatPath, endType: string): Promise<WebviewFigures> {
  const srv = await startReferenceServer({ quiet: true });
  const client = new ChatServiceClient({ baseUrl: srv.url, apiKey: () => DEMO_KEY });
  const panel = await serveChatPanel(path.entry);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 900, height: 1000 } });

    // Open of a 300-turn conversation.
    const big = await path.chat(srv.url, client, conversationOf(TURNS));
    const openMs: number[] = [];
    for (let i = 0; i < OPEN_RUNS; i++) openMs.push(await openPanel(page, panel.url, big.initialMessages(), true));

    // Bytes per settings change at 300 turns.
    const postBytesPerSettingsChange = big.settingsChanged().reduce<number>((s, m) => s + bytes(m), 0);

    // A short reply streams at the end of the 300-turn chat, traced.
    await openPanel(page, panel.url, big.initialMessages(), true);
    await browser.startTracing(page, { categories: ['toplevel'] });
    const chunkBytes: number[] = [];
    big.onPost((m) => m.type === 'streamChunk' && chunkBytes.push(bytes(m)));
    const send = deliver(page);
    await sendToDone(page, big, send, 'One more short question', endType);
    const longest = longestMainThreadTask(await browser.stopTracing());

    // Send to done, 300 turns against an empty chat (alternating, fresh panel each).
    const at300: number[] = [];
    const empty: number[] = [];
    for (let i = 0; i < SEND_RUNS; i++) {
      for (const [turns, out] of [[TURNS, at300], [0, empty]] as const) {
        const c = await path.chat(srv.url, client, conversationOf(turns));
        await openPanel(page, panel.url, c.initialMessages(), turns > 0);
        out.push(await sendToDone(page, c, deliver(page), 'One more short question', endType));
      }
    }
    return {
      open300Ms: Math.round(median(openMs)),
      postBytesPerChunk: Math.round(chunkBytes.reduce((s, b) => s + b, 0) / Math.max(1, chunkBytes.length)),
      postBytesPerSettingsChange,
      longestTaskMs: Math.round(longest.cpu),
      sendToDone300Ms: Math.round(median(at300)),
      sendToDoneEmptyMs: Math.round(median(empty)),
    };
  } finally {
    await browser.close();
    await panel.close();
    await client.close();
    await srv.close();
  }
}

export function printFigures(f: WebviewFigures, label = 'webview'): void {
  console.log(`open of a ${TURNS}-turn conversation (replies of ${REPLY_BYTES / 1024} KB), median of ${OPEN_RUNS}: ${f.open300Ms} ms`);
  console.log(`bytes posted per streamed chunk (mean): ${f.postBytesPerChunk}`);
  console.log(`bytes posted per settings change at ${TURNS} turns: ${f.postBytesPerSettingsChange}`);
  console.log(`longest main-thread task while a short reply streams at ${TURNS} turns: ${f.longestTaskMs} ms`);
  console.log(
    `send to done, median of ${SEND_RUNS}: ${f.sendToDone300Ms} ms at ${TURNS} turns, ${f.sendToDoneEmptyMs} ms in an empty chat ` +
      `(ratio ${(f.sendToDone300Ms / f.sendToDoneEmptyMs).toFixed(2)})`,
  );
  console.log(
    `${label}: open300Ms=${f.open300Ms} postBytesPerChunk=${f.postBytesPerChunk} postBytesPerSettingsChange=${f.postBytesPerSettingsChange} ` +
      `longestTaskMs=${f.longestTaskMs} sendToDone300Ms=${f.sendToDone300Ms} sendToDoneEmptyMs=${f.sendToDoneEmptyMs}`,
  );
}

if (require.main === module) {
  void measureWebview().then(
    (f) => printFigures(f),
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
