// The stream's other parts as the panel shows them, through the real webview bundle in Chromium:
// a reasoning model's thinking in a collapsed Thinking section above the reply (plain text, not in
// the reply, quoted by Copy reply); the Searching… state before the text and its clearing; the
// sources as numbered links that go through the host's link handling (hostile titles stay text,
// addresses other than http(s) are never links); the files the model produced as text.
import type { Browser, Page } from 'playwright-core';
import { filesMarkdown, sourcesMarkdown } from '../../src/core';
import { serveChatPanel, frames, give, type Recorder } from './harness';

const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
const REASONING = `First I weigh the question. ${HOSTILE} Then I answer.`;

const posted = (page: Page) => page.evaluate(() => (window as unknown as { __posted: Array<{ type: string; [k: string]: unknown }> }).__posted.slice());
export async function streamPartChecks(browser: Browser, record: Recorder): Promise<void> {
  const group = 'stream parts';
  const panel = await serveChatPanel();
  const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(panel.url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));

    const sources = sourcesMarkdown([
      { url: 'https://docs.example.com/ropes', title: `Ropes ${HOSTILE} [x](javascript:alert(1))` },
      { url: 'https://docs.example.com/knots' },
    ]);
    const files = filesMarkdown([{ mimeType: 'image/png', bytes: 2048 }]);
    const reply = { id: 'msg_2', role: 'assistant', content: `The answer is a rope.${sources}${files}`, status: 'complete', meta: { model: 'deep-think', credits: 5, reasoning: REASONING } };
    await give(page, [
      {
        type: 'conversation',
        conversation: { id: 'conv-parts', title: 'Parts', messages: [{ id: 'msg_1', role: 'user', content: 'What holds?', status: 'complete' }, reply] },
        status: { busy: false },
      },
    ]);
    await frames(page);

    const shown = await page.evaluate(() => {
      const article = [...document.querySelectorAll('article.message.assistant')].pop();
      const details = article?.querySelector<HTMLDetailsElement>(':scope > details.reasoning');
      const body = article?.querySelector('.assistant-body');
      return {
        details: !!details,
        open: details?.open ?? null,
        summary: details?.querySelector('summary')?.textContent ?? '',
        reasoning: details?.querySelector('.reasoning-text')?.textContent ?? '',
        above: (details?.getBoundingClientRect().top ?? 1) < (body?.getBoundingClientRect().top ?? 0),
        elementsInReasoning: details?.querySelector('.reasoning-text')?.children.length ?? -1,
        bodyText: body?.textContent ?? '',
        links: [...(body?.querySelectorAll('a') ?? [])].map((a) => ({ href: a.getAttribute('href'), text: a.textContent })),
        images: article?.querySelectorAll('img, script').length ?? -1,
        pwned: (window as unknown as { __pwned?: number }).__pwned ?? 0,
      };
    });
    record(group, 'the thinking is a Thinking section above the reply, collapsed', shown.details && shown.open === false && shown.summary === 'Thinking' && shown.above, JSON.stringify({ open: shown.open, summary: shown.summary, above: shown.above }));
    record(group, 'the thinking is plain text (hostile markup stays text) and not part of the reply', shown.reasoning === REASONING && shown.elementsInReasoning === 0 && !shown.bodyText.includes('First I weigh'), shown.reasoning.slice(0, 80));
    record(group, 'the sources are two numbered links to their http(s) addresses; a hostile title is text', shown.links.length === 2 && shown.links[0].href === 'https://docs.example.com/ropes' && shown.links[1].href === 'https://docs.example.com/knots' && (shown.links[0].text ?? '').includes(HOSTILE), JSON.stringify(shown.links).slice(0, 300));
    record(group, 'nothing in the reply, its thinking or its sources is markup: no image, no script ran', shown.images === 0 && shown.pwned === 0, `${shown.images} elements, pwned ${shown.pwned}`);
    record(group, 'a file the model produced is listed by name, type and size as text', shown.bodyText.includes('file-1.png (image/png, 2 KB)'), shown.bodyText.slice(-200));

    await page.locator('article.message.assistant details.reasoning > summary').last().click();
    const opened = await page.evaluate(() => [...document.querySelectorAll<HTMLDetailsElement>('details.reasoning')].pop()?.open ?? false);
    record(group, 'the Thinking section opens with a click on its summary', opened);

    // A source link asks the host to open it (VS Code's link handling); the page does not navigate.
    let before = (await posted(page)).length;
    await page.locator('article.message.assistant .assistant-body a').first().click();
    let after = (await posted(page)).slice(before);
    record(group, 'a source link goes to the host as openLink with its address', after.length === 1 && after[0].type === 'openLink' && after[0].href === 'https://docs.example.com/ropes' && page.url() === panel.url, JSON.stringify(after));

    // Copy reply quotes the thinking before the reply.
    before = (await posted(page)).length;
    await page.locator('article.message.assistant').last().hover();
    await page.locator('article.message.assistant').last().getByRole('button', { name: 'Copy reply' }).click();
    after = (await posted(page)).slice(before);
    const code = typeof after[0]?.code === 'string' ? after[0].code : '';
    record(group, 'Copy reply quotes the thinking before the reply', after.length === 1 && after[0].action === 'copy' && /^> \*\*Thinking\*\*\n>\n> First I weigh/.test(code) && code.includes('The answer is a rope.'), code.slice(0, 120));

    // Searching… while the tool step runs, until the text comes.
    const user = { id: 'msg_3', role: 'user', content: 'Search it', status: 'complete' };
    const streaming = { id: 'msg_4', role: 'assistant', content: '', status: 'streaming' };
    await give(page, [
      { type: 'turnStarted', user, assistant: streaming, status: { busy: true } },
      { type: 'streamStatus', messageId: 'msg_4', text: 'Searching…' },
    ]);
    await frames(page);
    const searching = await page.evaluate(() => ({
      typing: [...document.querySelectorAll('article.message.assistant')].pop()?.querySelector('.typing')?.textContent ?? '',
      status: document.querySelector('.replying')?.textContent ?? '',
    }));
    record(group, 'a tool step shows Searching… under the reply and in the status line', searching.typing === 'Searching…' && searching.status === 'Searching…', JSON.stringify(searching));
    await give(page, [{ type: 'streamChunk', messageId: 'msg_4', offset: 0, text: 'Found it.' }]);
    await frames(page);
    const answering = await page.evaluate(() => ({
      typing: [...document.querySelectorAll('article.message.assistant')].pop()?.querySelector('.typing')?.textContent ?? '',
      status: document.querySelector('.replying')?.textContent ?? '',
      body: [...document.querySelectorAll('article.message.assistant')].pop()?.querySelector('.assistant-body')?.textContent ?? '',
    }));
    record(group, 'the first text clears Searching…', answering.typing === '' && answering.status === 'Assistant is replying…' && answering.body.includes('Found it.'), JSON.stringify(answering));
    // Silence after text: the status line says it waits, the next text clears it.
    await give(page, [{ type: 'streamStatus', messageId: 'msg_4', text: 'Waiting for the service… 12 s' }]);
    await frames(page);
    const waiting = await page.evaluate(() => document.querySelector('.replying')?.textContent ?? '');
    await give(page, [{ type: 'streamChunk', messageId: 'msg_4', offset: 9, text: ' More.' }]);
    await frames(page);
    const resumed = await page.evaluate(() => document.querySelector('.replying')?.textContent ?? '');
    record(group, 'silence after text shows in the status line and the next text clears it', waiting === 'Waiting for the service… 12 s' && resumed === 'Assistant is replying…', `${waiting} -> ${resumed}`);

    record(group, 'no page errors', errors.length === 0, errors.join('; '));
  } finally {
    await page.close();
    await panel.close();
  }
}
