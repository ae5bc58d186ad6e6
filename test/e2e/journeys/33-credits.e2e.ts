// Journey 33: credits a user can plan with. The status bar's low sign below N messages of the
// selected model, a message the balance cannot pay refused with the out-of-credits card in the
// chat and each of its three actions, and the usage report's total against the balance change.
// The status bar's balance at the end of a reply: the price taken off at once (marked pending)
// while the service has not booked the charge yet, then the service's own figure.
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { DEMO_KEY } from '../../server/fixtures';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer, selectModel, waitForChatRequests } from '../steps';
import { provesNothingHappensFor, waitFor, type Workbench } from '../workbench';

/** Opens "AI Chat: Show Usage" and returns the total credits it reports (from the preview's text). */
async function usageTotal(wb: Workbench): Promise<number> {
  await wb.runCommand('AI Chat: Show Usage');
  const text = await waitFor(
    async () => {
      for (const frame of wb.page.frames()) {
        const body = await frame.locator('body').innerText({ timeout: 1_000 }).catch(() => '');
        if (/AI Chat usage/.test(body) && /credits for \d+ replies/.test(body)) return body;
      }
      return undefined;
    },
    'the usage report did not open',
    30_000,
  );
  await wb.runCommand('View: Close All Editors');
  const m = /([\d,.]+) credits for (\d+) replies/.exec(text);
  assert.ok(m, `no total in the usage report: ${text.slice(0, 300)}`);
  return Number(m[1].replace(/,/g, ''));
}

// The recorders below run in the page as text (the test runner's transform would add helpers the page lacks).

/** Records, in the workbench page, each text the balance item shows, with the time (Date.now()). */
async function recordStatusBar(wb: Workbench): Promise<void> {
  await wb.page.evaluate(`(() => {
    window.__balanceLog = [];
    const read = () => {
      const item = [...document.querySelectorAll('.statusbar-item')].find((e) => /credit/i.test(e.textContent || ''));
      return ((item && item.textContent) || '').trim();
    };
    let last = read();
    new MutationObserver(() => {
      const now = read();
      if (now !== last) window.__balanceLog.push({ t: Date.now(), text: (last = now) });
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  })()`);
}

/** Records, in the chat's frame, when the reply ended for the user (the Stop button went away). */
async function recordReplyEnd(frame: Frame): Promise<void> {
  await frame.evaluate(`(() => {
    let streaming = false;
    const stopShown = () => [...document.querySelectorAll('button')].some((b) => (b.getAttribute('aria-label') || b.textContent || '').trim() === 'Stop');
    const timer = setInterval(() => {
      if (stopShown()) streaming = true;
      else if (streaming) {
        window.__replyEndedAt = Date.now();
        clearInterval(timer);
      }
    }, 5);
  })()`);
}

function card(frame: Frame) {
  return frame.locator('section.credits-card');
}

