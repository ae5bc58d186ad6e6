// Journey 9: a normal reply as the service sends it (f, many 0, e with finishReason stop, d,
// [DONE]) in each framing shows no error, and the status bar shows the new balance within 3 s.
import assert from 'node:assert/strict';
import type { Framing } from '../../server/fixtures';
import { e2e } from '../setup';
import { readyWithKey, resetServer } from '../steps';

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
});
