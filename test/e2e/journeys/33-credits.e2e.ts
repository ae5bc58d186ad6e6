// Journey 33: credits a user can plan with. The status bar's low sign below N messages of the
// selected model, a message the balance cannot pay refused with the out-of-credits card in the
// chat and each of its three actions, and the usage report's total against the balance change.
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { DEMO_KEY } from '../../server/fixtures';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer, waitForChatRequests } from '../steps';
import { waitFor, type Workbench } from '../workbench';

/** Picks a model with "AI Chat: Select Model" (the row whose label holds `name`). */
async function selectModel(wb: Workbench, name: string): Promise<void> {
  await wb.runCommand('AI Chat: Select Model');
  const row = wb.quickPickRows().filter({ hasText: name }).first();
  await row.waitFor({ timeout: 15_000 });
  await row.click();
  await wb.quickInput().waitFor({ state: 'hidden', timeout: 10_000 });
}

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
    await wb.page.waitForTimeout(500);
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
    for (let i = 0; i < 3 && usageAfter - usageBefore < 11; i++) {
      await wb.page.waitForTimeout(1_000);
      usageAfter = await usageTotal(wb);
    }
    assert.equal(Math.round((usageAfter - usageBefore) * 100) / 100, 11, `usage ${usageBefore} -> ${usageAfter}`);
  });
});
