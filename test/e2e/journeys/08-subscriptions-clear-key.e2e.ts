// Journey 8: the plans, then forgetting the key.
import assert from 'node:assert/strict';
import { SUBSCRIPTIONS } from '../../server/fixtures';
import { readyWithKey, resetServer } from '../steps';
import { waitFor } from '../workbench';

describe('Journey 8: Subscriptions and Clear API Key', () => {
  it('lists the plans, and Clear API Key returns the status bar to "no key"', async () => {
    resetServer();
    const wb = await readyWithKey();

    await wb.runCommand('AI Chat: Show Subscriptions');
    let seen: string[] = [];
    const rows = await waitFor(
      async () => {
        seen = await wb.quickPickLabels();
        return SUBSCRIPTIONS.every((s) => seen.some((x) => x.includes(s.name))) ? seen : undefined;
      },
      () => `the plans were not listed: ${JSON.stringify(seen)}`,
    );
    for (const s of SUBSCRIPTIONS) {
      const row = rows.find((r) => r.includes(s.name)) ?? '';
      assert.ok(row.includes(String(s.price)), `${s.name} shows its price ${s.price}: ${row}`);
    }
    await wb.screenshot('subscriptions');
    await wb.closeQuickInput();

    await wb.runCommand('AI Chat: Clear API Key');
    await wb.answerDialog(/clear|yes|remove/i);
    await waitFor(async () => /Set API Key/.test(await wb.statusText()), 'the status bar still shows a balance');
    assert.match(await wb.statusLabel(), /key/i);
  });
});
