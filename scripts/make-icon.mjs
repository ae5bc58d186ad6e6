// Makes media/icon.png, the extension's 128×128 Marketplace icon: the chat glyph of
// media/chat-icon.svg drawn in white on a blue rounded square, rendered by headless Chromium.
// The square's colours are checked before anything is drawn: white on them at least 4.5:1, and
// the square itself at least 3:1 against both a white and a dark (#1e1e1e) page, so the icon
// reads in light and dark galleries alike.
//   node scripts/make-icon.mjs          (writes media/icon.png)
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SIZE = 128;
/** The square's gradient, top left to bottom right. */
const TILE = ['#3171df', '#2b66d4'];
const LIGHT_PAGE = '#ffffff';
const DARK_PAGE = '#1e1e1e';

function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const problems = [];
for (const colour of TILE) {
  const checks = [
    ['white glyph', contrast('#ffffff', colour), 4.5],
    ['on a light page', contrast(colour, LIGHT_PAGE), 3],
    ['on a dark page', contrast(colour, DARK_PAGE), 3],
  ];
  console.log(`${colour}: ${checks.map(([what, ratio]) => `${what} ${ratio.toFixed(2)}:1`).join(', ')}`);
  for (const [what, ratio, least] of checks) if (ratio < least) problems.push(`${colour} ${what}: ${ratio.toFixed(2)}:1 is under ${least}:1`);
}
if (problems.length) throw new Error(problems.join('\n'));

// The glyph's own shapes, taken from the side bar icon so the two stay alike.
const glyphSvg = readFileSync(path.join(root, 'media', 'chat-icon.svg'), 'utf8');
const inner = /<svg[^>]*>([\s\S]*)<\/svg>/.exec(glyphSvg)?.[1];
if (!inner) throw new Error('media/chat-icon.svg has no shapes');
// The glyph spans x 4–20 and y 5–19.5 of its 24-unit box: scaled and centred on the square.
const scale = 4.3;
const [cx, cy] = [12, 12.25];
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">
  <defs><linearGradient id="tile" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${TILE[0]}"/><stop offset="1" stop-color="${TILE[1]}"/></linearGradient></defs>
  <rect x="2" y="2" width="${SIZE - 4}" height="${SIZE - 4}" rx="26" fill="url(#tile)"/>
  <g transform="translate(${SIZE / 2 - cx * scale} ${SIZE / 2 - cy * scale}) scale(${scale})" fill="none" stroke="#ffffff" stroke-width="1.5" stroke-linejoin="round">${inner}</g>
</svg>`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
  const png = await page.locator('svg').screenshot({ omitBackground: true, type: 'png' });
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  if (width !== SIZE || height !== SIZE) throw new Error(`the icon came out ${width}×${height}, not ${SIZE}×${SIZE}`);
  writeFileSync(path.join(root, 'media', 'icon.png'), png);
  console.log(`media/icon.png: ${width}×${height}, ${png.length} bytes`);
} finally {
  await browser.close();
}
