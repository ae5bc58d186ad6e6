// Inline Markdown streamed into long paragraphs: the reply view's own script time per frame when
// every part holds `**bold**` and `code` (the open paragraph taking them without being rendered
// again, src/webview/render/inlineAppend.ts), beside the same paragraphs of plain words (the
// plain-words fast path). Headless Chromium, the real ReplyView, one part a frame.
//
//   npx tsx bench/render/inline.ts [--parts-per-paragraph=50] [--rounds=5]
import { bundle, launchChromium, servePage } from '../../test/render/harness';
import type { RunResult } from './page';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const perParagraph = arg('parts-per-paragraph', 50);
const rounds = arg('rounds', 5);
const PARTS = 600;

/** Parts of one length, so that 40-byte chunks are not needed: a chunk is a part. */
function text(markdown: boolean): { text: string; size: number } {
  const part = (i: number) => (markdown ? `w${String(i).padStart(4, '0')} with **bold** and \`code\` ` : `w${String(i).padStart(4, '0')} with bold words and code ok `);
  let out = '';
  for (let i = 0; i < PARTS; i++) out += (i > 0 && i % perParagraph === 0 ? '\n\n' : '') + part(i);
  return { text: out, size: part(0).length };
}

async function main(): Promise<void> {
  const server = await servePage(await bundle('bench/render/page.ts', true), 'Inline benchmark');
  const browser = await launchChromium(['--disable-frame-rate-limit', '--disable-gpu-vsync']);
  const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
  await page.goto(server.strictUrl);
  await page.waitForFunction(() => !!window.bench);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const results: Record<string, number[]> = { markdown: [], plain: [] };
  for (let r = 0; r < rounds; r++) {
    for (const kind of ['markdown', 'plain'] as const) {
      const { text: t, size } = text(kind === 'markdown');
      const res: RunResult = await page.evaluate(([x, c]) => window.bench.ours(x, c, 1), [t, size] as const);
      results[kind].push(res.scriptMs / res.frames);
    }
  }
  await browser.close();
  await server.close();
  console.log(`${PARTS} parts, a paragraph every ${perParagraph}, one part a frame; the reply view's script per frame, median of ${rounds} rounds:`);
  for (const [kind, xs] of Object.entries(results)) console.log(`  ${kind.padEnd(8)} ${median(xs).toFixed(3)} ms [${xs.map((x) => x.toFixed(3)).join(', ')}]`);
  console.log(`inline: markdownMs=${median(results.markdown).toFixed(3)} plainMs=${median(results.plain).toFixed(3)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
