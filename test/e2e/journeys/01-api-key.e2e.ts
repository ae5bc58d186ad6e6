// Journey 1: a new user sets the API key from the command palette.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEMO_KEY } from '../../server/fixtures';
import { e2e, extensionLogs } from '../setup';
import { setKey } from '../steps';
import { provesNothingHappensFor } from '../workbench';

describe('Journey 1: Set API Key', () => {
  it('refuses a wrong key with a clear message, then shows the balance the server holds for the demo key', async () => {
    const { wb, demo, page } = e2e();
    demo.server.control.reset();
    // A balance that only the server knows: 1,184 regular + 50 daily.
    demo.server.control.setBalance({ key: DEMO_KEY, regular: 1184, daily: 50 });

    assert.match(await wb.statusText(), /Set API Key/, 'before any key the status bar offers to set one');

    await setKey(wb, 'sk-wrong-0000000000000099');
    // Not the progress notification ("checking the API key…"), which a loaded machine shows first.
    const refusal = await wb.waitForNotification(/(?<!checking the )API key/i);
    assert.match(refusal, /reject|invalid|not valid|refused|wrong/i, `refusal message: ${refusal}`);
    assert.match(refusal, /not saved/i, `the message says the key was not kept: ${refusal}`);
    assert.match(await wb.statusText(), /Set API Key/, 'a refused key is not kept');
    await wb.clearNotifications();

    await setKey(wb, DEMO_KEY);
    assert.equal(await wb.waitForCredits(1234), 1234);
    // Saving the key is one change: the balance shown stays (no second reload back to the spinner).
    const shown = new Set<string>();
    for (let i = 0; i < 15; i++) {
      shown.add(await wb.statusText());
      await provesNothingHappensFor(100, 'the status bar keeps the balance (read every 100 ms for 1.5 s)');
    }
    const other = [...shown].filter((t) => !/1,234 credits/.test(t));
    assert.deepEqual(other, [], `the status bar over 1.5 s after the balance first showed: ${[...shown].join(' | ')}`);
    assert.match(await wb.statusText(), /1,234 credits/);
    assert.match(await wb.statusLabel(), /AI Chat credits: 1,234/);

    await wb.clearNotifications();
    const tooltip = await wb.statusTooltip();
    assert.match(tooltip, /1,234/, `tooltip: ${tooltip}`);
    await wb.screenshot('status-bar-tooltip');
    await page.mouse.move(0, 0);

    // The key is never shown in the page nor written to the extension's log.
    assert.ok(!(await page.locator('body').innerText()).includes(DEMO_KEY), 'the key is visible in the workbench');
    for (const file of extensionLogs(demo.profile.userDataDir)) {
      assert.ok(!readFileSync(file, 'utf8').includes(DEMO_KEY), `the key is written in ${file}`);
    }
  });
});
