// The context meter and the boundary line in Chromium, through the real webview bundle, fed by the
// real session and meter feed: a 60-turn conversation on a model with a small budget shows the
// line above the oldest turn still sent (its text, its place), the meter with its figures and the
// tooltip's breakdown; both are hidden when everything fits; the line waits for the oldest sent
// turn to be rendered when it is above the rendered page; a message over the budget marks the
// meter; "Send with fewer earlier messages" posts the text of the box.
import type { Browser, Page } from 'playwright-core';
import { appendMessage, createConversation, requestBudget } from '../../src/core';
import { ContextMeterFeed } from '../../src/extension/chat/common/contextMeter';
import type { ContextMeter, HostMessage } from '../../src/protocol';
import { serveChatPanel, frames, give, type Recorder } from './harness';
import { makeController } from '../support/session';

const TURNS = 60;

/** The panel's first messages and the meter, from a real session over a conversation of `turns` turns. */
async function feed(turns: number, replyChars: number, budget: number): Promise<{ initial: HostMessage[]; meter: ContextMeter; feed: ContextMeterFeed; posted: HostMessage[] }> {
  const conv = createConversation(`conv-meter-${turns}`);
  for (let i = 0; i < turns; i++) {
    appendMessage(conv, 'user', `Question ${i}`, new Date());
    appendMessage(conv, 'assistant', `Answer ${i} `.padEnd(replyChars, 'x'), new Date(), { status: 'complete', meta: { model: 'swift-chat' } });
  }
  const { session, store, controller } = makeController({
    backend: {
      chat: () => Promise.reject(new Error('no requests here')),
      chatStream: () => Promise.reject(new Error('no requests here')),
    },
    settings: { systemPrompt: 'Be brief.' },
    contextBudget: () => budget,
    controller: { pickModel: async () => true },
  });
  await store.save(conv);
  await session.open(conv.id);
  const posted: HostMessage[] = [];
  const meterFeed = new ContextMeterFeed({ session, attachments: () => [], source: () => 'model', post: (m) => posted.push(m) });
  const message = meterFeed.message();
  return { initial: controller.initialMessages(), meter: message.meter, feed: meterFeed, posted };
}



/** The text of the message `id` in the conversation of `initial` ('' when it is not there). */
function textOf(initial: HostMessage[], id: string): string {
  const conv = initial.find((m) => m.type === 'conversation');
  return (conv?.type === 'conversation' ? conv.conversation.messages.find((m) => m.id === id)?.content : undefined) ?? '';
}

/** What the transcript and the composer show of the budget. */
const look = (page: Page) =>
  page.evaluate(() => {
    const line = document.querySelector<HTMLElement>('.context-boundary');
    const lineText = document.querySelector<HTMLElement>('.context-boundary-text');
    const meter = document.querySelector<HTMLElement>('.context-meter');
    const lineShown = !!line && !line.hidden && line.isConnected && line.getBoundingClientRect().height > 0;
    const next = line?.nextElementSibling;
    const prev = line?.previousElementSibling;
    return {
      lineShown,
      lineText: lineText?.textContent ?? '',
      lineRole: lineText?.getAttribute('role') ?? '',
      // The messages either side, by id (a message far from view holds no rendered body, see turnWindow.ts).
      below: next?.matches('article.message') ? ((next as HTMLElement).dataset.id ?? '') : '',
      above: prev?.matches('article.message') ? ((prev as HTMLElement).dataset.id ?? '') : '',
      meterShown: !!meter && !meter.hidden && meter.getBoundingClientRect().width > 0,
      meterText: meter?.textContent ?? '',
      meterTip: meter?.title ?? '',
      meterLabel: meter?.getAttribute('aria-description') ?? '',
      meterRole: meter?.getAttribute('role') ?? '',
      meterValue: [meter?.getAttribute('aria-valuenow'), meter?.getAttribute('aria-valuemax'), meter?.getAttribute('aria-valuetext')],
      meterOver: !!meter?.classList.contains('over'),
      inComposer: !!meter?.closest('.composer'),
    };
  });