describe('Journey 33: Out of credits', () => {
  after(async () => {
    const { wb } = e2e();
    e2e().demo.server.control.reset();
    await wb.closeQuickInput().catch(() => undefined);
    await wb.clearNotifications().catch(() => undefined);
    // The next journeys expect the cheap model and the server's full balance.
    await selectModel(wb, 'Swift Chat').catch(() => undefined);
    await wb.runCommand('AI Chat: Refresh Balance').catch(() => undefined);
  });

  it('shows the low sign, refuses a message it cannot pay with a card whose three actions work, and the usage total matches the balance change', async () => {
    resetServer();
    const wb = await readyWithKey(1000);
    const { control } = e2e().demo.server;
    const usageBefore = await usageTotal(wb);

    // Deep Think costs 5 credits: 12 credits pay 2 messages, below the default 10.
    await selectModel(wb, 'Deep Think');
    control.setBalance({ key: DEMO_KEY, regular: 12, daily: 0 });
    await wb.runCommand('AI Chat: Refresh Balance');
    await wb.waitForCredits(12);
    await waitFor(async () => /low: 2 messages left/.test(await wb.statusLabel()), 'the status bar does not say the balance is low');
    assert.equal(await wb.statusItem().locator('.codicon-warning').count(), 1, 'the status bar shows the warning sign');
    await wb.waitForNotification(/AI Chat credits are low: 2 messages of deep-think left/);
    await wb.clearNotifications();

    const chat = await wb.openChat();
    await chat.newChat();
    await chat.ask('First paid question e2e-credits-one');
    await chat.ask('Second paid question e2e-credits-two');
    await wb.waitForCredits(2);

    // 2 credits do not pay Deep Think: not sent, the text stays, the card says why.
    const sentBefore = chatRequests().length;
    const typed = 'Third question the balance cannot pay e2e-credits-three';
    await chat.send(typed);
    const box = card(chat.frame);
    await box.waitFor({ state: 'visible', timeout: 15_000 });
    const text = (await box.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /Out of credits/);
    assert.match(text, /balance of 2 credits does not pay a message of deep-think \(5 credits\)/, text);
    assert.equal(await chat.message().inputValue(), typed, 'the typed text is still in the box');
    assert.equal(chatRequests().length, sentBefore, 'nothing was sent');
    assert.equal(await wb.notifications().filter({ hasText: 'Not enough AI Chat credits' }).count(), 0, 'no notification while the chat is on screen');
    await wb.screenshot('out-of-credits-card');

    // Refresh Balance asks the server again (the card stays: still 2 credits).
    const balanceCalls = () => control.requests().filter((r) => r.method === 'GET' && r.path === '/user/balance').length;
    const callsBefore = balanceCalls();
    await box.getByRole('button', { name: 'Refresh Balance' }).click();
    await waitFor(async () => balanceCalls() > callsBefore, 'Refresh Balance did not ask the server');
    await provesNothingHappensFor(500, 'the card does not go away');
    assert.ok(await box.isVisible(), 'the card stays while the balance still does not pay');

    // Show Subscriptions opens the plans.
    await box.getByRole('button', { name: 'Show Subscriptions' }).click();
    await waitFor(async () => (await wb.quickInput().isVisible()) && (await wb.quickPickLabels()).length > 0, 'Show Subscriptions did not open the plans');
    await wb.closeQuickInput();
    await wb.quickInput().waitFor({ state: 'hidden', timeout: 5_000 });

    // Pick a Cheaper Model lists only what 2 credits pay: Swift Chat (1), not Code Pro (3) or Deep Think (5).
    await box.getByRole('button', { name: 'Pick a Cheaper Model' }).click();
    const labels = await waitFor(async () => {
      const l = await wb.quickPickLabels();
      return l.length > 0 && l.every((x) => /per message/.test(x)) ? l : undefined;
    }, 'Pick a Cheaper Model did not list models');
    assert.equal(labels.length, 1, `only the affordable model is listed: ${JSON.stringify(labels)}`);
    assert.match(labels[0], /Swift Chat.*1 credits? per message/);
    await wb.quickPickRows().first().click();
    await box.waitFor({ state: 'hidden', timeout: 15_000 });

    // The kept text is now sent with the cheaper model.
    await chat.sendButton().click();
    const last = (await waitForChatRequests(sentBefore + 1)).at(-1);
    await waitFor(async () => (await chat.articles('Assistant').count()) === 3, 'no reply to the kept message', 60_000);
    await chat.waitForIdle();
    assert.equal(last?.model, 'swift-chat');
    assert.equal(last?.messages?.at(-1)?.content, typed);
    await wb.waitForCredits(1);

    // The replies' own charges add up to the balance change: 12 -> 1 over three replies.
    // (The last charge is recorded once the balance after the reply is known: read again if needed.)
    let usageAfter = await usageTotal(wb);
    await waitFor(async () => (usageAfter = await usageTotal(wb)) - usageBefore >= 11, () => `usage ${usageBefore} -> ${usageAfter}`, 10_000).catch(() => undefined);
    assert.equal(Math.round((usageAfter - usageBefore) * 100) / 100, 11, `usage ${usageBefore} -> ${usageAfter}`);
  });

  it('shows the new balance at the end of a reply, marked pending until the service books the charge, then the service\'s figure', async () => {
    resetServer();
    const wb = await readyWithKey(1000);
    const { control, url } = e2e().demo.server;
    await selectModel(wb, 'Swift Chat');
    const serviceTotal = async () => {
      const res = await fetch(`${url}/user/balance`, { headers: { 'x-api-key': DEMO_KEY } });
      return ((await res.json()) as { balance: { totalBalance: number } }).balance.totalBalance;
    };

    const chat = await wb.openChat();
    await chat.newChat();

    /** Asks, and measures when the status bar showed `figure`: first in any form, then the service's own (no mark). */
    const measure = async (question: string, figure: number) => {
      await recordStatusBar(wb);
      await recordReplyEnd(chat.frame);
      await chat.ask(question);
      await wb.waitForCredits(figure, 20_000);
      // What the service says at that moment, and how the status bar shows it.
      const service = await serviceTotal();
      const text = await wb.statusText();
      const label = await wb.statusLabel();
      const tooltip = /\*$/.test(text) ? await wb.statusTooltip() : '';
      await wb.page.mouse.move(0, 0);
      const plain = `${new Intl.NumberFormat('en-US').format(figure)} credits`;
      await waitFor(async () => (await wb.statusText()) === plain, 'the service\'s figure never replaced the pending one', 20_000);
      const ended = await chat.frame.evaluate<number | undefined>('window.__replyEndedAt');
      const log = await wb.page.evaluate<Array<{ t: number; text: string }>>('window.__balanceLog || []');
      assert.ok(ended, 'the end of the reply was seen');
      const shown = log.find((e) => e.text.startsWith(plain));
      const confirmed = log.find((e) => e.text === plain);
      assert.ok(shown && confirmed, `status bar texts: ${JSON.stringify(log)}`);
      return { service, text, label, tooltip, shownMs: shown.t - ended, confirmedMs: confirmed.t - ended };
    };

    // The service books a streamed reply's charge 4 s after the reply: the status bar does not wait for it.
    const bookingDelayMs = 4000;
    control.configure({ bookingDelayMs });
    const late = await measure('How soon does the balance follow a reply? e2e-balance-at-end', 999);
    console.log(
      `      booked ${bookingDelayMs} ms after the reply: the status bar showed the new balance ${late.shownMs} ms after the reply's end ` +
        `("${late.text}"), the service's figure ${late.confirmedMs} ms after`,
    );
    // The service charges as the reply starts (the reference server's default).
    control.configure({ bookingDelayMs: 0 });
    const early = await measure('And when the service books at once? e2e-balance-at-once', 998);
    console.log(`      booked as the reply starts: the status bar showed the new balance ${early.shownMs} ms after the reply's end, the service's figure ${early.confirmedMs} ms after`);

    // What the balance fetched at turn start costs a send: from its arrival to the chat request's.
    const log = control.requests();
    const waits = log.flatMap((r, i) => {
      if (r.method !== 'POST' || r.path !== '/chat') return [];
      const fetch = log.slice(0, i).reverse().find((q) => q.method === 'GET' && q.path === '/user/balance');
      return fetch ? [Date.parse(r.at) - Date.parse(fetch.at)] : [];
    });
    console.log(`      the chat request arrived ${waits.join(' and ')} ms after the balance request of its turn start`);

    // Shown before the service had it: the price taken off, marked pending, then the service's figure.
    assert.equal(late.service, 1000, 'the status bar showed 999 before the service booked the charge');
    assert.equal(late.text, '999 credits*', 'the new figure is marked as pending');
    assert.match(late.label, /999 \(last reply's charge not yet confirmed\)/);
    assert.match(late.tooltip, /1 credit for the last reply taken off; the service has not confirmed the new balance yet/);
    assert.ok(late.shownMs < late.confirmedMs, 'the pending figure came first');
    assert.equal(await serviceTotal(), 998);
  });
});
