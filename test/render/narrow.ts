// The chat at the side bar's narrowest: code-server's default side bar is about 270 px wide, and a
// user can make it 170 px. At 240 px and 300 px, with everything the composer and a turn can show at
// once (the boundary line with its Summarize button, the context meter and the next message's
// price, chips, a queued message, a reply's Apply All and its Undo, a rule list, an error with its
// buttons, the `#` menu open with long names), nothing runs out of the view sideways and every
// button's label can be read whole.
// On the same page, the row of a reply's changes: Apply All under a reply whose blocks name files,
// "Applied to N files" with Undo under one whose changes stand, each posting its action; another
// conversation's states are not shown.
import type { Browser } from 'playwright-core';
import { appendMessage, createConversation, requestBudget, type SentItem } from '../../src/core';
import { ContextMeterFeed } from '../../src/extension/chat/common/contextMeter';
import type { HostMessage } from '../../src/protocol';
import { frames, give, serveChatPanel, type Recorder } from './harness';
import { makeController } from '../support/session';

const WIDTHS = [240, 300];

/** "Sent with this message" under the last question: a long range name, a pinned file, the instructions and a rule. */
const SENT: SentItem[] = [
  { kind: 'range', name: 'src/components/VeryLongComponentNameForTheNarrowSideBar.tsx:120-180', path: 'src/components/VeryLongComponentNameForTheNarrowSideBar.tsx', startLine: 120, endLine: 180, bytes: 3200 },
  { kind: 'file', name: 'b.ts', path: 'src/b.ts', bytes: 812, pinned: true },
  { kind: 'terminal', name: 'bash', bytes: 90 },
  { kind: 'instructions', name: 'AGENTS.md', path: 'AGENTS.md', bytes: 1500 },
  { kind: 'rule', name: '.github/instructions/a-very-long-rule-file-name.instructions.md', path: '.github/instructions/a-very-long-rule-file-name.instructions.md', bytes: 400 },
];

async function messages(): Promise<HostMessage[]> {
  const conv = createConversation('conv-narrow');
  for (let i = 0; i < 30; i++) {
    appendMessage(conv, 'user', `Question ${i} about src/components/VeryLongComponentNameForTheNarrowSideBar.tsx`, new Date(), i === 29 ? { sent: SENT } : {});
    const files = i === 29 ? '\n\n```ts src/components/VeryLongComponentNameForTheNarrowSideBar.tsx\nexport const x = 1;\n```\n\n```ts src/b.ts\nexport const y = 2;\n```' : '';
    appendMessage(conv, 'assistant', `Answer ${i} `.padEnd(2400, 'x') + files, new Date(), {
      status: 'complete',
      meta: { model: 'swift-chat', credits: 2, rules: [{ path: '.github/instructions/a-very-long-rule-file-name.instructions.md', why: 'its `applyTo` matches `src/components/VeryLongComponentNameForTheNarrowSideBar.tsx`' }] },
    });
  }
  const { session, store, controller } = makeController({
    backend: { chat: () => Promise.reject(new Error('no requests here')), chatStream: () => Promise.reject(new Error('no requests here')) },
    settings: { systemPrompt: 'Be brief.' },
    contextBudget: () => requestBudget(4096).inputTokens,
    controller: { pickModel: async () => true },
  });
  await store.save(conv);
  await session.open(conv.id);
  const meter = new ContextMeterFeed({ session, attachments: () => [], source: () => 'model', post: () => undefined }).message();
  const previous = conv.messages.at(-3)!.id;
  // The reply before the last names the same files (its row says its changes stand).
  conv.messages.at(-3)!.content += '\n\n```ts src/b.ts\nexport const y = 1;\n```';
  return [
    ...controller.initialMessages(),
    meter,
    {
      type: 'contextChips',
      chips: [
        { id: 'ctx_1', name: 'src/components/VeryLongComponentNameForTheNarrowSideBar.tsx:120-180', detail: '3.1 KB', icon: 'selection', path: 'src/components/VeryLongComponentNameForTheNarrowSideBar.tsx' },
        { id: 'ctx_2', name: 'Problems', detail: 'src/b.ts', icon: 'warning', path: 'src/b.ts' },
        { id: 'ctx_3', name: 'src/components/VeryLongComponentNameForTheNarrowSideBar.tsx:12-40', detail: '1.2 KB · kept for this conversation, no extra credits', icon: 'pinned', path: 'src/components/VeryLongComponentNameForTheNarrowSideBar.tsx', pinned: true },
        { id: 'ctx_4', name: 'AnotherQuiteLongFileNameToPin.ts', detail: '4.0 KB', icon: 'file', path: 'src/AnotherQuiteLongFileNameToPin.ts', pinnable: true },
      ],
    },
    { type: 'queue', items: [{ id: 'q1', text: 'A queued follow-up question that is long enough to need several lines in a narrow view', cost: 2 }], state: 'stopped', reason: 'The reply failed: the queue waits.' },
    { type: 'replyChanges', conversationId: conv.id, replies: [{ messageId: previous, state: 'applied', files: 2 }] },
    { type: 'status', status: { busy: false, sendError: { kind: 'invalid', message: 'The service refused the request: input is too long', actions: ['fewerMessages', 'retry'] } } },
    { type: 'restoreInput', text: 'typed' },
  ];
}

