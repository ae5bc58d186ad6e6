// What the benchmarks that drive a real VS Code (code-server in Debian Chromium) share: the
// browser they launch, and the figures of keys typed in it.
import { chromium, type Browser } from 'playwright-core';

/** Debian Chromium (`CHROMIUM_PATH` first), headless, without the work a fresh profile would start. */
export function launchWorkbenchBrowser(): Promise<Browser> {
  const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => !!p) ?? '/usr/bin/chromium';
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

export const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
export const f1 = (n: number): string => n.toFixed(1);

/** Keydown-to-paint times: p50, p95, the longest, and how many were later than the next frame and than 50 ms. */
export function keySummary(xs: number[]): string {
  const late = (limit: number) => xs.filter((x) => x > limit).length;
  return `p50 ${f1(quantile(xs, 0.5))} ms, p95 ${f1(quantile(xs, 0.95))} ms, max ${f1(Math.max(...xs))} ms; late > 17.7 ms: ${late(1000 / 60 + 1)}, > 50 ms: ${late(50)} (of ${xs.length})`;
}
