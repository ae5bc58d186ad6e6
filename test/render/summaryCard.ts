// Summarize Earlier Turns in Chromium, through the real webview bundle, fed by the real session and
// meter feed: the boundary line's button says the turns above the line and the selected model's
// price and posts `summarize` (by mouse and by keyboard); a summary being written shows in a card
// with Stop; the kept summary is a card below the last turn it replaced, named for screen readers
// by what it replaced, with what it cost, its text rendered safely (hostile markup stays text);
// Edit by keyboard (Ctrl+Enter keeps, Escape does not), Remove by keyboard posts the undo and the
// focus goes to the conversation when the card goes.
import type { Browser, Page } from 'playwright-core';
import { appendMessage, createConversation } from '../../src/core';
import { ContextMeterFeed } from '../../src/extension/chat/common/contextMeter';
import type { HostMessage } from '../../src/protocol';
import { frames, give, serveChatPanel, type Recorder } from './harness';
import { makeController } from '../support/session';

const TURNS = 30;
const HOSTILE = 'Decisions so far: **use zod**.\n\n<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>\n\n[a link](https://example.com/x)';

async function fixture() {
  const conv = createConversation('conv-summary');
  for (let i = 0; i < TURNS; i++) {
    appendMessage(conv, 'user', `Question ${i}`, new Date());
    appendMessage(conv, 'assistant', `Answer ${i} `.padEnd(2000, 'x'), new Date(), { status: 'complete', meta: { model: 'swift-chat' } });
  }
  const { session, store, controller } = makeController({
    backend: { chat: () => Promise.reject(new Error('no requests here')), chatStream: () => Promise.reject(new Error('no requests here')) },
    contextBudget: () => 3072,
    controller: { pickModel: async () => true },
  });
  await store.save(conv);
  await session.open(conv.id);
  const meter = new ContextMeterFeed({ session, attachments: () => [], source: () => 'model', post: () => undefined });
  return { session, controller, meter };
}

/** The settings the controller sends, with the selected model's price set to 2 credits. */
function priced(messages: HostMessage[]): HostMessage[] {
  return messages.map((m) => (m.type === 'settings' ? { ...m, settings: { ...m.settings, selectedModelCost: 2 } } : m));
}

const posted = (page: Page) => page.evaluate(() => (window as unknown as { __posted: Array<{ type: string; text?: string }> }).__posted.filter((m) => m.type.startsWith('summar')));
const clearPosted = (page: Page) => page.evaluate(() => ((window as unknown as { __posted: unknown[] }).__posted.length = 0));

const card = (page: Page) =>
  page.evaluate(() => {
    const c = document.querySelector<HTMLElement>('.summary-card');
    const labelId = c?.getAttribute('aria-labelledby');
    const prev = c?.previousElementSibling as HTMLElement | null | undefined;
    const next = c?.nextElementSibling as HTMLElement | null | undefined;
    return {
      shown: !!c && !c.hidden && c.isConnected && c.getBoundingClientRect().height > 0,
      name: labelId ? (document.getElementById(labelId)?.textContent ?? '') : '',
      role: c ? (c.getAttribute('role') ?? c.tagName.toLowerCase()) : '',
      meta: c?.querySelector('.summary-meta')?.textContent ?? '',
      body: (c?.querySelector('.summary-body')?.textContent ?? '').trim(),
      bodyHtml: c?.querySelector('.summary-body')?.innerHTML ?? '',
      built: c?.querySelectorAll('.summary-body img, .summary-body script, .summary-body [onerror]').length ?? -1,
      note: c?.querySelector('.summary-note')?.textContent ?? '',
      buttons: [...(c?.querySelectorAll('button') ?? [])].map((b) => b.textContent ?? ''),
      above: prev?.matches('article.message') ? (prev.dataset.id ?? '') : (prev?.className ?? ''),
      below: next?.matches('article.message') ? (next.dataset.id ?? '') : (next?.className ?? ''),
      focus: document.activeElement?.className ?? '',
      focusText: document.activeElement?.textContent ?? '',
      pwned: (window as unknown as { __pwned?: unknown }).__pwned,
      busy: c?.getAttribute('aria-busy') ?? '',
    };
  });

