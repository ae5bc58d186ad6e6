// Journey 30: attach the current file and its Problems with the "+" button, see the chips,
// send, and check that the server received the user's text followed by both fenced blocks.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer, waitForChatRequests } from '../steps';
import { waitFor } from '../workbench';

const SOURCE = `export function total(prices: number[]): number {\n  let sum: number = 'zero';\n  for (const p of prices) sum += p;\n  return sum;\n}\n`;

describe('Journey 30: Context from the editor', () => {
  let file = '';

  after(async () => {
    const { wb } = e2e();
    await wb.closeQuickInput().catch(() => undefined);
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    await wb.answerDialog(/Don.t Save/).catch(() => false);
    if (file) rmSync(file, { force: true });
  });

  it('attaches the current file and its problems as chips and sends them as fenced blocks', async () => {
    resetServer();
    const { demo } = e2e();
    file = path.join(demo.profile.workspace, 'src', 'pricing.ts');
    writeFileSync(file, SOURCE);
    const wb = await readyWithKey();
    await wb.openFile('pricing.ts');
    // The TypeScript service reports the wrong type on line 2 (Problems of the file).
    await waitFor(
      async () => (await wb.page.locator('.editor-group-container.active .squiggly-error').count()) > 0,
      'the editor never showed the type error of pricing.ts',
      60_000,
    );
    const chat = await wb.chat();
    await chat.newChat();

    await chat.attach('file');
    const chips = chat.frame.locator('.context-chip');
    await waitFor(async () => (await chips.count()) === 1, 'no chip for the current file');
    assert.match((await chips.first().textContent()) ?? '', /pricing\.ts.*B/);

    await chat.attach('problems');
    await waitFor(async () => (await chips.count()) === 2, 'no chip for the problems');
    assert.match((await chips.nth(1).textContent()) ?? '', /pricing\.ts.*1 problem/);
    await wb.screenshot('context-chips');

    // A chip can be removed by its button's accessible name, and added again.
    await chat.button('Remove pricing.ts').first().click();
    await waitFor(async () => (await chips.count()) === 1, 'removing a chip did not remove it');
    await chat.attach('file');
    await waitFor(async () => (await chips.count()) === 2, 'the file chip did not come back');

    const before = chatRequests().length;
    const replies = await chat.articles('Assistant').count();
    await chat.send('What is wrong here? e2e-context-check');
    await chat.waitForNewReply(replies);
    await waitFor(async () => (await chips.count()) === 0, 'the chips stayed after a successful send');

    const reqs = chatRequests();
    assert.equal(reqs.length, before + 1);
    const last = reqs[reqs.length - 1]?.messages?.at(-1)?.content ?? '';
    assert.ok(last.startsWith('What is wrong here? e2e-context-check\n\n'), last.slice(0, 200));
    assert.match(last, /Problems in `src\/pricing\.ts`:\n\n```\nline 2 · error · Type 'string' is not assignable to type 'number'\./);
    assert.match(last, /`src\/pricing\.ts`:\n\n```typescript\nexport function total/);
    assert.ok(last.indexOf('Problems in') < last.indexOf('```typescript'), 'sent in chip order');
  });
  it('a message with chips typed while a reply streams is queued with them, and the chips are cleared', async () => {
    // A slow reply leaves time to attach and type while it streams.
    resetServer(40);
    const wb = await readyWithKey();
    await wb.openFile('pricing.ts');
    const chat = await wb.chat();
    await chat.newChat();
    const before = chatRequests().length;
    await chat.send('A long answer please e2e-context-long len:3000');
    await chat.stopButton().waitFor({ state: 'visible', timeout: 30_000 });

    await chat.attach('file');
    const chips = chat.frame.locator('.context-chip');
    await waitFor(async () => (await chips.count()) === 1, 'no chip for the current file');
    await chat.type('Queued with the file e2e-context-queued');
    await chat.message().press('Enter');
    await waitFor(async () => (await chat.frame.locator('.queue-card').count()) === 1, 'the message was not queued');
    await waitFor(async () => (await chips.count()) === 0, 'the chips stayed after the message was queued');

    // The queued message goes after the reply, with the file; the next one goes without it.
    const lastUser = (r: ReturnType<typeof chatRequests>[number]) => r.messages?.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    const reqs = await waitForChatRequests(before + 2);
    assert.match(lastUser(reqs[before + 1]), /^Queued with the file e2e-context-queued\n\n`src\/pricing\.ts`:/);
    // The queued message's reply is the second of this new chat.
    await chat.waitForNewReply(1);
    resetServer();
    // ask, not send: it waits for the new reply before it waits for the chat to be idle again.
    await chat.ask('Nothing attached now e2e-context-after');
    const after = chatRequests();
    assert.equal(lastUser(after[after.length - 1]), 'Nothing attached now e2e-context-after', 'the file went out again');
  });
});
