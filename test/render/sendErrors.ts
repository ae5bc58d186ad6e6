// A send that failed before the reply, in Chromium through the real webview bundle: the alert
// shows the service's message as text with the action that fixes it, the earlier turns stay,
// the rate limit's Retry counts down ("Retry in N s", disabled) and then offers Retry, and each
// action asks the host for its command. (Which fault gives which message and action is checked
// against the reference server in test/unit/core/chat/serviceFaults.test.ts.)
import type { Browser, Page } from 'playwright-core';
import type { ChatSettings, ErrorView } from '../../src/protocol';
import { frames, give, serveChatPanel, type Recorder } from './harness';

const settings: ChatSettings = {
  models: [{ valueId: 'swift-chat', name: 'Swift Chat', cost: 1, usable: true }],
  modelsLoading: false,
  selectedModel: 'swift-chat',
  selectedModelCost: 1,
  search: false,
  temperature: 1,
  fontSize: 0,
  hasKey: true,
};

const conversation = (version: number) => ({
  type: 'conversation',
  conversation: {
    id: 'conv-1',
    title: 'Faults',
    messages: [
      { id: 'msg_000', role: 'user', content: 'A first question that must stay', status: 'complete' },
      { id: 'msg_001', role: 'assistant', content: 'The first answer, kept.', status: 'complete' },
    ],
  },
  status: { busy: false },
  version,
});

const CASES: Array<{ name: string; error: ErrorView; buttons: string[]; posts?: Array<[string, unknown]> }> = [
  {
    name: 'auth',
    error: { kind: 'auth', message: 'The API key was rejected (HTTP 401).', actions: ['setApiKey'] },
    buttons: ['Set API Key'],
    posts: [['Set API Key', { type: 'runCommand', command: 'setApiKey' }]],
  },
  {
    name: 'credits',
    error: { kind: 'credits', message: 'Not enough credits: 0 left.', actions: ['showSubscriptions'] },
    buttons: ['Show Subscriptions'],
    posts: [['Show Subscriptions', { type: 'runCommand', command: 'showSubscriptions' }]],
  },
  {
    name: 'server error with an HTML body',
    error: { kind: 'server', message: 'Server error: <html><body><h1>502 Bad Gateway</h1></body></html>', actions: ['retry'] },
    buttons: ['Retry'],
    posts: [['Retry', { type: 'retry' }]],
  },
];

const alertOf = (page: Page) =>
  page.evaluate(() => {
    const alerts = [...document.querySelectorAll<HTMLElement>('[role="alert"]')].filter((a) => !a.hidden && a.textContent?.trim());
    const box = alerts.find((a) => a.querySelector('.error-message'));
    return {
      message: box?.querySelector('.error-message')?.textContent ?? '',
      elementsInMessage: box?.querySelector('.error-message')?.children.length ?? -1,
      buttons: [...(box?.querySelectorAll('button') ?? [])].map((b) => ({ text: (b.textContent ?? '').trim(), disabled: b.disabled })),
      articles: document.querySelectorAll('article').length,
    };
  });

const posted = (page: Page) => page.evaluate(() => (window as unknown as { __posted: unknown[] }).__posted.map((m) => JSON.stringify(m)));

export async function sendErrorChecks(browser: Browser, record: Recorder): Promise<void> {
  const group = 'send errors';
  const panel = await serveChatPanel();
  try {
    const open = async () => {
      const page = await browser.newPage({ viewport: { width: 700, height: 800 } });
      await page.goto(panel.url);
      await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
      await give(page, [{ type: 'settings', settings }, conversation(1)]);
      return page;
    };

    for (const c of CASES) {
      const page = await open();
      try {
        await give(page, [{ type: 'status', status: { busy: false, sendError: c.error }, version: 2 }]);
        await frames(page);
        const shown = await alertOf(page);
        record(group, `${c.name}: the alert shows the message as text`, shown.message === c.error.message && shown.elementsInMessage === 0, JSON.stringify(shown));
        record(group, `${c.name}: the action that fixes it, and the earlier turn stays`, JSON.stringify(shown.buttons.map((b) => b.text)) === JSON.stringify(c.buttons) && shown.articles === 2, JSON.stringify(shown));
        for (const [label, message] of c.posts ?? []) {
          await page.getByRole('alert').getByRole('button', { name: label, exact: true }).click();
          const sent = await posted(page);
          record(group, `${c.name}: ${label} asks the host for ${JSON.stringify(message)}`, sent.includes(JSON.stringify(message)), sent.slice(-3).join(' '));
        }
      } finally {
        await page.close();
      }
    }

    // The rate limit: Retry counts down, disabled, then is offered.
    const page = await open();
    try {
      await give(page, [{ type: 'status', status: { busy: false, sendError: { kind: 'rate-limit', message: 'Too many requests: the service asks to wait.', actions: ['retry'], retryAfterSeconds: 2 } }, version: 2 }]);
      await frames(page);
      const first = await alertOf(page);
      record(group, 'rate limit: "Retry in 2 s", disabled, while the wait runs', first.buttons.length === 1 && first.buttons[0].text === 'Retry in 2 s' && first.buttons[0].disabled, JSON.stringify(first));
      const offered = await page
        .waitForFunction(() => [...document.querySelectorAll<HTMLButtonElement>('[role="alert"] button')].some((b) => b.textContent?.trim() === 'Retry' && !b.disabled), undefined, { timeout: 10_000 })
        .then(() => true, () => false);
      record(group, 'rate limit: Retry is offered once the wait is over', offered, JSON.stringify(await alertOf(page)));
    } finally {
      await page.close();
    }
  } finally {
    await panel.close();
  }
}