/** Every visible element whose box leaves the view sideways, and every button whose label is cut (a string: run as written). */
const OVERFLOW = `(() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const e of document.querySelectorAll('.composer *, .context-boundary, .context-boundary *, .reply-changes *, .message-footer *, .queue *, .error-box *, .context-chips *')) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden') continue;
    const label = e.tagName.toLowerCase() + '.' + [...e.classList].join('.') + ' "' + (e.textContent || '').trim().slice(0, 40) + '"';
    if (r.left < -0.5 || r.right > width + 0.5) out.push(label + ' spans ' + Math.round(r.left) + '-' + Math.round(r.right) + ' of ' + width);
    if (e.tagName === 'BUTTON' && e.scrollWidth > e.clientWidth + 1) out.push(label + ' label cut (' + e.scrollWidth + ' > ' + e.clientWidth + ')');
  }
  if (document.documentElement.scrollWidth > width + 0.5) out.push('the page scrolls sideways (' + document.documentElement.scrollWidth + ' > ' + width + ')');
  return out;
})()`;

export async function narrowChecks(browser: Browser, record: Recorder, shots?: string): Promise<void> {
  const group = 'narrow side bar';
  const panel = await serveChatPanel();
  try {
    const initial = await messages();
    for (const width of WIDTHS) {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      try {
        await page.goto(panel.url);
        await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
        await give(page, initial);
        await frames(page);
        await page.evaluate(() => {
          for (const d of document.querySelectorAll<HTMLDetailsElement>('details.sent-with')) d.open = true;
          const list = document.querySelector('.messages') as HTMLElement;
          list.scrollTop = list.scrollHeight;
        });
        // The # menu open over the box, with long names.
        await page.locator('textarea#message').focus();
        await page.keyboard.press('End');
        await page.keyboard.type(' #VeryLong');
        const seq = await page.evaluate(() => (window as unknown as { __posted: Array<{ type: string; seq?: number }> }).__posted.filter((m) => m.type === 'contextSearch').at(-1)?.seq ?? 0);
        await give(page, [
          {
            type: 'contextOptions',
            seq,
            options: [
              { kind: 'action', icon: 'git-branch', label: 'branch', detail: 'the branch against its base' },
              { kind: 'symbol', icon: 'symbol-method', label: 'VeryLongComponentNameForTheNarrowSideBarRenderFunction', detail: 'src/components/VeryLongComponentNameForTheNarrowSideBar.tsx:120' },
              { kind: 'file', icon: 'file', label: 'VeryLongComponentNameForTheNarrowSideBar.tsx', detail: 'src/components/VeryLongComponentNameForTheNarrowSideBar.tsx' },
              { kind: 'folder', icon: 'folder', label: 'src/components/VeryLongFolderNameForTheNarrowSideBar/with/many/levels' },
            ],
          },
        ]);
        await frames(page);
        if (shots) await page.screenshot({ path: `${shots}/narrow-${width}.png` });
        const found = await page.evaluate<string[]>(OVERFLOW);
        const menuOpen = await page.evaluate(() => document.querySelectorAll('#hash-menu [role="option"]').length);
        record(group, `at ${width} px nothing runs out of the view and every button's label is whole (the # menu open)`, found.length === 0 && menuOpen === 4, `${menuOpen} options; ` + found.slice(0, 8).join('; '));
        await page.keyboard.press('Escape');
        if (width === WIDTHS[0]) {
          await sentChecks(page, record);
          await rowChecks(page, initial, record);
          await longWordChecks(page, record);
        }
      } finally {
        await page.close();
      }
    }
  } finally {
    await panel.close();
  }
}

