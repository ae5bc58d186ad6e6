// Journey 42: axe-core on the real chat view. The chat in the side bar holds a conversation whose
// reply has a heading, a list, a table and a code block naming a file (so its toolbar and the
// reply's actions are there); axe-core runs inside the chat's webview frame in a dark, a light and
// both high-contrast themes. Goal: no violation of impact serious or critical. One
// `axe e2e <theme>:` line per theme gives the figures docs/TESTING.md lists.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { ROOT } from '../launcher';
import { e2e } from '../setup';
import { readyWithKey, resetServer, useTheme } from '../steps';
import { waitFor } from '../workbench';

interface Violation {
  id: string;
  impact: string;
  nodes: number;
  target: string;
  summary: string;
}

interface AxeScan {
  violations: Violation[];
  /** Screens of the conversation axe ran on. */
  screens: number;
  /** Elements whose colour contrast axe could not judge at any scroll position, by its reason. */
  unjudged: Record<string, string[]>;
}

const AXE_SOURCE = readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

// Run in the webview as strings: the test runner's transpiler would add helpers the page lacks.
// The first defines window.axe and gives back its version.
const INJECT_AXE = `${AXE_SOURCE}\n;(window.axe && window.axe.version) || null`;
// axe judges colour contrast only on what is on screen (the rest is "partially obscured"), and
// finished blocks off screen are not rendered (content-visibility): so the whole view is checked
// with the conversation scrolled from its top to its end, half a screen at a time, and at each
// position the code blocks and tables that scroll sideways are checked again scrolled sideways.
// The violations of every position are put together.
const RUN_AXE = `(async () => {
  const scroller = document.querySelector('.messages');
  const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const found = new Map();
  const judged = new Set();
  const unjudged = new Map();
  const where = (node) => node.target.join(' ');
  function collect(result) {
    for (const v of result.violations) {
      const known = found.get(v.id) || { id: v.id, impact: v.impact || 'none', targets: new Set(), target: where(v.nodes[0]), summary: String(v.nodes[0].failureSummary || '').replace(/\\s+/g, ' ').slice(0, 240) };
      for (const n of v.nodes) known.targets.add(where(n));
      found.set(v.id, known);
    }
    for (const kind of [result.passes, result.violations]) {
      for (const r of kind) if (r.id === 'color-contrast') for (const n of r.nodes) judged.add(where(n));
    }
    for (const r of result.incomplete) {
      if (r.id !== 'color-contrast') continue;
      for (const n of r.nodes) {
        const check = n.any[0] || {};
        unjudged.set(where(n), (check.data && check.data.messageKey) || check.id || 'unknown');
      }
    }
  }
  function sideways() {
    const view = scroller.getBoundingClientRect();
    return Array.from(scroller.querySelectorAll('pre, table')).filter((e) => {
      const box = e.getBoundingClientRect();
      return e.scrollWidth > e.clientWidth + 1 && box.bottom > view.top && box.top < view.bottom;
    });
  }
  const end = scroller.scrollTop;
  let screens = 0;
  for (let top = 0; ; top += Math.max(1, Math.floor(scroller.clientHeight / 2))) {
    scroller.scrollTop = top;
    await frame();
    collect(await window.axe.run(document));
    screens++;
    for (const wide of sideways()) {
      for (let left = Math.floor(wide.clientWidth / 2); left < wide.scrollWidth; left += Math.max(1, Math.floor(wide.clientWidth / 2))) {
        wide.scrollLeft = left;
        await frame();
        collect(await window.axe.run(wide, { runOnly: ['color-contrast'] }));
      }
      wide.scrollLeft = 0;
    }
    if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1 || screens >= 40) break;
  }
  scroller.scrollTop = end;
  await frame();
  const reasons = {};
  for (const [target, reason] of unjudged) if (!judged.has(target)) (reasons[reason] = reasons[reason] || []).push(target);
  return {
    violations: Array.from(found.values()).map((v) => ({ id: v.id, impact: v.impact, nodes: v.targets.size, target: v.target, summary: v.summary })),
    screens,
    unjudged: reasons,
  };
})()`;

