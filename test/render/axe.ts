// The chat panel checked by axe-core in Chromium, through the real webview bundle, in each state
// a user meets: empty, a conversation with code, tables and links, user messages with links (and
// the Edit link of the last one), a reply streaming, an error, the out-of-credits card, the queue,
// the find bar open. The goal: no violation of impact serious or critical. Every violation found
// is printed with its impact (docs/TESTING.md lists the others). Each state is checked in a dark and
// two light themes (VS Code's own variables and body class), so contrast is judged on each.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { findConversation } from './find';
import { ROOT, serveChatPanel, frames, give, type Recorder as Record } from './harness';

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

/** The fonts of every theme. */
const FONTS = `--vscode-font-family: sans-serif; --vscode-font-size: 13px; --vscode-editor-font-size: 14px; --vscode-editor-font-family: monospace;`;

/** VS Code's Light Modern: its colour file, and VS Code's default light colours where it names none. */
export const LIGHT_MODERN_THEME = `
html {
  ${FONTS}
  --vscode-foreground: #3b3b3b; --vscode-descriptionForeground: #3b3b3b; --vscode-errorForeground: #f85149;
  --vscode-editor-background: #ffffff; --vscode-editor-foreground: #3b3b3b; --vscode-focusBorder: #005fb8;
  --vscode-editor-inactiveSelectionBackground: #e5ebf1;
  --vscode-button-background: #005fb8; --vscode-button-foreground: #ffffff; --vscode-button-hoverBackground: #0258a8; --vscode-button-border: #0000001a;
  --vscode-button-secondaryBackground: #e5e5e5; --vscode-button-secondaryForeground: #3b3b3b; --vscode-button-secondaryHoverBackground: #cccccc;
  --vscode-input-background: #ffffff; --vscode-input-foreground: #3b3b3b; --vscode-input-border: #cecece;
  --vscode-input-placeholderForeground: #767676; --vscode-dropdown-background: #ffffff; --vscode-dropdown-foreground: #3b3b3b;
  --vscode-dropdown-border: #cecece; --vscode-dropdown-listBackground: #ffffff; --vscode-panel-border: #e5e5e5; --vscode-widget-border: #e5e5e5;
  --vscode-textLink-foreground: #005fb8; --vscode-textLink-activeForeground: #005fb8;
  --vscode-textBlockQuote-background: #f8f8f8; --vscode-textBlockQuote-border: #e5e5e5;
  --vscode-icon-foreground: #3b3b3b; --vscode-editorWidget-background: #f8f8f8;
  --vscode-inputOption-activeBackground: #bed6ed; --vscode-inputOption-activeBorder: #005fb8; --vscode-inputOption-activeForeground: #000000;
  --vscode-editor-findMatchBackground: #a8ac94; --vscode-editor-findMatchHighlightBackground: #ea5c0055;
  --vscode-inputValidation-errorBackground: #f2dede; --vscode-inputValidation-errorBorder: #be1100;
  --vscode-inputValidation-warningBackground: #f6f5d2; --vscode-inputValidation-warningBorder: #b89500;
  --vscode-inputValidation-infoBackground: #d6ecf2; --vscode-inputValidation-infoBorder: #007acc;
  --vscode-editorWarning-foreground: #bf8803; --vscode-badge-background: #cccccc; --vscode-badge-foreground: #3b3b3b;
  --vscode-textPreformat-foreground: #3b3b3b; --vscode-textPreformat-background: #0000001f; --vscode-textCodeBlock-background: #f8f8f8;
  --vscode-progressBar-background: #005fb8; --vscode-toolbar-hoverBackground: #b8b8b850;
  --vscode-symbolIcon-classForeground: #d67e00; --vscode-symbolIcon-functionForeground: #652d90; --vscode-symbolIcon-variableForeground: #007acc;
  --vscode-debugTokenExpression-name: #9b46b0; --vscode-debugTokenExpression-number: #098658; --vscode-debugTokenExpression-string: #a31515;
  --vscode-debugTokenExpression-value: #6c6c6ccc;
  /* VS Code gives these symbol colours the foreground when a theme names none. */
  --vscode-symbolIcon-keywordForeground: #3b3b3b; --vscode-symbolIcon-constantForeground: #3b3b3b; --vscode-symbolIcon-namespaceForeground: #3b3b3b;
  --vscode-symbolIcon-numberForeground: #3b3b3b; --vscode-symbolIcon-propertyForeground: #3b3b3b; --vscode-symbolIcon-stringForeground: #3b3b3b;
}`;

/**
 * VS Code's 2026 Light (its colour file over Light Modern's). Its quote background, which a user
 * message takes, is darker than Light Modern's: the link colour on it was 4.48:1.
 */
