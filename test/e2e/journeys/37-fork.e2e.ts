// Journey 37: Fork from here: a new conversation with every message up to a reply, opened in
// the chat and listed in History as a fork of the original, which stays as it was.
import assert from 'node:assert/strict';
import { readyWithKey, resetServer } from '../steps';
import { waitFor } from '../workbench';

describe('Journey 37: Fork a conversation', () => {
  it('forks at the first reply, continues the fork, and History shows it as a fork of the original', async () => {
    resetServer();
    const wb = await readyWithKey();
    const chat = await wb.chat();
    await chat.newChat();
    await chat.ask('First question e2e-fork-one');
    await chat.ask('Second question e2e-fork-two');
    assert.equal(await chat.articles().count(), 4);

    // The first reply's "Fork from here".
    const firstReply = chat.articles('Assistant').first();
    await firstReply.hover();
    await firstReply.getByRole('button', { name: /^Fork from here/ }).click();
    await waitFor(async () => (await chat.articles().count()) === 2, 'the fork does not show the first question and reply only');
    const transcript = (await chat.transcript()).join('\n');
    assert.match(transcript, /e2e-fork-one/);
    assert.doesNotMatch(transcript, /e2e-fork-two/);
    const reply = await chat.ask('A different second question e2e-fork-three');
    assert.match(reply, /e2e-fork-three/);

    // History: the fork, described as forked from the original; the original still has 4 messages.
    const forkRow = wb.quickPickRows().filter({ hasText: /forked from/ }).first();
    // History lists once its index is read; a picker closed meanwhile (a toast taking the
    // focus) is opened again.
    let listed: string[] = [];
    await waitFor(
      async () => {
        if (!(await wb.quickInput().isVisible())) {
          await wb.runCommand('AI Chat: Show History');
          await wb.quickInput().waitFor({ state: 'visible' });
        }
        listed = await wb.quickPickLabels().catch(() => []);
        return forkRow.isVisible();
      },
      () => `History shows no fork: ${listed.join(' | ')}`,
      30_000,
    );
    assert.match((await forkRow.textContent()) ?? '', /4 messages/);
    const labels = (await wb.quickPickLabels()).join(' | ');
    assert.ok(/First question e2e-fork-one/.test(labels), labels);
    await wb.closeQuickInput();
  });
});
