// Journey 4: stop a reply mid-stream, then retry it.
import assert from 'node:assert/strict';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer } from '../steps';
import { provesNothingHappensFor, waitFor } from '../workbench';

describe('Journey 4: Stop and Retry', () => {
  it('keeps the partial reply marked stopped, and Retry gets a complete reply', async () => {
    resetServer(60);
    const wb = await readyWithKey();
    const { demo } = e2e();
    const chat = await wb.chat();
    await chat.newChat();

    await chat.send('Write a long answer please. e2e-stop-check len:8000');
    await waitFor(
      async () => (await chat.stopButton().isVisible()) && (await chat.replyText()).length > 80,
      'the reply did not start streaming',
    );
    await chat.stopButton().click();
    await chat.sendButton().waitFor({ state: 'visible', timeout: 15_000 });

    const stopped = await chat.replyText();
    assert.ok(stopped.length > 80, 'the partial reply is still shown');
    const panel = await chat.frame.locator('body').innerText();
    assert.match(panel, /Stopped/, 'the reply is marked stopped');
    await provesNothingHappensFor(800, 'nothing more arrives after Stop');
    assert.equal(await chat.replyText(), stopped, 'nothing more arrives after Stop');
    const last = demo.server.control.requests().filter((r) => r.path === '/chat').pop();
    assert.ok(last?.clientClosed, 'the request was cancelled at the server');
    await wb.screenshot('chat-stopped');

    demo.server.control.configure({ chunkDelayMs: 5 });
    const before = chatRequests().length;
    await chat.button(/^Retry$/).first().click();
    await waitFor(() => chatRequests().length > before, 'Retry sent nothing');
    // The new reply is under way before its end is awaited (the Stop button may not be shown yet).
    await waitFor(async () => /e2e-stop-check/.test(await chat.replyText()), 'the retried reply did not start', 30_000);
    const reply = (await chat.waitForIdle()).trim();
    assert.match(reply, /e2e-stop-check/);
    assert.ok(reply.length > stopped.length, 'the retried reply is complete');
    assert.doesNotMatch(reply, /Stopped/);
  });
});
