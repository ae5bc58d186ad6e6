// The chat panel checked by axe-core in Chromium, through the real webview bundle, in each state
// a user meets: empty, a conversation with code, tables and links, a reply streaming, an error,
// the out-of-credits card, the queue, the find bar open. The goal: no violation of impact serious
// or critical. Every violation found is printed with its impact (the README lists the others).
// Colours are those of a dark theme (VS Code's own variables), so contrast is judged on them.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { findConversation } from './find';
import { ROOT, serveChatPanel, frames, give } from './harness';

type Record = (group: string, name: string, ok: boolean, detail?: string) => void;

/** A few of VS Code's Dark Modern colours, as the workbench sets them on a webview's html element. */
export const DARK_THEME = `
html {
  --vscode-font-family: sans-serif; --vscode-font-size: 13px; --vscode-editor-font-size: 14px;
  --vscode-foreground: #cccccc; --vscode-descriptionForeground: #9d9d9d; --vscode-errorForeground: #f85149;
  --vscode-editor-background: #1f1f1f; --vscode-editor-foreground: #cccccc; --vscode-focusBorder: #0078d4;
  --vscode-button-background: #0078d4; --vscode-button-foreground: #ffffff; --vscode-button-hoverBackground: #026ec1;
  --vscode-button-secondaryBackground: #313131; --vscode-button-secondaryForeground: #cccccc;
  --vscode-input-background: #313131; --vscode-input-foreground: #cccccc; --vscode-input-border: #3c3c3c;
  --vscode-input-placeholderForeground: #989898; --vscode-dropdown-background: #313131; --vscode-dropdown-foreground: #cccccc;
  --vscode-dropdown-border: #3c3c3c; --vscode-panel-border: #2b2b2b; --vscode-textLink-foreground: #4daafc;
  --vscode-textLink-activeForeground: #4daafc; --vscode-textBlockQuote-background: #2b2b2b; --vscode-textBlockQuote-border: #616161;
  --vscode-icon-foreground: #cccccc; --vscode-editorWidget-background: #202020; --vscode-editorWidget-foreground: #cccccc;
  --vscode-editorWidget-border: #313131; --vscode-widget-shadow: rgba(0, 0, 0, 0.36);
  --vscode-editor-findMatchBackground: #9e6a03; --vscode-editor-findMatchHighlightBackground: rgba(234, 92, 0, 0.33);
  --vscode-inputValidation-errorBackground: #5a1d1d; --vscode-inputValidation-errorBorder: #be1100;
  --vscode-inputValidation-warningBackground: #352a05; --vscode-inputValidation-warningBorder: #b89500;
  --vscode-editorWarning-foreground: #cca700; --vscode-badge-background: #616161; --vscode-badge-foreground: #f8f8f8;
  --vscode-textPreformat-foreground: #d0d0d0; --vscode-textCodeBlock-background: #2b2b2b;
  --vscode-editor-font-family: monospace; --vscode-toolbar-hoverBackground: rgba(90, 93, 94, 0.31);
}`;

const AXE = readFileSync(resolve(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

interface Found {
  id: string;
  impact: string;
  nodes: number;
  target: string;
}

async function runAxe(page: Page): Promise<Found[]> {
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, target: v.nodes[0]?.target.join(' ') ?? '' }));
  });
}

const settings = (extra: object = {}) => ({
  type: 'settings',
  settings: { models: [{ valueId: 'swift-chat', name: 'Swift Chat', cost: 1, usable: true }], modelsLoading: false, selectedModel: 'swift-chat', selectedModelCost: 1, search: false, temperature: 1, fontSize: 0, hasKey: true, ...extra },
});

const RICH = [
  '## Steps',
  '',
  'Read [the guide](https://example.com/guide) first, then https://example.com/api.',
  '',
  '| Name | Size |',
  '|:-----|-----:|',
  '| a.ts | 12 |',
  '| b.ts | 7 |',
  '',
  '```ts src/a.ts',
  'export function add(a: number, b: number): number {',
  '  return a + b; // a long line that makes the code block scroll sideways in a narrow panel, on purpose',
  '}',
  '```',
  '',
  '- [x] done',
  '- [ ] open',
].join('\n');

