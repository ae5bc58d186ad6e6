// Journey 3: open the chat, type, send; the reply streams in and is charged.
import assert from 'node:assert/strict';
import { e2e } from '../setup';
import { readyWithKey, resetServer } from '../steps';
import { waitFor } from '../workbench';

describe('Journey 3: Open Chat and send', () => {
  it('shows the reply progressively and completely, charges the model cost, and shows credits and tokens', async () => {
    resetServer(40); // slow enough to watch the reply grow
    const wb = await readyWithKey(1000);
    const { demo } = e2e();
    try {
      const chat = await wb.openChat();
      await chat.newChat();
      const replies = await chat.articles('Assistant').count();

      await chat.send('Explain the inventory module in detail. e2e-stream-check len:1500');
      await waitFor(async () => (await chat.articles('Assistant').count()) > replies, 'no reply appeared');
      await chat.stopButton().waitFor({ state: 'visible', timeout: 10_000 });

      // Watch the reply while it streams: keep every distinct partial text.
      const partials: string[] = [];
      let shot = false;
      while (await chat.stopButton().isVisible()) {
        const text = await chat.replyText();
        if (text && text !== partials[partials.length - 1] && (await chat.stopButton().isVisible())) {
          partials.push(text);
          if (text.length > 700 && !shot) {
            await wb.screenshot('chat-streaming');
            shot = true;
          }
        }
      }
      const final = (await chat.waitForIdle()).trim();
      assert.ok(partials.length >= 2, `at least two partial states seen while streaming, saw ${partials.length}`);
      for (const p of partials.slice(0, 2)) assert.ok(p.length < final.length, 'a partial state is shorter than the final reply');
      assert.notEqual(partials[0], partials[1]);
      assert.match(final, /e2e-stream-check/, 'the reply is the complete one (it echoes the prompt)');
      assert.ok(final.length > 1000, `the whole reply arrived (${final.length} characters)`);
      // Every reply of the reference server ends its first part with a TypeScript example:
      // the webview bundle highlights it (highlight.js classes on the code's tokens).
      const keywords = chat.articles('Assistant').last().locator('pre code.hljs span.hljs-keyword');
      assert.ok((await keywords.count()) > 0, 'the code block in the reply is highlighted');

      const body = await chat.frame.locator('body').innerText();
      assert.match(body, /swift-chat · 1 credit · \d+ prompt \+ \d+ completion tokens/, 'meta line with credits and tokens');
      assert.equal(await wb.waitForCredits(999), 999, 'the status bar balance dropped by the model cost (1)');
      await wb.screenshot('chat-complete');
    } finally {
      demo.server.control.configure({ chunkDelayMs: 5 });
    }
  });
});