/** "Sent with this message" under the last question: each item with its size; a file's opens it at its lines. */
async function sentChecks(page: import('playwright-core').Page, record: Recorder): Promise<void> {
  const group = 'sent with this message';
  const shown = await page.evaluate<{ summary: string; items: string[] }>(
    `(() => { const d = [...document.querySelectorAll('details.sent-with')].at(-1); return { summary: d ? d.querySelector('summary').textContent : '', items: d ? [...d.querySelectorAll('li')].map((li) => li.textContent) : [] }; })()`,
  );
  record(group, 'the summary counts the items and their size', shown.summary === 'Sent with this message: 5 · 5.9 KB', shown.summary);
  record(
    group,
    'each item with what it is and its size',
    JSON.stringify(shown.items) ===
      JSON.stringify([
        'src/components/VeryLongComponentNameForTheNarrowSideBar.tsx:120-180 · lines · 3.1 KB',
        'b.ts · file, pinned · 812 B',
        'bash · terminal selection · 90 B',
        'AGENTS.md · project instructions · 1.5 KB',
        '.github/instructions/a-very-long-rule-file-name.instructions.md · rule · 400 B',
      ]),
    JSON.stringify(shown.items),
  );
  const lines = await page.evaluate<string>(
    `(() => { const l = document.querySelector('.context-chip-lines'); const c = l && l.closest('.context-chip').getBoundingClientRect(); const r = l && l.getBoundingClientRect(); return l && r.width > 0 && r.right <= c.right + 0.5 ? l.textContent : 'hidden'; })()`,
  );
  record('narrow side bar', "a range chip's lines stay whole when its path is cut", lines === ':120-180', lines);
  await page.evaluate(`(window.__posted.length = 0, document.querySelector('.context-chip[data-id="ctx_4"] .context-chip-pin').click(), document.querySelector('.context-chip.pinned .context-chip-remove').click())`);
  const pins = await page.evaluate('window.__posted.filter((m) => m.type === "pinContext" || m.type === "removeContext")');
  record('narrow side bar', "a file chip's pin button pins it; a pinned chip's × unpins it", JSON.stringify(pins) === JSON.stringify([{ type: 'pinContext', id: 'ctx_4' }, { type: 'removeContext', id: 'ctx_3' }]), JSON.stringify(pins));
  const marked = await page.evaluate<string>(`document.querySelector('.context-chip.pinned').getAttribute('title')`);
  record('narrow side bar', 'a pinned chip says it is kept for the conversation at no extra credits', /kept for this conversation, no extra credits/.test(marked), marked);
  await page.evaluate(`(window.__posted.length = 0, [...document.querySelectorAll('details.sent-with')].at(-1).querySelector('.sent-open').click())`);
  const posted = await page.evaluate('window.__posted.filter((m) => m.type === "openSent")');
  record(group, 'a range opens its file at its lines', JSON.stringify(posted) === JSON.stringify([{ type: 'openSent', path: 'src/components/VeryLongComponentNameForTheNarrowSideBar.tsx', startLine: 120, endLine: 180 }]), JSON.stringify(posted));
}

