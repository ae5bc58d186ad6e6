// The chat panel's windowing in Chromium, through the real webview bundle: a 300-turn
// conversation opens with only its newest messages rendered, the last reply on screen; older
// ones are rendered as the top comes into view, without moving what is on screen; messages far
// from view give their body back and render it again when they come near; a turn at the end
// streams in as usual.
import type { Browser } from 'playwright-core';
import { appendMessage, createConversation } from '../../src/core';
import type { HostMessage } from '../../src/protocol';
import { serveChatPanel, frames, give, type Recorder as Record } from './harness';
import { makeController } from '../support/session';

const TURNS = 300;
const WINDOW_PAGE = 12; // src/webview/conversationView.ts

async function conversationMessages(): Promise<HostMessage[]> {
  const conv = createConversation('conv-window');
  const reply = Array.from({ length: 40 }, (_, i) => `Line ${i} of the reply, with **bold** and \`code\`.`).join('\n\n');
  for (let i = 0; i < TURNS; i++) {
    appendMessage(conv, 'user', `Question ${i}`, new Date());
    appendMessage(conv, 'assistant', `Answer ${i}\n\n${reply}`, new Date(), { status: 'complete', meta: { model: 'swift-chat' } });
  }
  const { session, store, controller } = makeController({
    backend: {
      chat: () => Promise.reject(new Error('no requests here')),
      chatStream: () => Promise.reject(new Error('no requests here')),
    },
  });
  await store.save(conv);
  await session.open(conv.id);
  return controller.initialMessages();
}

