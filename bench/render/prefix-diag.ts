// Diagnostic: main-thread time of streaming the same 100 KB reply after a finished reply of P KB
// (P from argv), alternating, several repetitions. Shows how per-frame cost depends on document size.
import type { CDPSession } from 'playwright-core';
import { bundle, launchChromium, servePage } from '../../test/render/harness';
import { generateReply } from './generate';

async function task(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
}

async function main(): Promise<void> {
  // `300` a finished 300 KB reply above the stream; `-300` the same reply kept in the heap, detached.
  const prefixes = process.argv.slice(2).map(Number);
  const reps = Number(process.env.REPS ?? 3);
  const kb = Number(process.env.KB ?? 100);
  const script = await bundle('bench/render/page.ts', true);
  const server = await servePage(script, 'diag');
  const browser = await launchChromium(['--disable-frame-rate-limit', '--disable-gpu-vsync']);
  const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
  await page.goto(server.strictUrl);
  await page.waitForFunction(() => !!window.bench);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  // CV=none: no content-visibility at all; CV=sections: on sections only (CSSOM override).
  if (process.env.CV) {
    await page.evaluate((cv) => {
      const sel = cv === 'none' ? '.reply-body .md-section, .reply-body .md-group' : '.reply-body .md-group';
      document.styleSheets[0].insertRule(`${sel} { content-visibility: visible !important; }`, document.styleSheets[0].cssRules.length);
    }, process.env.CV);
  }
  const text = generateReply(kb * 1024, kb);
  await page.evaluate(([t]) => window.bench.ours(t, 40, 1), [generateReply(8192, 99)] as const);
  const res: Record<number, number[]> = {};
  for (let r = 0; r < reps; r++) {
    for (const p of prefixes) {
      const prefix = p ? generateReply(Math.abs(p) * 1024, 999) + '\n\n' : '';
      await page.evaluate(() => window.bench.clear());
      await cdp.send('HeapProfiler.collectGarbage');
      if (prefix) {
        await page.evaluate(([t, d]) => window.bench.prepare(t, d), [prefix, p < 0] as const);
        await cdp.send('HeapProfiler.collectGarbage');
      }
      const before = await task(cdp);
      const out = await page.evaluate(([t]) => window.bench.ours(t, 40, 1), [text] as const);
      const ms = ((await task(cdp)) - before) * 1000;
      (res[p] ??= []).push(ms);
      console.log(`prefix ${p} KB: main ${ms.toFixed(0)} ms, script ${out.scriptMs.toFixed(0)} ms`);
    }
  }
  for (const p of prefixes) console.log(`prefix ${p}: min ${Math.min(...res[p]).toFixed(0)} median ${res[p].sort((a, b) => a - b)[Math.floor(res[p].length / 2)].toFixed(0)}`);
  await browser.close();
  await server.close();
}
main().catch((e) => { console.error(e); process.exit(1); });