/** The row under the replies: what each shows and posts. */
async function rowChecks(page: import('playwright-core').Page, initial: HostMessage[], record: Recorder): Promise<void> {
  const group = 'reply changes';
  const conv = initial.find((m) => m.type === 'conversation');
  if (conv?.type !== 'conversation') return record(group, 'the conversation is given', false);
  const ids = conv.conversation.messages.map((m) => m.id);
  const [last, previous] = [ids.at(-1), ids.at(-3)];
  const rows = () =>
    page.evaluate<Array<[string, string]>>(`[...document.querySelectorAll('article.message')].map((a) => [a.dataset.id, (a.querySelector('.reply-changes:not([hidden])') || {}).textContent || ''])`);
  const shown = new Map(await rows());
  record(group, 'a reply whose code blocks name two files offers Apply All (2 files)', shown.get(last!) === 'Apply All (2 files)…', JSON.stringify(shown.get(last!)));
  record(group, 'a reply whose changes stand says so, with Undo', shown.get(previous!) === 'Applied to 2 filesUndo', JSON.stringify(shown.get(previous!)));
  record(group, 'a reply whose blocks name no file has no row', shown.get(ids.at(-5)!) === '', JSON.stringify(shown.get(ids.at(-5)!)));
  await page.evaluate(`(window.__posted.length = 0, [...document.querySelectorAll('article.message')].find((a) => a.dataset.id === ${JSON.stringify(previous)}).querySelector('.undo-changes').click(), [...document.querySelectorAll('article.message')].find((a) => a.dataset.id === ${JSON.stringify(last)}).querySelector('.apply-all').click())`);
  const posted = await page.evaluate('window.__posted.filter((m) => m.type === "replyChangesAction")');
  record(group, 'Undo and Apply All post their action for their reply', JSON.stringify(posted) === JSON.stringify([{ type: 'replyChangesAction', action: 'undo', messageId: previous }, { type: 'replyChangesAction', action: 'apply', messageId: last }]), JSON.stringify(posted));
  await give(page, [{ type: 'replyChanges', conversationId: conv.conversation.id, replies: [{ messageId: previous!, state: 'undone', files: 2 }] }]);
  await frames(page);
  record(group, 'undone: the row says so, with Redo', new Map(await rows()).get(previous!) === 'Changes undoneRedo');
  await give(page, [{ type: 'replyChanges', conversationId: 'another-conversation', replies: [{ messageId: previous!, state: 'gone', files: 2 }] }]);
  await frames(page);
  record(group, 'what is said of another conversation is not shown', new Map(await rows()).get(previous!) === 'Changes undoneRedo');
}

/** A reply of one 100 KB word (a base64 blob, say) wraps inside the view at its width, its text whole. */
async function longWordChecks(page: import('playwright-core').Page, record: Recorder): Promise<void> {
  const word = 'QmFzZTY0'.repeat(12_500);
  await give(page, [
    {
      type: 'conversation',
      conversation: { id: 'conv-long-word', title: 'A long word', messages: [{ id: 'msg_001', role: 'assistant', content: `Here it is: ${word} done`, status: 'complete' }] },
      status: { busy: false },
    },
  ]);
  await frames(page);
  const seen = await page.evaluate<{ overflow: number; width: number; text: string; breaks: number }>(`(() => {
    const body = document.querySelector('article.message .assistant-body');
    return { overflow: document.documentElement.scrollWidth, width: document.documentElement.clientWidth, text: body ? body.textContent : '', breaks: body ? body.querySelectorAll('wbr').length : 0 };
  })()`);
  record('narrow side bar', 'a reply of one 100 KB word wraps inside the view, its text unchanged', seen.overflow <= seen.width && seen.text.trim() === `Here it is: ${word} done` && seen.breaks > 0, JSON.stringify({ ...seen, text: seen.text.length }));
}
