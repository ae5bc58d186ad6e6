// Variants benchmark (npm run bench:variants): the real chat webview bundle in headless Chromium,
// fed by the real ChatController and ChatSession over a store in memory.
//
// switchRepaintMs     the pager of a reply in the middle of a 300-turn conversation (replies of
//                     about 8 KB): from the panel's message to the frame that shows the other
//                     variant (host: session, presenter; page: the swap) (median of RUNS)
// switchHostMs        of which the host's part, until the message for the panel is posted
// switchPageMs        of which the panel's part: the message's arrival to the frame after the swap
//                     (the rest is the harness: Playwright's round trips to the page)
// openNoneMs          a 300-turn conversation opened: read from its log, made the panel's
//                     message, posted to a fresh panel until the frame after the last reply
// openWith50Ms        the same with 50 variants (25 replies with three each) (medians of RUNS)
// branchRepaintMs     the pager of a question in the middle (turn 150 of 300, edited: a branch of
//                     one turn beside the 150 turns of the first): from the panel's message to the
//                     frame after the panel drew the conversation of the other branch (median of RUNS)
// branchHostMs        of which the host's part, until the message for the panel is posted
//
// Goals (issue 45): switchRepaintMs ≤ 100; openWith50Ms within 10 % of openNoneMs.
import type { Page } from 'playwright-core';
import { ChatSession, ConversationStore, addVariant, appendMessage, createConversation, directTurns, startBranch, type ChatBackend, type Conversation } from '../../src/core';
import { ChatController } from '../../src/extension/chat/common/controller';
import type { HostMessage } from '../../src/protocol';
import { launchChromium, serveChatPanel } from '../../test/render/harness';
import { MemoryConversationStorage } from '../../test/support/memoryStorage';
import { makeTurns } from '../../test/support/turns';
import { generateReply } from '../render/generate';

const TURNS = 300;
const RUNS = 9;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** 300 turns of ~8 KB replies; `variants`: that many more replies, three to a reply, spread over the conversation. */
function conversationOf(variants: number): Conversation {
  const conv = createConversation(`conv-${variants}`);
  const reply = generateReply(8 * 1024);
  const t = Date.UTC(2026, 11, 1);
  for (let i = 0; i < TURNS; i++) {
    appendMessage(conv, 'user', `Question ${i}: how would you write this part?`, new Date(t + i * 10_000));
    appendMessage(conv, 'assistant', reply, new Date(t + i * 10_000 + 1), { status: 'complete', meta: { model: 'swift-chat', credits: 1 } });
  }
  const every = Math.max(1, Math.floor(TURNS / Math.ceil(variants / 2)));
  for (let made = 0, turn = 1; made < variants; turn += every) {
    const question = conv.messages[2 * (turn % TURNS)];
    for (let k = 0; k < 2 && made < variants; k++, made++) {
      const v = addVariant(conv, question, new Date(t + turn * 10_000 + 2 + k));
      Object.assign(v, { content: generateReply(8 * 1024, made + 1), status: 'complete', meta: { model: 'deep-think', credits: 5 } });
    }
  }
  return conv;
}

const noBackend: ChatBackend = { chat: () => Promise.reject(new Error('not used')), chatStream: () => Promise.reject(new Error('not used')) };

/** The chat as the extension builds it, on a store that holds `conv`'s log; posts go to `post`. */
async function chatOn(storage: MemoryConversationStorage, id: string, post: (m: HostMessage) => void) {
  const settings = { model: 'swift-chat', search: false, temperature: 1, fontSize: 0, baseUrl: 'http://127.0.0.1:9' };
  let controller: ChatController | undefined;
  const session = new ChatSession({
    store: new ConversationStore(storage),
    turns: directTurns(() => noBackend),
    settings: () => ({ ...settings, stream: true, systemPrompt: '' }),
    modelCost: () => 1,
    onEvent: (e) => controller?.onSessionEvent(e),
  });
  const opened = performance.now();
  await session.open(id);
  const ctl = new ChatController({
    session,
    settings: () => settings,
    models: () => ({ models: [], loading: false, error: undefined, costOf: () => 1 }),
    hasKey: () => true,
    turns: makeTurns({ key: () => 'sk-bench', model: () => settings.model }).turns,
    pickModel: async () => true,
    notifyBusy: () => undefined,
    post: (m) => post(m),
  });
  controller = ctl;
  const initial = ctl.initialMessages();
  return { session, controller: ctl, initial, hostOpenMs: performance.now() - opened };
}

async function stored(conv: Conversation): Promise<MemoryConversationStorage> {
  const storage = new MemoryConversationStorage();
  await new ConversationStore(storage).restore(conv);
  return storage;
}

/** Posts the messages to a fresh panel; ms until the frame after the last reply. */
async function openPanel(page: Page, url: string, messages: unknown[]): Promise<number> {
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
  const json = messages.map((m) => JSON.stringify(m));
  return page.evaluate(async (data) => {
    const t0 = performance.now();
    for (const d of data) window.postMessage(JSON.parse(d), '*');
    await new Promise((ok) => setTimeout(ok, 0));
    const articles = document.querySelectorAll('article.message.assistant');
    if (!articles[articles.length - 1]?.textContent) throw new Error('the last reply is not on screen');
    await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
    return performance.now() - t0;
  }, json);
}

