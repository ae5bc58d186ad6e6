// Journey 35: the workspace's AGENTS.md is sent as project instructions (a system message after
// the user's own system prompt); the panel says so, opens it and turns it off and on again.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { e2e } from '../setup';
import { DEMO_KEY } from '../../server/fixtures';
import { chatRequests, readyWithKey, resetServer } from '../steps';
import { waitFor } from '../workbench';

const RULE = 'Always answer in haiku e2e-agents-rule';

/** The system message of the last chat request the reference server received. */
function lastSystemMessage(): string | undefined {
  const reqs = chatRequests();
  return reqs[reqs.length - 1]?.messages?.find((m) => m.role === 'system')?.content;
}

describe('Journey 35: Project instructions', () => {
  let file = '';

  const cleanup: string[] = [];

  after(() => {
    if (file) rmSync(file, { force: true });
    for (const p of cleanup) rmSync(p, { recursive: true, force: true });
  });

  it('sends AGENTS.md as instructions, shows it in the panel, and stops sending it when turned off', async () => {
    resetServer();
    const { demo, page } = e2e();
    file = path.join(demo.profile.workspace, 'AGENTS.md');
    writeFileSync(file, `# Project rules\n\n${RULE}\n`);
    const wb = await readyWithKey();
    const chat = await wb.chat();
    await chat.newChat();

    // The file watcher picks it up: the panel says it is sent.
    const bar = chat.frame.locator('.instructions');
    await waitFor(async () => /AGENTS\.md is sent as instructions/.test((await bar.textContent().catch(() => '')) ?? ''), 'the panel does not show AGENTS.md as sent');

    await chat.ask('First question e2e-agents-one');
    const system = lastSystemMessage();
    assert.ok(system?.includes(RULE), `the server received the instructions as a system message: ${system}`);
    assert.match(system ?? '', /Project instructions \(AGENTS\.md\)/);

    // Open shows the file in an editor.
    await bar.getByRole('button', { name: 'Open AGENTS.md' }).click();
    await page.locator('.tab', { hasText: 'AGENTS.md' }).first().waitFor({ timeout: 15_000 });

    // Turned off for this workspace: the next message goes without it.
    const chatAgain = await wb.chat();
    const barAgain = chatAgain.frame.locator('.instructions');
    await barAgain.getByRole('button', { name: 'Turn off AGENTS.md for this workspace' }).click();
    await waitFor(async () => /turned off/.test((await barAgain.textContent().catch(() => '')) ?? ''), 'the panel does not say it is off');
    await chatAgain.ask('Second question e2e-agents-two');
    assert.ok(!(lastSystemMessage() ?? '').includes(RULE), 'the instructions were sent although turned off');

    // On again, and an edit of the file is what the next message carries.
    await barAgain.getByRole('button', { name: 'Turn on AGENTS.md for this workspace' }).click();
    writeFileSync(file, `# Project rules\n\n${RULE} (edited)\n`);
    await waitFor(async () => /is sent as instructions/.test((await barAgain.textContent().catch(() => '')) ?? ''), 'not back on');
    await waitFor(async () => {
      await chatAgain.ask('Third question e2e-agents-three');
      return (lastSystemMessage() ?? '').includes(`${RULE} (edited)`);
    }, 'the edited file was not sent', 60_000);

    // Without the file, nothing is shown and nothing is sent.
    rmSync(file);
    await waitFor(async () => (await barAgain.isHidden()), 'the panel still shows AGENTS.md after it was deleted');
    await wb.runCommand('View: Close All Editors');
    await wb.answerDialog(/Don.t Save/).catch(() => false);
  });
  it('an AGENTS.md that links to a file outside the workspace is not sent, and the panel says why', async () => {
    resetServer();
    const { demo } = e2e();
    const outside = mkdtempSync(path.join(tmpdir(), 'e2e-home-'));
    const secret = path.join(outside, 'id_rsa');
    writeFileSync(secret, '-----BEGIN OPENSSH PRIVATE KEY-----\ne2e-not-a-real-key\n-----END OPENSSH PRIVATE KEY-----\n');
    const link = path.join(demo.profile.workspace, 'AGENTS.md');
    rmSync(link, { force: true });
    symlinkSync(secret, link);
    cleanup.push(link, outside);
    const wb = await readyWithKey();
    const chat = await wb.chat();
    await chat.newChat();
    const bar = chat.frame.locator('.instructions');
    await waitFor(
      async () => /AGENTS\.md is not sent: it leads to a file outside the workspace/.test((await bar.textContent().catch(() => '')) ?? ''),
      'the panel does not say the linked AGENTS.md is refused',
    );
    await chat.ask('A question with a linked AGENTS.md e2e-agents-link');
    const reqs = chatRequests();
    const sent = JSON.stringify(reqs[reqs.length - 1]?.messages ?? []);
    assert.match(sent, /e2e-agents-link/, 'the question went');
    assert.doesNotMatch(sent, /e2e-not-a-real-key|Project instructions/, 'the linked file was sent');
    rmSync(link, { force: true });
    await waitFor(async () => await bar.isHidden(), 'the panel still shows AGENTS.md after it was deleted');
  });

  it('an AGENTS.md that holds the API key: the panel sends nothing, says why in the words @aichat uses, and keeps the message', async () => {
    resetServer();
    const { demo } = e2e();
    file = path.join(demo.profile.workspace, 'AGENTS.md');
    writeFileSync(file, `# Project rules\n\nIntegration tests call the service with AI_CHAT_KEY=${DEMO_KEY}\n`);
    const wb = await readyWithKey();
    const chat = await wb.chat();
    await chat.newChat();
    const bar = chat.frame.locator('.instructions');
    await waitFor(async () => /AGENTS\.md is sent as instructions/.test((await bar.textContent().catch(() => '')) ?? ''), 'the panel does not show AGENTS.md');
    const before = chatRequests().length;
    await chat.send('A question e2e-agents-key');
    // The gate's refusal (the same wording as @aichat's), with the way to the file.
    await waitFor(
      async () => (await chat.alertTexts()).some((t) => /project instructions file holds your AI Chat API key, so nothing was sent/.test(t)),
      'the panel did not refuse a send while AGENTS.md holds the key',
    );
    assert.equal(chatRequests().length, before, 'the reference server received no chat request');
    assert.equal(await chat.message().inputValue(), 'A question e2e-agents-key', 'the message is back in the box');
    assert.ok(await chat.frame.getByRole('button', { name: 'Open Project Instructions' }).isVisible(), 'a button opens the file');
    // The instructions turned off (the refusal's second button): the same message goes, without them.
    await chat.frame.getByRole('button', { name: 'Turn Project Instructions Off' }).click();
    await waitFor(async () => /turned off/.test((await bar.textContent().catch(() => '')) ?? ''), 'the panel does not say AGENTS.md is off');
    const reply = await chat.ask('A question e2e-agents-key');
    assert.match(reply, /e2e-agents-key/);
    assert.equal(chatRequests().length, before + 1, 'one request, once the instructions were off');
    assert.ok(!JSON.stringify(chatRequests().slice(before)).includes(DEMO_KEY), 'the key was in no request');
    await bar.getByRole('button', { name: 'Turn on AGENTS.md for this workspace' }).click();
    await waitFor(async () => /is sent as instructions/.test((await bar.textContent().catch(() => '')) ?? ''), 'AGENTS.md not back on');
    rmSync(file, { force: true });
    await waitFor(async () => await bar.isHidden(), 'the panel still shows AGENTS.md after it was deleted');
  });
});
