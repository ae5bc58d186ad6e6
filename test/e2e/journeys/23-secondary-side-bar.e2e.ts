// Journey 23: the chat declared in the secondary side bar: one command (or the setting
// aiChat.chatLocation) puts it there with the conversation, and back, never in two views.
import assert from 'node:assert/strict';
import { e2e } from '../setup';
import { readyWithKey, resetServer, userSetting } from '../steps';
import { Chat, waitFor } from '../workbench';

describe('Journey 23: Chat in the secondary side bar', () => {
  after(async () => {
    const { wb } = e2e();
    await wb.closeQuickInput().catch(() => undefined);
    // Back where a new user has it, whatever happened above.
    // (The palette lists the command only while the setting says the secondary side bar.)
    if (userSetting('aiChat.chatLocation') === 'secondarySideBar') await wb.runCommand('AI Chat: Move Chat to Primary Side Bar').catch(() => undefined);
  });

  it('moves the chat and its conversation to the secondary side bar and back, one view at a time', async () => {
    resetServer();
    const wb = await readyWithKey();
    const { page } = e2e();
    const first = await wb.chat();
    await first.newChat();
    const reply = await first.ask('Hello before the move e2e-secondary-one');
    assert.match(reply, /e2e-secondary-one/);

    await wb.runCommand('AI Chat: Move Chat to Secondary Side Bar');
    const aux = page.locator('.part.auxiliarybar');
    await aux.locator('.composite.title', { hasText: /AI Chat|Chat/ }).first().waitFor({ timeout: 30_000 });
    const moved = new Chat(wb, await wb.chatFrame());
    // Webviews float above the workbench: the chat's frame lies over the secondary side bar.
    await waitFor(async () => {
      const frame = (await moved.frame.frameElement()).boundingBox();
      const [f, a] = await Promise.all([frame, aux.boundingBox()]);
      return !!f && !!a && f.x >= a.x - 2 && f.x + f.width <= a.x + a.width + 2;
    }, 'the chat is not shown over the secondary side bar');
    await waitFor(async () => (await moved.transcript()).some((t) => t.includes('e2e-secondary-one')), 'the conversation did not come along');
    // The side bar's view is gone (its `when` clause is false): the chat is in one place.
    await waitFor(
      async () => (await page.locator('.part.sidebar .composite.title', { hasText: 'AI Chat' }).count()) === 0,
      'the side bar still shows the AI Chat view',
    );
    const second = await moved.ask('Asked in the secondary side bar e2e-secondary-two');
    assert.match(second, /e2e-secondary-two/);
    await wb.screenshot('secondary-side-bar');

    await wb.runCommand('AI Chat: Move Chat to Primary Side Bar');
    await page.locator('.part.sidebar .composite.title', { hasText: 'AI Chat' }).first().waitFor({ timeout: 30_000 });
    const back = new Chat(wb, await wb.chatFrame());
    let transcript = '';
    await waitFor(
      async () => {
        transcript = (await back.transcript()).join('\n');
        return /e2e-secondary-one[\s\S]*e2e-secondary-two/.test(transcript);
      },
      'the whole conversation did not come back to the side bar',
    ).catch((e: unknown) => {
      throw new Error(`${String(e)}; the view shows: ${transcript.slice(0, 400)}`);
    });
  });
});
