// Journey 7: what the user sees when the service fails, through the workbench: a stream that
// breaks after the reply started, and a message the balance cannot pay. Which message and action
// each failure before a reply gets (429 with Retry-After, 401, 402, 500 with an HTML body) is
// checked against the reference server in test/unit/core/chat/serviceFaults.test.ts, and how the panel
// shows it (the alert, its buttons, Retry's countdown) in the render tier (test/render/sendErrors.ts).
import assert from 'node:assert/strict';
import { DEMO_KEY } from '../../server/fixtures';
import type { Fault } from '../../server/fixtures';
import { e2e } from '../setup';
import { readyWithKey, resetServer } from '../steps';
import { waitFor, type Chat } from '../workbench';

interface Case {
  name: string;
  setup(): void;
  message: RegExp;
  action: RegExp;
  /** The reply had started: the text may be kept as the sent message instead of in the box. */
  replyStarted?: boolean;
}

const fault = (f: Fault) => () => e2e().demo.server.control.injectFault(f);

const CASES: Case[] = [
  {
    name: 'dropped stream',
    setup: fault({ kind: 'drop-mid-stream', afterChunks: 3 }),
    message: /connection|interrupt|dropped|lost|closed|network|incomplete|ended/i,
    action: /^Retry$/,
    replyStarted: true,
  },
  {
    name: '402',
    setup: () => e2e().demo.server.control.setBalance({ key: DEMO_KEY, regular: 0, daily: 0 }),
    message: /credit/i,
    action: /^Show Subscriptions$/,
  },
];

/** What each message shows, without its buttons (Edit moves to the newest message). */
async function shownTexts(chat: Chat): Promise<string[]> {
  return (await chat.transcript()).map((t) =>
    t
      .replace(/Edit|Copy reply|Copy|Insert at Cursor|Open in New Editor|Retry/g, '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 60),
  );
}

describe('Journey 7: Faults from the service', () => {
  for (const c of CASES) {
    it(`${c.name}: shows its message and action, keeps the typed text and everything shown`, async () => {
      resetServer();
      const wb = await readyWithKey(1000);
      const chat = await wb.chat();
      if ((await chat.articles('You').count()) === 0) await chat.ask('A first question that must stay visible e2e-fault-base');
      const before = await shownTexts(chat);

      // The alert of this failure (earlier ones may still be shown with their replies).
      const alertsBefore = await chat.alertTexts();
      c.setup();
      const typed = `Question that meets a ${c.name} e2e-fault`;
      await chat.send(typed);
      let seen: string[] = [];
      // Out of credits: when the balance is known to be too low by the time of the send, the
      // message is not sent at all and a notification offers the same action (the text stays).
      if (c.name === '402') {
        const notice = await waitFor(
          async () => {
            if ((await chat.alertTexts()).some((t) => !alertsBefore.includes(t) && c.message.test(t))) return 'alert';
            return (await wb.notificationTexts()).find((t) => /Not enough AI Chat credits/.test(t));
          },
          '402: neither an alert nor a notification about credits',
          60_000,
        );
        if (notice !== 'alert') {
          const n = wb.notifications().filter({ hasText: 'Not enough AI Chat credits' }).first();
          const buttons = (await n.getByRole('button').allInnerTexts()).map((t) => t.trim());
          assert.ok(buttons.some((a) => c.action.test(a)), `402: ${c.action} among ${JSON.stringify(buttons)}`);
          assert.equal(await chat.message().inputValue(), typed, '402: the typed text is still in the box');
          await chat.message().fill('');
          await wb.clearNotifications();
          e2e().demo.server.control.reset();
          return;
        }
      }
      const text = await waitFor(
        async () => {
          seen = await chat.alertTexts();
          return seen.find((t) => !alertsBefore.includes(t) && c.message.test(t));
        },
        () => `${c.name}: no alert matching ${c.message}; alerts shown: ${JSON.stringify(seen)}`,
        60_000,
      );
      const alert = chat.alert().filter({ hasText: text.split('\n')[0] }).last();
      assert.match(text, c.message, `${c.name}: alert says "${text}"`);
      assert.doesNotMatch(text, /<\/?(html|body|h1|!doctype)/i, 'no raw HTML in the message');
      const actions = (await alert.getByRole('button').allInnerTexts()).map((t) => t.trim());
      assert.ok(actions.some((a) => c.action.test(a)), `${c.name}: action ${c.action} among ${JSON.stringify(actions)}`);
      await wb.screenshot(`fault-${c.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`);

      const box = await chat.message().inputValue();
      if (c.replyStarted) {
        const kept = box === typed || (await chat.articles('You').allTextContents()).some((t) => t.includes(typed));
        assert.ok(kept, `${c.name}: the typed text is neither in the box nor shown as sent (box: "${box}")`);
      } else {
        assert.equal(box, typed, `${c.name}: the typed text is still in the box`);
      }
      const after = await shownTexts(chat);
      for (const t of before) assert.ok(after.some((a) => a.startsWith(t)), `${c.name}: "${t}" disappeared`);

      // Leave a clean state for the next case.
      await waitFor(async () => chat.sendButton().isVisible(), 'Send did not come back');
      await chat.message().fill('');
      e2e().demo.server.control.reset();
    });
  }
});