/** The states, each given to a fresh panel. */
const STATES: Array<[string, unknown[], ((page: Page) => Promise<void>)?]> = [
  ['empty', [settings(), { type: 'conversation', conversation: { id: 'c', title: 'New Chat', messages: [] }, status: { busy: false }, version: 1 }]],
  [
    'a conversation with code, tables and links',
    [
      settings(),
      {
        type: 'conversation',
        conversation: {
          id: 'c',
          title: 't',
          messages: [
            { id: 'msg_000', role: 'user', content: 'How do I add two numbers?', status: 'complete' },
            { id: 'msg_001', role: 'assistant', content: RICH, status: 'complete', meta: { model: 'swift-chat', credits: 2, reasoning: 'Think about it.' } },
          ],
        },
        status: { busy: false },
        version: 1,
      },
    ],
  ],
  [
    'a reply streaming',
    [
      settings(),
      { type: 'conversation', conversation: { id: 'c', title: 't', messages: [] }, status: { busy: false }, version: 1 },
      { type: 'turnStarted', user: { id: 'msg_000', role: 'user', content: 'Explain', status: 'complete' }, assistant: { id: 'msg_001', role: 'assistant', content: '', status: 'streaming' }, status: { busy: true }, version: 2 },
      { type: 'streamChunk', messageId: 'msg_001', offset: 0, text: 'Here is the start of it, with ```ts\nconst x = 1;\n', version: 3 },
    ],
  ],
  [
    'an error',
    [
      settings(),
      {
        type: 'conversation',
        conversation: {
          id: 'c',
          title: 't',
          messages: [
            { id: 'msg_000', role: 'user', content: 'Hello', status: 'complete' },
            { id: 'msg_001', role: 'assistant', content: '', status: 'error', error: { kind: 'server', message: 'The service failed (500). Try again.', actions: ['retry'] } },
          ],
        },
        status: { busy: false, sendError: { kind: 'auth', message: 'The API key was refused.', actions: ['setApiKey'] } },
        version: 1,
      },
    ],
  ],
  [
    'the out-of-credits card',
    [
      settings({ outOfCredits: { balance: 1, cost: 5, model: 'deep-think', affordable: 0 } }),
      { type: 'conversation', conversation: { id: 'c', title: 't', messages: [{ id: 'msg_000', role: 'user', content: 'Hello', status: 'complete' }] }, status: { busy: false }, version: 1 },
    ],
  ],
  [
    'the queue',
    [
      settings(),
      { type: 'conversation', conversation: { id: 'c', title: 't', messages: [{ id: 'msg_000', role: 'user', content: 'Hello', status: 'complete' }, { id: 'msg_001', role: 'assistant', content: 'Thinking', status: 'streaming' }] }, status: { busy: true }, version: 1 },
      { type: 'queue', items: [{ id: 'q1', text: 'And then?', cost: 1 }, { id: 'q2', text: 'One more thing', cost: 1 }], state: 'stopped', reason: 'the reply failed' },
    ],
  ],
  [
    'the find bar open',
    findConversation(20),
    async (page) => {
      await page.locator('textarea#message').focus();
      await page.keyboard.press('Control+f');
      await page.locator('.find-input').fill('common');
      await frames(page, 2);
    },
  ],
];

export interface AxeFigures {
  state: string;
  violations: Found[];
}

export async function axeChecks(browser: Browser, record: Record, log: (line: string) => void = console.log): Promise<AxeFigures[]> {
  const group = 'axe';
  const panel = await serveChatPanel();
  const figures: AxeFigures[] = [];
  try {
    for (const [state, messages, act] of STATES) {
      const page = await browser.newPage({ viewport: { width: 420, height: 700 } });
      try {
        await page.goto(panel.url);
        await page.addStyleTag({ content: DARK_THEME });
        await page.evaluate(() => document.body.classList.add('vscode-dark'));
        await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
        await give(page, messages);
        await frames(page, 4);
        if (act) await act(page);
        await page.addScriptTag({ content: AXE });
        const violations = await runAxe(page);
        figures.push({ state, violations });
        const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        record(group, `${state}: no violation of impact serious or critical`, bad.length === 0, bad.map((v) => `${v.id} (${v.impact}, ${v.nodes} nodes, ${v.target})`).join('; '));
        log(`axe ${state}: ${violations.length ? violations.map((v) => `${v.id} (${v.impact}, ${v.nodes})`).join(', ') : 'no violations'}`);
      } finally {
        await page.close();
      }
    }
  } finally {
    await panel.close();
  }
  return figures;
}