async function main(): Promise<void> {
  const panel = await serveChatPanel('src/webview/main.ts');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 900, height: 1000 } });

    // Open: 300 turns with no variant and with 50, alternating (host half + page half).
    const plain = conversationOf(0);
    const varied = conversationOf(50);
    const storages = { none: await stored(plain), fifty: await stored(varied) };
    const open = { none: [] as number[], fifty: [] as number[] };
    for (let i = 0; i < RUNS; i++) {
      for (const which of ['none', 'fifty'] as const) {
        const id = which === 'none' ? plain.id : varied.id;
        const c = await chatOn(storages[which], id, () => undefined);
        open[which].push(c.hostOpenMs + (await openPanel(page, panel.url, c.initial)));
      }
    }

    // Switch: the pager of a reply in the middle (turn 150), its article on screen.
    const mid = conversationOf(0);
    const question = mid.messages[300];
    addVariant(mid, question, new Date(Date.UTC(2026, 11, 2)));
    Object.assign(mid.messages[301], { content: generateReply(8 * 1024, 7), status: 'complete', meta: { model: 'deep-think', credits: 5 } });
    let deliver: Promise<unknown> = Promise.resolve();
    const c = await chatOn(await stored(mid), mid.id, (m) => {
      const json = JSON.stringify(m);
      deliver = deliver.then(() => page.evaluate((d) => window.postMessage(JSON.parse(d), '*'), json));
    });
    await openPanel(page, panel.url, c.initial);
    c.controller.reveal(c.session.conversation.messages[301].id);
    await deliver;
    // In the page: from the message's arrival to the frame after it (the panel's own part).
    await page.evaluate(() => {
      const w = window as unknown as { __swap?: number; __painted?: number };
      window.addEventListener('message', (e: MessageEvent<{ type?: string }>) => {
        if (e.data?.type !== 'variantShown') return;
        w.__swap = performance.now();
        w.__painted = undefined;
        requestAnimationFrame(() => setTimeout(() => (w.__painted = performance.now()), 0));
      });
    });
    const pageMs: number[] = [];
    const switchMs: number[] = [];
    const hostMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const shown = c.session.conversation.messages[301].id;
      const step = i % 2 === 0 ? -1 : 1;
      const t0 = performance.now();
      await c.controller.receive({ type: 'showVariant', messageId: shown, step });
      hostMs.push(performance.now() - t0);
      await deliver;
      const next = c.session.conversation.messages[301].id;
      await page.waitForFunction((id) => !!document.querySelector(`article[data-id="${id}"]`), next);
      await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0))));
      switchMs.push(performance.now() - t0);
      pageMs.push(await page.evaluate(() => {
        const w = window as unknown as { __swap?: number; __painted?: number };
        return (w.__painted ?? NaN) - (w.__swap ?? NaN);
      }));
    }

    // A branch: the question in the middle edited, its branch of one turn; the pager of the question.
    const branched = conversationOf(0);
    startBranch(branched, 300, 'Question 150, edited', new Date(Date.UTC(2026, 11, 3)));
    appendMessage(branched, 'assistant', generateReply(8 * 1024, 9), new Date(Date.UTC(2026, 11, 3, 0, 0, 1)), { status: 'complete', meta: { model: 'swift-chat', credits: 1 } });
    let toPage: Promise<unknown> = Promise.resolve();
    const b = await chatOn(await stored(branched), branched.id, (m) => {
      const json = JSON.stringify(m);
      toPage = toPage.then(() => page.evaluate((d) => window.postMessage(JSON.parse(d), '*'), json));
    });
    await openPanel(page, panel.url, b.initial);
    await page.evaluate(() => {
      const w = window as unknown as { __drawn?: number };
      window.addEventListener('message', (e: MessageEvent<{ type?: string }>) => {
        if (e.data?.type !== 'conversation') return;
        w.__drawn = undefined;
        requestAnimationFrame(() => setTimeout(() => (w.__drawn = performance.now()), 0));
      });
    });
    const branchMs: number[] = [];
    const branchHostMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const shown = b.session.conversation.messages[300].id;
      await page.evaluate(() => ((window as unknown as { __drawn?: number }).__drawn = undefined));
      const t0 = performance.now();
      await b.controller.receive({ type: 'showBranch', messageId: shown, step: i % 2 === 0 ? -1 : 1 });
      branchHostMs.push(performance.now() - t0);
      await toPage;
      await page.waitForFunction(() => (window as unknown as { __drawn?: number }).__drawn !== undefined);
      branchMs.push(performance.now() - t0);
      if (b.session.conversation.messages[300].id === shown) throw new Error('the other branch was not shown');
    }

    const figures = {
      branchRepaintMs: +median(branchMs).toFixed(1),
      branchHostMs: +median(branchHostMs).toFixed(1),
      switchRepaintMs: +median(switchMs).toFixed(1),
      switchHostMs: +median(hostMs).toFixed(1),
      switchPageMs: +median(pageMs).toFixed(1),
      openNoneMs: +median(open.none).toFixed(1),
      openWith50Ms: +median(open.fifty).toFixed(1),
    };
    const ratio = figures.openWith50Ms / figures.openNoneMs;
    console.log(JSON.stringify({ ...figures, openRatio: +ratio.toFixed(3) }, null, 2));
    console.log(`switch ≤ 100 ms: ${figures.switchRepaintMs <= 100 ? 'met' : 'NOT met'}; open with 50 variants within 10 %: ${ratio <= 1.1 ? 'met' : 'NOT met'}`);
  } finally {
    await browser.close();
    await panel.close();
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
