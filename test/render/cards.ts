// The out-of-credits card and the drop target in Chromium, through the real webview bundle:
// the card shows the figures as text (a hostile model name stays text), its buttons ask the host
// for the allowlisted commands, it goes when the host's settings no longer carry it; a drag of
// files shows the drop hint and a drop posts the URIs, a drag of text does neither.
import type { Browser, Page } from 'playwright-core';
import type { ChatSettings } from '../../src/protocol';
import { serveChatPanel, frames, give, type Recorder } from './harness';

const HOSTILE_MODEL = '<img src=x onerror="window.__pwned=1">';

const settings = (outOfCredits?: ChatSettings['outOfCredits']): ChatSettings => ({
  models: [{ valueId: 'swift-chat', name: 'Swift Chat', cost: 1, usable: true }],
  modelsLoading: false,
  selectedModel: 'swift-chat',
  selectedModelCost: 5,
  search: false,
  temperature: 1,
  fontSize: 0,
  hasKey: true,
  ...(outOfCredits ? { outOfCredits } : {}),
});

const posted = (page: Page) => page.evaluate(() => (window as unknown as { __posted: Array<{ type: string; [k: string]: unknown }> }).__posted.slice());

export async function cardChecks(browser: Browser, record: Recorder): Promise<void> {
  const group = 'cards';
  const panel = await serveChatPanel();
  const page = await browser.newPage({ viewport: { width: 700, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(panel.url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));

    await give(page, [{ type: 'settings', settings: settings({ balance: 2, cost: 5, model: HOSTILE_MODEL, affordable: 1 }) }]);
    await frames(page);
    const card = await page.evaluate(() => {
      const el = document.querySelector<HTMLElement>('section.credits-card');
      return {
        shown: !!el && !el.hidden,
        text: el?.textContent ?? '',
        role: el?.getAttribute('role'),
        images: el?.querySelectorAll('img').length ?? -1,
        buttons: [...(el?.querySelectorAll('button') ?? [])].map((b) => b.getAttribute('aria-label') ?? b.textContent ?? ''),
      };
    });
    record(group, 'the out-of-credits card shows the balance, the cost and the model as text', card.shown && card.text.includes('2 credits') && card.text.includes('5 credits') && card.text.includes(HOSTILE_MODEL) && card.images === 0, card.text.slice(0, 200));
    record(group, 'the card is announced (role alert) and has its three actions and Dismiss', card.role === 'alert' && ['Show Subscriptions', 'Refresh Balance', 'Pick a Cheaper Model', 'Dismiss'].every((b) => card.buttons.includes(b)), JSON.stringify(card.buttons));

    for (const [label, expected] of [['Show Subscriptions', { type: 'runCommand', command: 'showSubscriptions' }], ['Refresh Balance', { type: 'runCommand', command: 'refreshBalance' }], ['Pick a Cheaper Model', { type: 'runCommand', command: 'pickCheaperModel' }], ['Dismiss', { type: 'dismissOutOfCredits' }]] as const) {
      const before = (await posted(page)).length;
      const button = label === 'Dismiss' ? page.locator('section.credits-card button[aria-label="Dismiss"]') : page.locator('section.credits-card button').filter({ hasText: label });
      await button.first().click();
      const after = (await posted(page)).slice(before);
      record(group, `"${label}" asks the host for ${JSON.stringify(expected)}`, after.length === 1 && JSON.stringify(after[0]) === JSON.stringify(expected), JSON.stringify(after));
    }

    await give(page, [{ type: 'settings', settings: settings({ balance: 0, cost: 5, model: 'deep-think', affordable: 0 }) }]);
    await frames(page);
    const none = await page.evaluate(() => ({
      cheaper: [...document.querySelectorAll('section.credits-card button')].some((b) => b.textContent === 'Pick a Cheaper Model'),
      text: document.querySelector('section.credits-card')?.textContent ?? '',
    }));
    record(group, 'with no model the balance pays, the card says so instead of offering a cheaper one', !none.cheaper && /No model costs less/.test(none.text), none.text.slice(0, 200));

    await give(page, [{ type: 'settings', settings: settings() }]);
    await frames(page);
    record(group, 'the card goes when the settings no longer carry it', await page.evaluate(() => (document.querySelector('section.credits-card') as HTMLElement).hidden));

    // Drag and drop, as the workbench hands it to the panel.
    // A script as text: the runner's transform would add helpers the page does not have.
    const drag = (data: { [type: string]: string }, drop: boolean) =>
      page.evaluate<{ taken: boolean; hint: boolean; after: boolean }>(`(() => {
        const dt = new DataTransfer();
        for (const [k, v] of Object.entries(${JSON.stringify(data)})) dt.setData(k, v);
        const target = document.querySelector('.conversation');
        const send = (type) => target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
        send('dragenter');
        const taken = !send('dragover');
        const hint = !document.querySelector('.drop-hint').hidden;
        send(${drop ? "'drop'" : "'dragleave'"});
        return { taken, hint, after: !document.querySelector('.drop-hint').hidden };
      })()`);
    const text = await drag({ 'text/plain': 'words' }, false);
    record(group, 'dragging text over the panel is not taken and shows no drop hint', !text.taken && !text.hint, JSON.stringify(text));
    const before = (await posted(page)).length;
    const files = await drag({ 'application/vnd.code.uri-list': 'file:///w/a.ts\r\nfile:///w/b.ts', 'text/uri-list': 'file:///w/a.ts' }, true);
    const sent = (await posted(page)).slice(before);
    record(group, 'dragging files shows the drop hint, which goes after the drop', files.taken && files.hint && !files.after, JSON.stringify(files));
    record(group, 'a drop posts every URI of the full list', JSON.stringify(sent) === JSON.stringify([{ type: 'dropUris', uris: ['file:///w/a.ts', 'file:///w/b.ts'], total: 2, outsideFiles: 0 }]), JSON.stringify(sent));

    const pwned = await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned);
    record(group, 'no script ran and no page error', pwned === undefined && errors.length === 0, JSON.stringify({ pwned, errors }));
  } finally {
    await page.close();
    await panel.close();
  }
}
