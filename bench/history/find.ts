// Find in chat on a 300-turn conversation (replies of about 8 KB), through the real webview bundle
// in headless Chromium. The time is from the query typed in the find bar (its input event) to the
// frame after the first result is highlighted and on screen:
//
// findRenderedMs     a word of the replies (in every turn): the first result is in a rendered turn
// findUnrenderedMs   a word only in the 5th turn, which is not rendered: the turn is rendered and
//                    brought into view first
// findNearMs         a word only in the 290th turn, 5 turns above the rendered ones (not
//                    rendered either)
//
// Median of RUNS each; the conversation is shown anew before each run (only its newest turns
// rendered). The last line is for scripts.
import type { Page } from 'playwright-core';
import type { HostMessage } from '../../src/protocol';
import { launchChromium, serveChatPanel } from '../../test/render/harness';
import { generateReply } from '../render/generate';

const TURNS = 300;
const REPLY_BYTES = 8 * 1024;
const RUNS = 9;
export const RARE = 'zebracorn';
export const COMMON = 'parser';
export const NEAR = 'quokkafish';
const NEAR_TURN = TURNS - 11;

export interface FindFigures {
  findRenderedMs: number;
  findUnrenderedMs: number;
  findNearMs: number;
  matchesCommon: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const hex = (n: number) => `msg_${n.toString(16).padStart(3, '0')}`;

export function conversation(version: number): HostMessage {
  const messages = [];
  for (let i = 0; i < TURNS; i++) {
    messages.push({ id: hex(2 * i), role: 'user' as const, content: `Question ${i}: how would you write this part?${i === 4 ? ` And the ${RARE}?` : i === NEAR_TURN ? ` And the ${NEAR}?` : ''}`, status: 'complete' as const });
    messages.push({ id: hex(2 * i + 1), role: 'assistant' as const, content: generateReply(REPLY_BYTES, i + 1), status: 'complete' as const, meta: { model: 'swift-chat', credits: 1 } });
  }
  return { type: 'conversation', conversation: { id: 'conv-find-bench', title: 'Find', messages }, status: { busy: false }, version };
}

/** Types `query` in the open find bar; `marks` puts find-start / find-end user timing marks around it (for traces). */
export async function firstResult(page: Page, query: string, marks = false): Promise<{ ms: number; count: string; onScreen: boolean }> {
  return page.evaluate(async ([q, marks]) => {
    const input = document.querySelector<HTMLInputElement>('.find-input')!;
    if (marks) performance.mark('find-start');
    const t0 = performance.now();
    input.value = q;
    input.dispatchEvent(new Event('input'));
    await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
    const ms = performance.now() - t0;
    if (marks) performance.mark('find-end');
    const current = CSS.highlights.get('chat-find-current');
    const range = current ? ([...current][0] as Range | undefined) : undefined;
    const rect = range?.getBoundingClientRect();
    const box = document.querySelector('.messages')!.getBoundingClientRect();
    return {
      ms,
      count: document.querySelector('.find-count')?.textContent ?? '',
      onScreen: !!rect && rect.height > 0 && rect.top >= box.top && rect.bottom <= box.bottom,
    };
  }, [query, marks] as const);
}

/** `entry`: the webview bundle's entry (another build of the panel can be measured). */
export async function measureFind(entry?: string): Promise<FindFigures> {
  const panel = await serveChatPanel(entry);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 900, height: 1000 } });
    await page.goto(panel.url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
    const json = (m: unknown) => JSON.stringify(m);
    const show = async (version: number) => {
      await page.evaluate((d) => window.postMessage(JSON.parse(d), '*'), json(conversation(version)));
      await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0))));
      await page.keyboard.press('Control+f');
    };
    const rendered: number[] = [];
    const unrendered: number[] = [];
    const near: number[] = [];
    let matchesCommon = 0;
    let version = 1;
    for (let i = 0; i < RUNS; i++) {
      for (const [query, out] of [[COMMON, rendered], [RARE, unrendered], [NEAR, near]] as const) {
        await show(version++);
        const r = await firstResult(page, query);
        if (!r.onScreen || !/^\d+ of \d+$/.test(r.count)) throw new Error(`"${query}": no result on screen (${r.count})`);
        if (query === COMMON) matchesCommon = Number(r.count.split(' of ')[1]);
        out.push(r.ms);
        await page.keyboard.press('Escape');
      }
    }
    return { findRenderedMs: median(rendered), findUnrenderedMs: median(unrendered), findNearMs: median(near), matchesCommon };
  } finally {
    await browser.close();
    await panel.close();
  }
}

export function printFind(f: FindFigures): void {
  console.log(`find in a ${TURNS}-turn conversation (replies of ${REPLY_BYTES / 1024} KB), query typed to first result on screen, median of ${RUNS}:`);
  console.log(`  a word of every reply (${f.matchesCommon} matches), first result in a rendered turn: ${f.findRenderedMs.toFixed(1)} ms (<= 50)`);
  console.log(`  a word only in the 5th turn (not rendered): ${f.findUnrenderedMs.toFixed(1)} ms (<= 50)`);
  console.log(`  a word only in the ${NEAR_TURN + 1}th turn (5 turns above the rendered ones, not rendered): ${f.findNearMs.toFixed(1)} ms (<= 50)`);
  console.log(`find: findRenderedMs=${f.findRenderedMs.toFixed(1)} findUnrenderedMs=${f.findUnrenderedMs.toFixed(1)} findNearMs=${f.findNearMs.toFixed(1)} matches=${f.matchesCommon}`);
}

if (require.main === module) {
  void measureFind().then(printFind, (err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