export async function contextMeterChecks(browser: Browser, record: Recorder): Promise<void> {
  const group = 'context-meter';
  const panel = await serveChatPanel();
  const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(panel.url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));

    // Everything fits: neither the meter nor the line.
    const small = await feed(3, 200, requestBudget(4096).inputTokens);
    await give(page, [...small.initial, { type: 'contextMeter', meter: small.meter }]);
    await frames(page);
    const fits = await look(page);
    record(group, 'everything fits: no meter and no boundary line', small.meter.omittedTurns === 0 && !fits.meterShown && !fits.lineShown, JSON.stringify(fits));

    // 60 turns of about 630 tokens on a 3,072-token budget: only the newest turns go.
    const long = await feed(TURNS, 2400, requestBudget(4096).inputTokens);
    const m = long.meter;
    const oldestSent = TURNS - m.sentTurns;
    await give(page, [...long.initial, { type: 'contextMeter', meter: m }]);
    await frames(page);
    const cut = await look(page);
    record(group, 'the feed leaves out the older turns', m.omittedTurns === oldestSent && m.sentTurns > 0 && m.sentTurns < 6 && m.total <= m.budget, JSON.stringify(m));
    record(group, `the line says how many turns are not sent ("${cut.lineText}")`, cut.lineShown && cut.lineText === `Earlier messages are not sent to the model: ${m.omittedTurns} turns` && cut.lineRole === 'separator', JSON.stringify(cut));
    record(group, 'the line sits above the oldest turn still sent, below the newest one left out',
      textOf(long.initial, cut.below) === `Question ${oldestSent}` && textOf(long.initial, cut.above).startsWith(`Answer ${oldestSent - 1} `), JSON.stringify({ below: cut.below, above: cut.above }));
    record(group, 'the meter near Send shows the estimate against the budget', cut.meterShown && cut.inComposer && cut.meterText.includes(`${m.total.toLocaleString('en-US')} / 3,072 tokens`), cut.meterText);
    record(group, 'the meter is a meter to assistive technology (value, maximum, text)',
      cut.meterRole === 'meter' && cut.meterValue[0] === String(m.total) && cut.meterValue[1] === '3072' && cut.meterValue[2] === cut.meterText, JSON.stringify(cut.meterValue));
    const tip = cut.meterTip;
    record(group, 'the tooltip breaks it down (instructions, attachments, history, message), says it is an estimate and points to Fork',
      [/Instructions: \d+/, /Attachments: 0/, new RegExp(`History: [\\d,]+ \\(${m.sentTurns} earlier turns sent, ${m.omittedTurns} not sent\\)`), /Message: \d+/, /estimated/, /Fork/, /max_tokens/].every((r) => r.test(tip)) && cut.meterLabel === tip,
      tip);

    // The draft grows: the feed posts new figures, the line moves down by whole turns.
    long.feed.setDraft('y'.repeat(3000));
    const grown = long.posted.at(-1);
    if (grown?.type === 'contextMeter') {
      await give(page, [grown]);
      await frames(page);
      const moved = await look(page);
      const first = TURNS - grown.meter.sentTurns;
      record(group, 'a longer draft sends fewer turns: the line moves down to the new oldest turn',
        grown.meter.sentTurns < m.sentTurns && textOf(long.initial, moved.below) === `Question ${first}` && moved.lineText.endsWith(`${grown.meter.omittedTurns} turns`), JSON.stringify({ sent: grown.meter.sentTurns, below: moved.below }));
    } else record(group, 'a longer draft sends fewer turns: the line moves down to the new oldest turn', false, 'no meter posted');

    // A boundary above the rendered page: no line until that message is rendered, then above it.
    const wide = await feed(TURNS, 60, 2400);
    const w = wide.meter;
    const firstSent = TURNS - w.sentTurns;
    await give(page, [...wide.initial, { type: 'contextMeter', meter: w }]);
    await frames(page);
    const before = await look(page);
    const scrolled = await page.evaluate(async () => {
      const list = document.querySelector('.messages') as HTMLElement;
      for (let i = 0; i < 100 && document.querySelectorAll('article.message').length < 120; i++) {
        list.scrollTop = 0;
        await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      }
      return document.querySelectorAll('article.message').length;
    });
    const after = await look(page);
    record(group, 'an oldest-sent turn above the rendered page: no line until it is rendered, then the line above it',
      w.sentTurns > 6 && !before.lineShown && before.meterShown && scrolled === 2 * TURNS && after.lineShown && textOf(wide.initial, after.below) === `Question ${firstSent}`,
      JSON.stringify({ sent: w.sentTurns, before: before.lineShown, scrolled, below: after.below }));

    // A message over the budget: the meter says so.
    await give(page, [{ type: 'contextMeter', meter: { ...w, total: w.budget + 500, message: w.budget + 400, sentTurns: 0, omittedTurns: TURNS, boundaryId: undefined, tooLong: true } }]);
    await frames(page);
    const over = await look(page);
    record(group, 'a message over the budget marks the meter and says it will not be sent', over.meterShown && over.meterOver && /will not be sent/.test(over.meterTip), over.meterTip);

    // Back to everything fitting: both go.
    await give(page, [{ type: 'contextMeter', meter: { ...w, omittedTurns: 0, sentTurns: TURNS, boundaryId: 'msg_000', tooLong: false } }]);
    await frames(page);
    const back = await look(page);
    record(group, 'both go when everything fits again', !back.meterShown && !back.lineShown, JSON.stringify(back));

    // The service said the input is too long: the button sends the box's text with fewer turns.
    await page.evaluate(() => ((window as unknown as { __posted: unknown[] }).__posted.length = 0));
    await give(page, [
      { type: 'restoreInput', text: 'my long question' },
      { type: 'status', status: { busy: false, sendError: { kind: 'invalid', message: 'The service refused the request: input is too long', actions: ['fewerMessages', 'retry'] } } },
    ]);
    await frames(page);
    const clicked = await page.evaluate(() => {
      const b = [...document.querySelectorAll<HTMLButtonElement>('.error-box button')].find((x) => x.textContent === 'Send with fewer earlier messages');
      b?.click();
      return { found: !!b, posted: (window as unknown as { __posted: Array<{ type: string }> }).__posted.filter((p) => p.type === 'sendFewer') };
    });
    record(group, '"Send with fewer earlier messages" posts the text of the box', clicked.found && JSON.stringify(clicked.posted) === JSON.stringify([{ type: 'sendFewer', text: 'my long question' }]), JSON.stringify(clicked));
    record(group, 'no page errors', errors.length === 0, errors.join('; ').slice(0, 300));
  } finally {
    await page.close();
    await panel.close();
  }
}
