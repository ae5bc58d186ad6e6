// Keystroke to paint in the chat's message box at the end of a 300-turn conversation while a reply
// streams into it: the real webview bundle in headless Chromium, fed by a real session and
// controller (test/support) whose reply streams a part every 20 ms. For each key typed, the time
// from the keydown to the frame that shows it (the next animation frame after the input event, then
// a task: the paint has happened). Prints p50, p95 and the longest, beside the same typing with no
// reply streaming. A benchmark: it prints figures and asserts nothing.
//
//   npm run bench:keystroke [-- --keys=200 --turns=300 --plain]
//
// `--in-page`: once the reply streams, its parts are posted by the page itself (a part every
// 20 ms, as the host's), not through the browser's debugging protocol: what is left is the page's
// own work. `--in-page --unseen`: the same parts for a reply the page does not show (each is read
// and dropped): the message handling alone, without the reply's rendering. `--every-ms=80`: a
// key every 80 ms (a quick typist) instead of one every frame.
import type { Page } from 'playwright-core';
import { appendMessage, createConversation, type ChatBackend, type SessionStreamEvent } from '../../src/core';
import type { HostMessage } from '../../src/protocol';
import { frames, give, launchChromium, serveChatPanel } from '../../test/render/harness';
import { makeController } from '../../test/support/session';

