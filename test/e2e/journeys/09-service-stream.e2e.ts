// Journey 9: a normal reply as the service sends it (f, many 0, e with finishReason stop, d,
// [DONE]) in each framing shows no error, and the status bar shows the new balance within 3 s.
import assert from 'node:assert/strict';
import type { Framing } from '../../server/fixtures';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer } from '../steps';
import { waitFor } from '../workbench';

describe('Journey 9: a normal reply of the service stream', () => {
  it('ends without an error in every framing, and the balance is up to date within 3 s of the reply', async () => {
    resetServer(5);
    const wb = await readyWithKey(1000);
    const { demo } = e2e();
    const chat = await wb.openChat();
    await chat.newChat();
    let credits = 1000;
    for (const framing of ['sse', 'prefixed', 'ndjson'] as Framing[]) {
      demo.server.control.configure({ framing });
      const text = await chat.ask(`A normal reply, framing ${framing}. len:600`);
      assert.match(text, new RegExp(`framing ${framing}`), 'the whole reply arrived');
      assert.deepEqual(await chat.alertTexts(), [], `no error shown after a normal ${framing} reply`);
      const body = await chat.frame.locator('body').innerText();
      assert.doesNotMatch(body, /ended with an error|finishReason/, 'no error text under the reply');
      credits -= 1;
      // Within 3 s of the end of the reply, the status bar shows the charged balance.
      assert.equal(await wb.waitForCredits(credits, 3000), credits, `status bar balance after the ${framing} reply`);
      assert.match(body, /swift-chat · 1 credit/, 'the reply footer shows the same charge');
    }
    await wb.screenshot('service-stream-normal-reply');
    demo.server.control.configure({ framing: 'sse' });
  });

  it('a reply cut at the length limit says so and offers Continue, which asks the model to go on', async () => {
    resetServer(5);
    const wb = await readyWithKey();
    const { demo } = e2e();
    const chat = await wb.openChat();
    await chat.newChat();
    demo.server.control.injectFault({ kind: 'finish', finishReason: 'length', afterChunks: 5 });
    await chat.ask('Write a long answer that gets cut.');
    const body = await chat.frame.locator('body').innerText();
    assert.match(body, /cut off at the model’s length limit/, 'the note under the cut reply');
    assert.deepEqual(await chat.alertTexts(), [], 'a cut reply is not an error');
    const before = await chat.articles('Assistant').count();
    await chat.frame.getByRole('button', { name: 'Continue' }).click();
    await waitFor(async () => (await chat.articles('Assistant').count()) > before, 'Continue sent no follow-up');
    await chat.waitForIdle();
    const sent = chatRequests().at(-1)?.messages?.at(-1)?.content ?? '';
    assert.match(sent, /continue/i, 'the follow-up asks the model to continue');
    await wb.screenshot('service-stream-continue');
  });
});
