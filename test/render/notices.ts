// The panel's notices in Chromium, through the real webview bundle: the workspace model notice
// is shown as text (a hostile model name stays text) with a Select Model button that asks the
// host for the model pick, next to the address notice; both go when the settings drop them.
import type { Browser, Page } from 'playwright-core';
import type { ChatSettings } from '../../src/protocol';
import { serveChatPanel, frames, give, type Recorder } from './harness';

const HOSTILE = '<img src=x onerror="window.__pwned=1">';

const settings = (extra: Partial<ChatSettings> = {}): ChatSettings => ({
  models: [{ valueId: 'swift-chat', name: 'Swift Chat', cost: 1, usable: true }],
  modelsLoading: false,
  selectedModel: 'swift-chat',
  selectedModelCost: 1,
  search: false,
  temperature: 1,
  fontSize: 0,
  hasKey: true,
  ...extra,
});

const posted = (page: Page) => page.evaluate(() => (window as unknown as { __posted: Array<{ type: string; [k: string]: unknown }> }).__posted.slice());
const notice = (page: Page) =>
  page.evaluate(() => {
    const el = document.querySelector<HTMLElement>('.notice');
    return {
      shown: !!el && !el.hidden,
      text: el?.textContent ?? '',
      images: el?.querySelectorAll('img').length ?? -1,
      buttons: [...(el?.querySelectorAll('button') ?? [])].map((b) => b.textContent ?? ''),
      pwned: (window as unknown as { __pwned?: number }).__pwned === 1,
    };
  });

export async function noticeChecks(browser: Browser, record: Recorder): Promise<void> {
  const group = 'notices';
  const panel = await serveChatPanel();
  const page = await browser.newPage({ viewport: { width: 700, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(panel.url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));

    const modelNotice = `This workspace's settings choose the model ${HOSTILE}; it is ignored unless you pick it for this workspace. Your model swift-chat is used.`;
    await give(page, [{ type: 'settings', settings: settings({ modelNotice }) }]);
    await frames(page);
    const shown = await notice(page);
    record(group, 'the workspace model notice is shown, the model name as text', shown.shown && shown.text.includes(modelNotice) && shown.images === 0 && !shown.pwned, shown.text.slice(0, 200));
    record(group, 'the model notice has a Select Model button', shown.buttons.includes('Select Model'), JSON.stringify(shown.buttons));

    const before = (await posted(page)).length;
    await page.locator('.notice button').filter({ hasText: 'Select Model' }).first().click();
    const after = (await posted(page)).slice(before);
    record(group, 'Select Model asks the host for the model pick (no model id)', after.length === 1 && JSON.stringify(after[0]) === JSON.stringify({ type: 'selectModel' }), JSON.stringify(after));

    const addressNotice = 'AI Chat: your setting aiChat.baseUrl ("localhost:8787") is not a usable service address: it has no http:// or https:// at the start (for example http://localhost:8787). Nothing is sent until you fix it.';
    await give(page, [{ type: 'settings', settings: settings({ modelNotice, addressNotice }) }]);
    await frames(page);
    const both = await notice(page);
    record(group, 'the address notice and the model notice are shown together', both.shown && both.text.includes('aiChat.baseUrl ("localhost:8787")') && both.text.includes(modelNotice) && both.buttons.includes('Review Service Address') && both.buttons.includes('Select Model'), JSON.stringify(both.buttons));

    await give(page, [{ type: 'settings', settings: settings() }]);
    await frames(page);
    const gone = await notice(page);
    record(group, 'the notices go when the settings no longer carry them', !gone.shown && !gone.text.includes('workspace'), gone.text.slice(0, 200));

    // The host finds the API key in the draft: the box says so, and the webview's own state (kept
    // on disk by VS Code) loses the draft until the key is taken out.
    const key = 'sk-render-key-0000000042';
    const box = page.locator('#message');
    const state = () => page.evaluate(() => (window as unknown as { __state?: { draft?: string } }).__state?.draft);
    const keyNotice = () => page.evaluate(() => {
      const el = document.querySelector<HTMLElement>('.key-notice');
      return { shown: !!el && !el.hidden, role: el?.getAttribute('role'), text: el?.textContent ?? '', invalid: document.querySelector('#message')?.hasAttribute('aria-invalid') ?? false };
    });
    await box.fill(`my key ${key}`);
    await page.waitForFunction((k) => (window as unknown as { __posted: Array<{ type: string; text?: string }> }).__posted.some((m) => m.type === 'draft' && m.text?.includes(k)), key);
    const hiddenFirst = await keyNotice();
    await give(page, [{ type: 'draftHoldsKey', holds: true }]);
    await frames(page);
    const flagged = await keyNotice();
    record(group, 'the key notice is hidden until the host finds the key', !hiddenFirst.shown && !hiddenFirst.invalid, JSON.stringify(hiddenFirst));
    record(group, 'told the box holds the key: an alert says so and the box is marked invalid', flagged.shown && flagged.role === 'alert' && /API key/.test(flagged.text) && flagged.invalid, JSON.stringify(flagged));
    record(group, "the webview's state drops the draft that holds the key", (await state()) === '', JSON.stringify(await state()));
    await box.fill(`my key ${key} and more`);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string; text?: string }> }).__posted.some((m) => m.type === 'draft' && !!m.text?.endsWith('and more')));
    record(group, 'typing on does not put it back in the state', (await state()) === '', JSON.stringify(await state()));
    await box.fill('my key is gone');
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string; text?: string }> }).__posted.some((m) => m.type === 'draft' && m.text === 'my key is gone'));
    await give(page, [{ type: 'draftHoldsKey', holds: false }]);
    await frames(page);
    const cleared = await keyNotice();
    record(group, 'the key taken out: the notice goes and the draft is kept again', !cleared.shown && !cleared.invalid && (await state()) === 'my key is gone', `${JSON.stringify(cleared)} ${JSON.stringify(await state())}`);
    record(group, 'no page errors', errors.length === 0, errors.join('; '));
  } finally {
    await page.close();
    await panel.close();
  }
}