export const LIGHT_2026_THEME = `
html {
  ${FONTS}
  --vscode-foreground: #202020; --vscode-descriptionForeground: #606060; --vscode-errorForeground: #ad0707;
  --vscode-editor-background: #ffffff; --vscode-editor-foreground: #202020; --vscode-focusBorder: #0069cc;
  --vscode-editor-inactiveSelectionBackground: #0069cc1a;
  --vscode-button-background: #0069cc; --vscode-button-foreground: #ffffff; --vscode-button-hoverBackground: #0063c1; --vscode-button-border: #0069cc;
  --vscode-button-secondaryBackground: #eaeaea; --vscode-button-secondaryForeground: #202020; --vscode-button-secondaryHoverBackground: #f2f3f4;
  --vscode-input-background: #ffffff; --vscode-input-foreground: #202020; --vscode-input-border: #d8d8d866;
  --vscode-input-placeholderForeground: #999999; --vscode-dropdown-background: #ffffff; --vscode-dropdown-foreground: #202020;
  --vscode-dropdown-border: #d8d8d8; --vscode-dropdown-listBackground: #ffffff; --vscode-panel-border: #f0f1f2; --vscode-widget-border: #e2e2e5;
  --vscode-textLink-foreground: #0069cc; --vscode-textLink-activeForeground: #0069cc;
  --vscode-textBlockQuote-background: #eaeaea; --vscode-textBlockQuote-border: #f0f1f2;
  --vscode-icon-foreground: #606060; --vscode-editorWidget-background: #fafafd; --vscode-editorWidget-foreground: #202020; --vscode-editorWidget-border: #e4e5e6;
  --vscode-widget-shadow: #00000000;
  --vscode-inputOption-activeBackground: #d6d6d6; --vscode-inputOption-activeBorder: #f0f1f2; --vscode-inputOption-activeForeground: #202020;
  --vscode-editor-findMatchBackground: #0069cc40; --vscode-editor-findMatchHighlightBackground: #0069cc1a;
  --vscode-inputValidation-errorBackground: #fdeded; --vscode-inputValidation-errorBorder: #ad0707;
  --vscode-inputValidation-warningBackground: #fdf6e3; --vscode-inputValidation-warningBorder: #b69500;
  --vscode-inputValidation-infoBackground: #e6f2fa; --vscode-inputValidation-infoBorder: #0069cc;
  --vscode-editorWarning-foreground: #bf8803; --vscode-badge-background: #0069cc; --vscode-badge-foreground: #ffffff;
  --vscode-textPreformat-foreground: #606060; --vscode-textPreformat-background: #ececec; --vscode-textCodeBlock-background: #eaeaea;
  --vscode-progressBar-background: #0069cc; --vscode-toolbar-hoverBackground: #0000001f; --vscode-toolbar-activeBackground: #d6d6d8;
  --vscode-gitDecoration-addedResourceForeground: #587c0c; --vscode-gitDecoration-deletedResourceForeground: #ad0707;
  --vscode-symbolIcon-classForeground: #d67e00; --vscode-symbolIcon-functionForeground: #652d90; --vscode-symbolIcon-variableForeground: #007acc;
  --vscode-debugTokenExpression-name: #9b46b0; --vscode-debugTokenExpression-number: #098658; --vscode-debugTokenExpression-string: #a31515;
  --vscode-debugTokenExpression-value: #6c6c6ccc;
  /* VS Code gives these symbol colours the foreground when a theme names none. */
  --vscode-symbolIcon-keywordForeground: #202020; --vscode-symbolIcon-constantForeground: #202020; --vscode-symbolIcon-namespaceForeground: #202020;
  --vscode-symbolIcon-numberForeground: #202020; --vscode-symbolIcon-propertyForeground: #202020; --vscode-symbolIcon-stringForeground: #202020;
}`;

/** The themes every state is checked in: name, colours, and the class VS Code puts on the body. */
const THEMES: Array<[string, string, string]> = [
  ['Dark Modern', DARK_THEME, 'vscode-dark'],
  ['Light Modern', LIGHT_MODERN_THEME, 'vscode-light'],
  ['2026 Light', LIGHT_2026_THEME, 'vscode-light'],
];

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
    'user messages with links',
    [
      settings(),
      {
        type: 'conversation',
        conversation: {
          id: 'c',
          title: 't',
          messages: [
            { id: 'msg_000', role: 'user', content: 'Is https://example.com/api the right address?', status: 'complete' },
            { id: 'msg_001', role: 'assistant', content: 'Yes: [the API](https://example.com/api) answers there.', status: 'complete', meta: { model: 'swift-chat', credits: 1 } },
            { id: 'msg_002', role: 'user', content: 'And [the guide](https://example.com/guide), https://example.com/guide#start?', status: 'complete' },
            { id: 'msg_003', role: 'assistant', content: 'See https://example.com/guide#start.', status: 'complete', meta: { model: 'swift-chat', credits: 1 } },
          ],
        },
        status: { busy: false },
        version: 1,
      },
    ],
    async (page) => {
      // The last question has its Edit link: what the contrast check is about.
      await page.locator('.message.user button.link').first().waitFor();
    },
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
    for (const [theme, colours, bodyClass] of THEMES) for (const [stateName, messages, act] of STATES) {
      const state = `${theme}, ${stateName}`;
      const page = await browser.newPage({ viewport: { width: 420, height: 700 } });
      try {
        await page.goto(panel.url);
        await page.addStyleTag({ content: colours });
        await page.evaluate((c) => document.body.classList.add(c), bodyClass);
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