/** axe-core's findings in the chat's frame (axe injected first; its version checked). */
async function axeScan(frame: Frame): Promise<AxeScan> {
  const version = (await frame.evaluate<string | null>('(window.axe && window.axe.version) || null')) ?? (await frame.evaluate<string | null>(INJECT_AXE));
  assert.ok(version, 'axe-core did not load in the chat webview');
  return frame.evaluate<AxeScan>(RUN_AXE);
}

const SERIOUS = new Set(['serious', 'critical']);

function line(theme: string, { violations: found, screens, unjudged }: AxeScan): string {
  const count = (impacts: string[]) => found.filter((v) => impacts.includes(v.impact)).length;
  const rules = found.map((v) => `${v.id} (${v.impact}, ${v.nodes})`).join(', ');
  return (
    `axe e2e ${theme}: ${found.length} violation${found.length === 1 ? '' : 's'} ` +
    `(serious/critical: ${count(['serious', 'critical'])}; moderate: ${count(['moderate'])}; minor: ${count(['minor'])})` +
    (rules ? `: ${rules}` : '') +
    `; ${screens} screens; colour contrast not judged: ${Object.entries(unjudged).map(([why, targets]) => `${why} ${targets.join(' | ')}`).join(', ') || 'none'}`
  );
}

describe('Journey 42: axe-core in every kind of theme', () => {
  it('the side bar chat with a reply has no serious or critical axe violation in dark, light and high-contrast themes', async function () {
    this.timeout(300_000);
    resetServer();
    const wb = await readyWithKey();
    // The default layout: the chat in the side bar (an earlier journey may have moved it).
    await wb.runCommand('View: Reset View Locations');
    await wb.runCommand('AI Chat: Move Chat to Side Bar');
    await e2e().page.locator('.part.sidebar .composite.title', { hasText: 'AI Chat' }).first().waitFor({ timeout: 30_000 });
    const chat = await wb.settledChat();
    // A new chat (only when this one has messages: New Chat on an empty one would change nothing
    // to wait for, and could land after the question below).
    if (await chat.articles().count()) {
      await wb.runCommand('AI Chat: New Chat');
      await waitFor(async () => (await chat.articles().count()) === 0, 'New Chat did not clear the chat', 15_000);
    }
    await chat.ask('Show me how to count the stock e2e-axe file:src/inventory.ts');
    const reply = chat.lastReply();
    assert.ok(await reply.locator('.code-block').count(), 'the reply has a code block');
    assert.ok(await reply.locator('table').count(), 'the reply has a table');
    assert.ok(await reply.getByRole('button', { name: 'Apply to File', exact: true }).count(), 'the code block has Apply to File');

    const themes: Array<[string, string]> = [
      ['Dark Modern', 'vscode-dark'],
      ['Light Modern', 'vscode-light'],
      ['Dark High Contrast', 'vscode-high-contrast'],
      ['Light High Contrast', 'vscode-high-contrast-light'],
    ];
    const bad: string[] = [];
    for (const [theme, bodyClass] of themes) {
      await useTheme(wb, chat.frame, theme, bodyClass);
      await chat.message().focus();
      const scan = await axeScan(chat.frame);
      console.log(`    ${line(theme, scan)}`);
      for (const v of scan.violations.filter((f) => SERIOUS.has(f.impact))) {
        bad.push(`${theme}: ${v.id} (${v.impact}, ${v.nodes} nodes, first ${v.target}: ${v.summary})`);
      }
    }
    await useTheme(wb, chat.frame, 'Dark Modern', 'vscode-dark');
    assert.equal(bad.length, 0, `axe-core found violations of impact serious or critical:\n${bad.join('\n')}`);
  });
});