export async function summaryCardChecks(browser: Browser, record: Recorder): Promise<void> {
  const group = 'summary-card';
  const panel = await serveChatPanel();
  const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(panel.url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
    const f = await fixture();
    const before = f.meter.message();
    await give(page, [...priced(f.controller.initialMessages()), before]);
    await frames(page);

    // The boundary line's button: the turns above the line at the selected model's price.
    const omitted = before.meter.omittedTurns;
    const button = await page.evaluate(() => {
      const b = document.querySelector<HTMLButtonElement>('.context-boundary .context-summarize');
      return { text: b?.textContent ?? '', shown: !!b && !b.hidden && b.getBoundingClientRect().width > 0, tag: b?.tagName ?? '', line: document.querySelector('.context-boundary-text')?.textContent ?? '' };
    });
    record(group, `the boundary line has the button with the price ("${button.text}")`,
      omitted > 0 && button.shown && button.tag === 'BUTTON' && button.text === `Summarize the ${omitted} turns above the line: 2 credits` && button.line.endsWith(`${omitted} turns`), JSON.stringify(button));
    await clearPosted(page);
    await page.focus('.context-summarize');
    await page.keyboard.press('Enter');
    await frames(page, 1);
    record(group, 'the button posts summarize (by keyboard)', JSON.stringify(await posted(page)) === JSON.stringify([{ type: 'summarize' }]), JSON.stringify(await posted(page)));

    // Being written: a card with the text so far and Stop; the button is disabled meanwhile.
    const plan = f.session.summaryPlan()!;
    await give(page, [{ type: 'summaryProgress', running: true, turns: plan.newTurns, throughId: plan.throughId, text: 'Decisions so far' }]);
    await frames(page);
    const running = await card(page);
    const disabled = await page.evaluate(() => document.querySelector<HTMLButtonElement>('.context-summarize')?.disabled ?? false);
    record(group, 'a summary being written shows in its card with Stop, below the last turn it reads',
      running.shown && running.name === `Summarizing ${plan.newTurns} turns…` && running.body === 'Decisions so far' && running.buttons.join() === 'Stop' && running.busy === 'true' && disabled,
      JSON.stringify({ running, disabled }));
    await clearPosted(page);
    await page.evaluate(() => [...document.querySelectorAll<HTMLButtonElement>('.summary-card button')].find((b) => b.textContent === 'Stop')?.click());
    record(group, 'Stop posts summaryStop', JSON.stringify(await posted(page)) === JSON.stringify([{ type: 'summaryStop' }]), JSON.stringify(await posted(page)));

    // Kept: the card below the last turn it replaced, above the turns still sent.
    f.session.applySummary(plan, HOSTILE, { model: 'swift-chat', cost: 2, unread: 0 });
    f.session.setSummaryCredits(f.session.conversation.id, f.session.conversation.summary!.createdAt, 2);
    await give(page, [{ type: 'summaryProgress', running: false }, f.controller.conversationMessage(), f.meter.message()]);
    await frames(page);
    // The card's place may be above the rendered page: scroll up until it is rendered.
    await page.evaluate(async () => {
      const list = document.querySelector('.messages') as HTMLElement;
      for (let i = 0; i < 30 && !document.querySelector('.summary-card')?.isConnected; i++) {
        list.scrollTop = 0;
        await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      }
      document.querySelector('.summary-card')?.scrollIntoView();
    });
    await frames(page);
    const kept = await card(page);
    const firstKept = f.session.conversation.messages[plan.to].id;
    record(group, `the summary card is named by what it replaced ("${kept.name}") and says what it cost`,
      kept.shown && kept.role === 'section' && kept.name === `Summary of ${plan.turns} turns` && kept.meta === 'swift-chat · 2 credits', JSON.stringify(kept));
    record(group, 'it sits below the last turn it replaced, above the turns still sent',
      kept.above === plan.throughId && (kept.below === firstKept || kept.below.includes('context-boundary')), JSON.stringify({ above: kept.above, below: kept.below, throughId: plan.throughId, firstKept }));
    record(group, 'its text is rendered as safe markdown: no markup from it runs or is built',
      kept.body.includes('Decisions so far: use zod.') && /<strong>use zod<\/strong>/.test(kept.bodyHtml) && kept.built === 0 && kept.body.includes('<img src=x') && kept.pwned === undefined, kept.bodyHtml.slice(0, 300));
    record(group, 'the meter counts it (the tooltip names it)', /Summary: [\d,]+ \(in place of \d+ earlier turns\)/.test((await page.getAttribute('.context-meter', 'title')) ?? ''), (await page.getAttribute('.context-meter', 'title')) ?? '');

    // Edit by keyboard: Enter on Edit opens the box, Escape leaves it unchanged, Ctrl+Enter keeps the new text.
    await clearPosted(page);
    await page.focus('.summary-edit-button');
    await page.keyboard.press('Enter');
    await frames(page, 1);
    const editing = await page.evaluate(() => ({ focus: document.activeElement?.className ?? '', label: document.activeElement?.getAttribute('aria-label') ?? '', value: (document.activeElement as HTMLTextAreaElement).value ?? '' }));
    await page.keyboard.type(' And more.');
    await page.keyboard.press('Escape');
    await frames(page, 1);
    const cancelled = await card(page);
    record(group, 'Edit by keyboard opens a named box with the text; Escape leaves it unchanged and returns to Edit',
      editing.focus === 'summary-edit' && editing.label === 'Summary text' && editing.value === HOSTILE && cancelled.body.includes('use zod') && !cancelled.body.includes('And more') && cancelled.focus.includes('summary-edit-button') && (await posted(page)).length === 0,
      JSON.stringify({ editing, cancelled: cancelled.focus }));
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('My own summary: keep **zod**.');
    await page.keyboard.press('Control+Enter');
    await frames(page, 1);
    const saved = await card(page);
    const edits = await posted(page);
    record(group, 'Ctrl+Enter keeps the new text: posted to the host, shown at once, marked edited',
      JSON.stringify(edits) === JSON.stringify([{ type: 'summaryEdit', text: 'My own summary: keep **zod**.' }]) && saved.body === 'My own summary: keep zod.' && saved.meta.endsWith('edited') && saved.focus.includes('summary-edit-button'),
      JSON.stringify({ edits, saved }));

    // Remove by keyboard: posts the undo; when the host drops the card, the focus goes to the conversation.
    await clearPosted(page);
    await page.focus('.summary-remove-button');
    await page.keyboard.press('Enter');
    await frames(page, 1);
    const removes = await posted(page);
    await f.session.removeSummary();
    await give(page, [f.controller.conversationMessage(), f.meter.message()]);
    await frames(page);
    const gone = await card(page);
    const focus = await page.evaluate(() => document.activeElement?.classList.contains('messages') ?? false);
    record(group, 'Remove by keyboard posts summaryRemove; the card goes and the focus is on the conversation',
      JSON.stringify(removes) === JSON.stringify([{ type: 'summaryRemove' }]) && !gone.shown && focus, JSON.stringify({ removes, gone: gone.shown, focus }));
    const back = await page.evaluate(() => document.querySelector('.context-summarize')?.textContent ?? '');
    record(group, 'the button is back with the turns above the line', back === `Summarize the ${omitted} turns above the line: 2 credits`, back);
    record(group, 'no page errors', errors.length === 0, errors.join('; ').slice(0, 300));
  } finally {
    await page.close();
    await panel.close();
  }
}