// `--turns=N`: a conversation of N turns before the streaming reply (300 unless told).
const TURNS = Number(/^--turns=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--turns=')) ?? '')?.[1] ?? 300);
const inPage = process.argv.includes('--in-page');
const everyMs = Number(/^--every-ms=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--every-ms=')) ?? '')?.[1] ?? 0);
const unseen = process.argv.includes('--unseen');
// `--plain`: parts of plain words (no Markdown), the reply view's fast path.
const plain = process.argv.includes('--plain');
const keys = Number(/^--keys=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--keys=')) ?? '')?.[1] ?? 200);

/** A reply that streams a part every `everyMs` until `stop` resolves. */
function streamingBackend(everyMs: number, stop: Promise<void>): ChatBackend {
  return {
    chat: () => Promise.reject(new Error('not used')),
    chatStream: async () => ({
      abort() {},
      async *[Symbol.asyncIterator](): AsyncGenerator<SessionStreamEvent> {
        let done = false;
        void stop.then(() => (done = true));
        yield { event: 'f', messageId: 'bench' };
        for (let i = 0; !done; i++) {
          await new Promise((r) => setTimeout(r, everyMs));
          yield { event: '0', data: i % 12 === 11 ? `\n\nParagraph ${i}: ` : plain ? `word${i} with plain words only ` : `word${i} with **bold** and \`code\` ` };
        }
        yield { event: 'e', finishReason: 'stop', isContinued: false };
        yield { event: 'd', finishReason: 'stop' };
      },
    }),
  };
}

/** Types `count` keys into the message box; the keydown-to-paint time of each, in ms. */
async function typeKeys(page: Page, count: number): Promise<number[]> {
  await page.locator('#message').focus();
  await page.evaluate(() => {
    const w = window as unknown as { __keyTimes: number[]; __keyListener?: boolean };
    w.__keyTimes = [];
    // One listener for both sides (a second would time every key twice).
    if (w.__keyListener) return;
    w.__keyListener = true;
    const box = document.getElementById('message') as HTMLTextAreaElement;
    box.addEventListener('keydown', () => {
      const t0 = performance.now();
      const n = w.__keyTimes.length;
      performance.mark(`key-down-${n}`);
      // The input event and its rendering happen in this frame; the task after it runs once it is painted.
      requestAnimationFrame(() => setTimeout(() => { performance.mark(`key-shown-${n}`); w.__keyTimes.push(performance.now() - t0); }, 0));
    }, { capture: true });
  });
  for (let i = 0; i < count; i++) {
    const pressed = Date.now();
    await page.keyboard.press(i % 20 === 19 ? 'Space' : 'a');
    await frames(page, 1);
    // `--every-ms=`: a key at most this often (a quick typist: about 80 ms); else one every frame.
    if (everyMs) await new Promise((r) => setTimeout(r, Math.max(0, pressed + everyMs - Date.now())));
  }
  await frames(page, 3);
  return page.evaluate(() => (window as unknown as { __keyTimes: number[] }).__keyTimes);
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
const f1 = (n: number) => n.toFixed(1);

async function main(): Promise<void> {
  const panel = await serveChatPanel('src/webview/main.ts', !process.argv.includes('--no-minify'));
  const browser = await launchChromium();
  let stopReply: () => void = () => undefined;
  const stop = new Promise<void>((r) => (stopReply = r));
  try {
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    await page.goto(panel.url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
    const posted: HostMessage[] = [];
    let forwardingOn = true;
    let forwarding = Promise.resolve();
    const t = makeController({
      backend: streamingBackend(20, stop),
      // Every message the host posts goes to the page as it is posted (each text part: one update).
      controller: { post: (m) => { posted.push(m); if (forwardingOn) forwarding = forwarding.then(() => give(page, [m])); } },
    });
    const conv = createConversation('conv-keys');
    const reply = Array.from({ length: 30 }, (_, i) => `Line ${i} of the reply, with **bold** and \`code\`.`).join('\n\n');
    for (let i = 0; i < TURNS; i++) {
      appendMessage(conv, 'user', `Question ${i}`, new Date());
      appendMessage(conv, 'assistant', `Answer ${i}\n\n${reply}`, new Date(), { status: 'complete', meta: { model: 'swift-chat' } });
    }
    await t.store.save(conv);
    await t.session.open(conv.id);
    await give(page, t.controller.initialMessages());
    await frames(page, 5);

    const idle = await typeKeys(page, keys);
    await page.locator('#message').fill('');
    const sending = t.controller.send('A long answer, please');
    // The reply is streaming once its first text is on the page.
    await page.waitForFunction(() => /word\d/.test(document.querySelector('article.message:last-of-type')?.textContent ?? ''), undefined, { timeout: 15_000 });
    if (inPage) {
      forwardingOn = false;
      await forwarding;
      const chunks = posted.filter((m): m is Extract<HostMessage, { type: 'streamChunk' }> => m.type === 'streamChunk');
      const last = chunks[chunks.length - 1];
      const version = Math.max(...posted.map((m) => ('version' in m && typeof m.version === 'number' ? m.version : -1)));
      await page.evaluate(
        ({ id, start, version: shown }) => {
          let offset = start;
          let v = shown;
          let i = 100_000;
          window.setInterval(() => {
            const text = i % 12 === 11 ? `\n\nParagraph ${i}: ` : `word${i} with **bold** and \`code\` `;
            i++;
            v++;
            window.postMessage({ type: 'streamChunk', messageId: id, offset, text, version: v }, '*');
            offset += text.length;
          }, 20);
        },
        { id: unseen ? 'not-shown' : last.messageId, start: last.offset + last.text.length, version },
      );
    }
    const traceFile = process.argv.find((a) => a.startsWith('--trace='))?.slice('--trace='.length);
    if (traceFile) await browser.startTracing(page, { path: traceFile, categories: ['devtools.timeline', 'blink.user_timing', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8', 'blink', 'cc', 'gpu', 'viz'] });
    const streaming = await typeKeys(page, keys);
    if (traceFile) await browser.stopTracing();
    const chunks = posted.filter((m) => m.type === 'streamChunk').length;
    stopReply();
    await sending;
    await forwarding;

    console.log(`Keystroke to paint in the message box, ${TURNS}-turn conversation, ${keys} keys each (Chromium ${browser.version()})${everyMs ? `, a key every ${everyMs} ms` : ', a key every frame'}${plain ? ', parts of plain words' : ''}${inPage ? `; the parts posted by the page${unseen ? ', for a reply not shown' : ''}` : ''}:`);
    console.log(`  no reply streaming:      p50 ${f1(quantile(idle, 0.5))} ms, p95 ${f1(quantile(idle, 0.95))} ms, longest ${f1(Math.max(...idle))} ms`);
    console.log(`  a reply streaming${inPage ? '' : ` (${chunks} text updates while typing)`}: p50 ${f1(quantile(streaming, 0.5))} ms, p95 ${f1(quantile(streaming, 0.95))} ms, longest ${f1(Math.max(...streaming))} ms`);
    const late = (xs: number[]) => xs.filter((x) => x > 1000 / 60 + 1).length;
    console.log(`  keys shown later than the next frame (> 17.7 ms): ${late(idle)} of ${idle.length} idle, ${late(streaming)} of ${streaming.length} streaming`);
    console.log(`  goal: p95 <= 16 ms (one frame) while streaming: ${quantile(streaming, 0.95) <= 16 ? 'met' : 'not met'} (a key waits for the next frame: at 60 Hz up to 16.7 ms with nothing else to do)`);
  } finally {
    stopReply();
    await browser.close();
    await panel.close();
  }
}

void main();