export async function windowingChecks(browser: Browser, record: Record): Promise<void> {
  const group = 'windowing';
  const panel = await serveChatPanel();
  const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(panel.url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
    await give(page, await conversationMessages());
    await frames(page);
    const opened = await page.evaluate(() => {
      const articles = [...document.querySelectorAll('article.message')];
      const last = articles[articles.length - 1];
      const box = last?.getBoundingClientRect();
      return { count: articles.length, lastText: last?.textContent ?? '', lastInView: !!box && box.top < window.innerHeight && box.bottom > 0 };
    });
    record(group, `a ${TURNS}-turn conversation opens with only its newest messages rendered`,
      opened.count >= WINDOW_PAGE && opened.count <= 2 * WINDOW_PAGE, `${opened.count} rendered`);
    record(group, 'the last reply is on screen after open', opened.lastInView && opened.lastText.includes(`Answer ${TURNS - 1}`), opened.lastText.slice(0, 80));

    // Scrolling to the top renders the page above, and what was on screen stays where it was.
    const kept = await page.evaluate(async () => {
      const list = document.querySelector('.messages') as HTMLElement;
      const firstBefore = document.querySelector('article.message') as HTMLElement;
      const countBefore = document.querySelectorAll('article.message').length;
      list.scrollTop = 0;
      const topBefore = firstBefore.getBoundingClientRect().top;
      for (let i = 0; i < 5; i++) await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      return {
        added: document.querySelectorAll('article.message').length - countBefore,
        moved: Math.abs(firstBefore.getBoundingClientRect().top - topBefore),
      };
    });
    record(group, 'older messages are rendered as the top comes into view', kept.added > 0, `${kept.added} added`);
    record(group, 'the scroll position is kept when older messages are added above', kept.moved <= 2, `moved ${kept.moved.toFixed(1)} px`);

    // All the way up: every message, in order.
    const all = await page.evaluate(async () => {
      const list = document.querySelector('.messages') as HTMLElement;
      for (let i = 0; i < 200 && document.querySelectorAll('article.message').length < 600; i++) {
        list.scrollTop = 0;
        await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      }
      // At the top itself (adding the last older messages kept the position below them, where the
      // oldest may have given their body back): what is in view there is rendered again.
      list.scrollTop = 0;
      for (let i = 0; i < 3; i++) await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      const articles = [...document.querySelectorAll('article.message')];
      return { count: articles.length, first: articles[0]?.textContent ?? '' };
    });
    record(group, 'scrolled to the top, every message is rendered, oldest first', all.count === 2 * TURNS && all.first.includes('Question 0'), JSON.stringify(all).slice(0, 120));

    // Back down to the end: the messages far from view gave their body back (article, label and
    // footer stay, at the height they had); the ones in view are rendered.
    const back = await page.evaluate(async () => {
      const list = document.querySelector('.messages') as HTMLElement;
      // In 20 steps (a quick scroll): what passes by far from view is not rendered on the way.
      const step = Math.ceil(list.scrollHeight / 20);
      for (let i = 0; i < 40 && list.scrollTop + list.clientHeight < list.scrollHeight - 2; i++) {
        list.scrollTop += step;
        await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      }
      for (let i = 0; i < 3; i++) await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      const articles = [...document.querySelectorAll('article.message')];
      const last = articles[articles.length - 1];
      return {
        count: articles.length,
        released: articles.filter((a) => !a.querySelector('.reply-body')).length,
        heldHeight: articles.filter((a) => !a.querySelector('.reply-body')).every((a) => a.getBoundingClientRect().height > 30),
        last: last?.querySelector('.assistant-body')?.textContent ?? '',
      };
    });
    record(group, 'back at the end, the messages far from view hold no rendered body, at the height they had',
      back.count === 2 * TURNS && back.released >= 2 * TURNS - 4 * WINDOW_PAGE && back.heldHeight, JSON.stringify({ ...back, last: back.last.slice(0, 40) }));
    record(group, 'back at the end, the last reply is rendered', back.last.includes(`Answer ${TURNS - 1}`), back.last.slice(0, 80));

    // A turn at the end streams in after all that.
    const user = { id: 'msg_600', role: 'user', content: 'One more', status: 'complete' };
    const reply = { id: 'msg_601', role: 'assistant', content: '', status: 'streaming' };
    await give(page, [
      { type: 'turnStarted', user, assistant: reply, status: { busy: true } },
      { type: 'streamChunk', messageId: 'msg_601', offset: 0, text: 'Streamed ' },
      { type: 'streamChunk', messageId: 'msg_601', offset: 9, text: 'reply' },
      { type: 'turnEnded', message: { ...reply, content: 'Streamed reply', status: 'complete' }, status: { busy: false } },
    ]);
    await frames(page);
    const end = await page.evaluate(() => {
      const articles = [...document.querySelectorAll('article.message')];
      return { count: articles.length, last: articles[articles.length - 1]?.querySelector('.assistant-body')?.textContent ?? '' };
    });
    record(group, 'a turn at the end streams in', end.count === 2 * TURNS + 2 && end.last.includes('Streamed reply'), JSON.stringify(end));

    // A message in the middle comes into view: its body is rendered again, with its text, and what
    // is on screen stays in place while the messages around it are rendered again.
    const middle = await page.evaluate(async () => {
      const articles = [...document.querySelectorAll<HTMLElement>('article.message')];
      const target = articles[301];
      const wasReleased = !target.querySelector('.reply-body');
      // The user scrolls up with the wheel (the chat stops following the end at once; a scroll
      // set by script alone is only seen at the next frame's scroll event, and a change of the
      // list before it would take the view back to the end).
      const list = document.querySelector('.messages') as HTMLElement;
      list.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, bubbles: true }));
      target.scrollIntoView({ block: 'start' });
      const top = target.getBoundingClientRect().top;
      for (let i = 0; i < 5; i++) await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      return { wasReleased, moved: Math.abs(target.getBoundingClientRect().top - top), text: target.querySelector('.assistant-body')?.textContent ?? '' };
    });
    record(group, 'a message that gave its body back renders it again, with its text, when it comes into view',
      middle.wasReleased && middle.text.includes('Answer 150') && middle.text.includes('Line 39 of the reply'), JSON.stringify({ ...middle, text: middle.text.slice(0, 40) }));
    record(group, 'what is on screen stays in place while the messages around it are rendered again', middle.moved <= 2, `moved ${middle.moved.toFixed(1)} px`);

    record(group, 'no page errors', errors.length === 0, errors.join('; ').slice(0, 300));
  } finally {
    await page.close();
    await panel.close();
  }
}
