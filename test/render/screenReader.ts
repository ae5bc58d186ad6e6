// What a screen reader gets from the chat panel, in Chromium through the real webview bundle:
// each message one labelled article, the streaming state as aria-busy, one announcement when a
// reply finishes (none per chunk, and the status line does not replace it), code blocks named by
// their language, errors as alerts.
import type { Browser, Page } from 'playwright-core';
import { serveChatPanel, frames, give, type Recorder as Record } from './harness';

/** Starts recording every text the live regions of the page are given. */
const listen = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __said: Array<[string, string]> };
    w.__said = [];
    const observer = new MutationObserver(() => {
      for (const region of document.querySelectorAll('[aria-live="polite"], [role="status"], [role="alert"]')) {
        const text = region.textContent ?? '';
        const key = region.id || region.className;
        const last = w.__said.filter(([k]) => k === key).at(-1)?.[1];
        if (text && text !== last) w.__said.push([key, text]);
      }
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });

const said = (page: Page) => page.evaluate(() => (window as unknown as { __said: Array<[string, string]> }).__said);

export async function screenReaderChecks(browser: Browser, record: Record): Promise<void> {
  const group = 'screen reader';
  const panel = await serveChatPanel();
  const page = await browser.newPage({ viewport: { width: 700, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(panel.url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
    await give(page, [
      {
        type: 'conversation',
        conversation: {
          id: 'c',
          title: 't',
          messages: [
            { id: 'msg_000', role: 'user', content: 'First question', status: 'complete' },
            { id: 'msg_001', role: 'assistant', content: 'Answer with code:\n\n```ts\nconst a = 1;\n```', status: 'complete', meta: { model: 'swift-chat', credits: 2 } },
          ],
        },
        status: { busy: false },
        version: 1,
      },
    ]);
    await frames(page);
    const you = await page.getByRole('article', { name: 'You', exact: true }).count();
    const assistant = await page.getByRole('article', { name: 'Assistant, swift-chat, 2 credits', exact: true }).count();
    record(group, 'each message is one article named "You" or "Assistant, model, credits"', you === 1 && assistant === 1, JSON.stringify({ you, assistant }));
    const code = await page.getByRole('group', { name: 'ts code', exact: true }).count();
    const codeFocusable = await page.evaluate(() => document.querySelector<HTMLElement>('.code-block pre')?.tabIndex === 0);
    record(group, 'a code block is a group named by its language, its code reachable by the keyboard', code === 1 && codeFocusable, JSON.stringify({ code, codeFocusable }));

    // A reply streams in chunks, then ends with more text than was streamed.
    await listen(page);
    await give(page, [
      { type: 'turnStarted', user: { id: 'msg_002', role: 'user', content: 'Second', status: 'complete' }, assistant: { id: 'msg_003', role: 'assistant', content: '', status: 'streaming' }, status: { busy: true }, version: 2 },
    ]);
    await frames(page);
    const busy = await page.evaluate(() => ({
      article: document.querySelectorAll('article.message')[3]?.getAttribute('aria-busy'),
      list: document.querySelector('.messages')?.getAttribute('aria-busy'),
      live: document.querySelector('.messages')?.getAttribute('aria-live'),
    }));
    for (let i = 0; i < 6; i++) {
      await give(page, [{ type: 'streamChunk', messageId: 'msg_003', offset: i * 6, text: `chunk${i}`.padEnd(6, ' '), version: 3 + i }]);
      await frames(page, 1);
    }
    const streamed = Array.from({ length: 6 }, (_, i) => `chunk${i}`.padEnd(6, ' ')).join('');
    await give(page, [{ type: 'turnEnded', message: { id: 'msg_003', role: 'assistant', content: `${streamed}and the end.`, status: 'complete', meta: { model: 'swift-chat', credits: 1 } }, status: { busy: false }, version: 9 }]);
    await page.waitForTimeout(300);
    const after = await page.evaluate(() => ({
      article: document.querySelectorAll('article.message')[3]?.getAttribute('aria-busy'),
      list: document.querySelector('.messages')?.getAttribute('aria-busy'),
      label: document.querySelectorAll('article.message')[3]?.getAttribute('aria-label'),
    }));
    record(group, 'the streaming state is exposed: aria-busy on the reply and the conversation while it streams, not after', busy.article === 'true' && busy.list === 'true' && after.article === 'false' && after.list === 'false', JSON.stringify({ busy, after }));
    record(group, 'the conversation is not a live region (chunks are not read one by one)', busy.live === 'off', String(busy.live));
    record(group, 'the reply\'s article gets its model and charge when it ends', after.label === 'Assistant, swift-chat, 1 credit', String(after.label));
    const texts = await said(page);
    const replies = texts.filter(([, t]) => t.startsWith('Assistant:'));
    record(group, 'one announcement when the reply finishes, with its text (its final text)', replies.length === 1 && replies[0][1].includes('and the end.') && !texts.some(([, t]) => t.includes('chunk0') && !t.startsWith('Assistant:')), JSON.stringify(texts));
    const last = texts.at(-1);
    record(group, 'nothing said after it replaces it (the status line is emptied, not given a text)', last?.[1].startsWith('Assistant:') ?? false, JSON.stringify(last));

    // A failed reply: its error is an alert.
    await give(page, [
      { type: 'turnStarted', user: { id: 'msg_004', role: 'user', content: 'Third', status: 'complete' }, assistant: { id: 'msg_005', role: 'assistant', content: '', status: 'streaming' }, status: { busy: true }, version: 10 },
      { type: 'turnEnded', message: { id: 'msg_005', role: 'assistant', content: '', status: 'error', error: { kind: 'server', message: 'The service failed (500).', actions: ['retry'] } }, status: { busy: false }, version: 11 },
    ]);
    await frames(page);
    const alert = await page.getByRole('alert').filter({ hasText: 'The service failed (500).' }).count();
    record(group, 'an error is an alert', alert === 1, String(alert));
    record(group, 'no page errors', errors.length === 0, errors.join('; ').slice(0, 300));
  } finally {
    await page.close();
    await panel.close();
  }
}
