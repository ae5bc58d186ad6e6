// Journey 40: the stream's other parts, as a user meets them. Deep Think streams its thinking
// (`g`) before the answer: the reply shows a collapsed "Thinking" section above it, which opens to
// the thinking, while the reply's own text holds none of it. With web search on, the service runs
// a search step (tool call, result, `e` isContinued) and the sources it found (`h`) end the reply
// as a numbered list of links.
import assert from 'node:assert/strict';
import { chatRequests, readyWithKey, resetServer, selectModel } from '../steps';
import { waitFor } from '../workbench';

describe('Journey 40: reasoning and sources', () => {
  it('Deep Think thinks in a collapsed section above its answer, and a search reply ends with its sources as links', async () => {
    resetServer(5);
    const wb = await readyWithKey();
    await selectModel(wb, 'Deep Think');
    const chat = await wb.openChat();
    await chat.newChat();
    try {
      // Web search on (the globe of the chat's toolbar), then the question.
      const search = chat.frame.getByRole('button', { name: 'Web search' });
      await search.click();
      await waitFor(async () => (await search.getAttribute('aria-pressed')) === 'true', 'web search did not turn on');
      await chat.ask('How do streams end e2e-parts-one');
      const sent = chatRequests().at(-1);
      assert.equal(sent?.model, 'deep-think');
      assert.equal(sent?.search, true);

      const reply = chat.lastReply();
      // The thinking: a collapsed section, before the answer, with the thinking as text.
      const thinking = reply.locator('details.reasoning');
      await thinking.waitFor({ timeout: 15_000 });
      assert.equal(await thinking.getAttribute('open'), null, 'collapsed at first');
      assert.equal(await thinking.locator('summary').innerText(), 'Thinking');
      await thinking.locator('summary').click();
      await waitFor(async () => (await thinking.getAttribute('open')) !== null, 'the Thinking section did not open');
      assert.match(await thinking.locator('.reasoning-text').innerText(), /The user asks about "How do streams end e2e-parts-one"/);
      const answer = reply.locator('.assistant-body');
      const answerText = (await answer.textContent()) ?? '';
      assert.doesNotMatch(answerText, /The user asks about/, 'the thinking is not in the answer');
      assert.ok(
        await thinking.evaluate((d) => !!(d.compareDocumentPosition(d.parentElement!.querySelector('.assistant-body')!) & Node.DOCUMENT_POSITION_FOLLOWING)),
        'the section is above the answer',
      );

      // The sources: a numbered list of links at the end of the answer, the title as text.
      assert.match(answerText, /Sources/);
      const links = answer.locator('ol').last().locator('a');
      assert.equal(await links.count(), 2);
      assert.match((await links.nth(0).innerText()).trim(), /^Reference: How do streams end/);
      assert.match((await links.nth(0).getAttribute('href')) ?? '', /^https:\/\/docs\.example\.com\/search\//);
      assert.match((await links.nth(1).getAttribute('href')) ?? '', /^https:\/\/blog\.example\.org\//);
      await wb.screenshot('reasoning-and-sources');
    } finally {
      // Back to what the other journeys expect: search off, Swift Chat.
      const search = chat.frame.getByRole('button', { name: 'Web search' });
      if ((await search.getAttribute('aria-pressed').catch(() => 'false')) === 'true') await search.click();
      await selectModel(wb, 'Swift Chat');
    }
  });
});
