// Journey 8: the plans, then forgetting the key.
import assert from 'node:assert/strict';
import { SUBSCRIPTIONS } from '../../server/fixtures';
import { readyWithKey, resetServer } from '../steps';
import { waitFor } from '../workbench';

describe('Journey 8: Subscriptions and Clear API Key', () => {
  it('lists the plans, and Clear API Key returns the status bar to "no key"', async () => {
    resetServer();
    const wb = await readyWithKey();

    let seen: string[] = [];
    let rows: string[] | undefined;
    for (let attempt = 0; !rows; attempt++) {
      await wb.runCommand('AI Chat: Show Subscriptions');
      rows = await waitFor(
        async () => {
          seen = await wb.quickPickLabels();
          return SUBSCRIPTIONS.every((s) => seen.some((x) => x.includes(s.name))) ? seen : undefined;
        },
        () => `the plans were not listed: ${JSON.stringify(seen)}`,
        attempt < 2 ? 10_000 : 20_000,
      ).catch(async (err: unknown) => {
        // The picker closed by a focus change before its plans were read (a CI run saw it go with
        // none listed): open it again; a picker still on screen without them is the failure.
        if (attempt >= 2 || (await wb.quickInput().isVisible().catch(() => false))) throw err;
        await wb.focusWorkbench();
        return undefined;
      });
    }
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
