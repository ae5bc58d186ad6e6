// A question's branches in Chromium, through the real webview bundle: the pager on a question
// ("‹ 2 / 2 ›", a group heard as "Question 2 of 2") works from the keyboard and keeps it when the
// page shows the other branch; Edit on an earlier question puts its text in the box under
// "Editing question N" (Cancel ends it, a send carries the question, an edit that came back is one
// again); Find in chat lists a match in a message not shown and asks the host to show it.
import type { Browser, Page } from 'playwright-core';
import { serveChatPanel, frames, give, type Recorder as Record } from './harness';

const hex = (n: number) => `msg_${n.toString(16).padStart(3, '0')}`;
const settings = {
  type: 'settings',
  settings: { models: [{ valueId: 'swift-chat', name: 'Swift Chat', cost: 1, usable: true }], modelsLoading: false, selectedModel: 'swift-chat', selectedModelCost: 1, search: false, temperature: 1, fontSize: 0, hasKey: true },
};

/** Q1, Q2 (the second of its place) and their replies; the first Q2 and its turn are not shown. */
function edited(version: number, shownSecond = true): unknown {
  const q2 = shownSecond
    ? { id: hex(0x10), role: 'user', content: 'Second question, edited', status: 'complete', branch: { index: 2, count: 2 } }
    : { id: hex(2), role: 'user', content: 'Second question', status: 'complete', branch: { index: 1, count: 2 } };
  const a2 = shownSecond ? { id: hex(0x11), role: 'assistant', content: 'Answer to the edit', status: 'complete' } : { id: hex(3), role: 'assistant', content: 'Answer about wombats', status: 'complete' };
  const hidden = shownSecond
    ? [
        { id: hex(2), role: 'user', content: 'Second question', kind: 'branch' },
        { id: hex(3), role: 'assistant', content: 'Answer about wombats', kind: 'branch' },
      ]
    : [
        { id: hex(0x10), role: 'user', content: 'Second question, edited', kind: 'branch' },
        { id: hex(0x11), role: 'assistant', content: 'Answer to the edit', kind: 'branch' },
      ];
  return {
    type: 'conversation',
    conversation: {
      id: 'conv-branches',
      title: 'Branches',
      messages: [
        { id: hex(0), role: 'user', content: 'First question', status: 'complete' },
        { id: hex(1), role: 'assistant', content: 'First answer', status: 'complete' },
        q2,
        a2,
      ],
      hidden,
    },
    status: { busy: false },
    version,
  };
}

const posted = (page: Page) => page.evaluate(() => (window as unknown as { __posted: Array<{ [k: string]: unknown }> }).__posted.slice());

export async function branchChecks(browser: Browser, record: Record): Promise<void> {
  const group = 'branches';
  const panel = await serveChatPanel();
  const page = await browser.newPage({ viewport: { width: 800, height: 700 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(panel.url);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
    await give(page, [settings, edited(1)]);
    await frames(page);

    const pager = await page.evaluate(() => {
      const article = document.querySelectorAll('article.message.user')[1] as HTMLElement | undefined;
      const group = article?.querySelector('.branch-pager');
      const buttons = [...(group?.querySelectorAll('button') ?? [])] as HTMLButtonElement[];
      return { article: article?.getAttribute('aria-label'), group: group?.getAttribute('aria-label'), role: group?.getAttribute('role'), text: group?.textContent, disabled: buttons.map((b) => b.disabled) };
    });
    record(group, 'a question with branches: its article is "You, Question 2 of 2", its pager a group "Question 2 of 2" showing 2 / 2, next disabled at the end', pager.article === 'You, Question 2 of 2' && pager.group === 'Question 2 of 2' && pager.role === 'group' && pager.text === '2 / 2' && JSON.stringify(pager.disabled) === '[false,true]', JSON.stringify(pager));

    // The keyboard: Tab to the pager's previous button, Enter.
    await page.locator('article.message.user >> nth=1').locator('.branch-pager button').first().focus();
    await page.keyboard.press('Enter');
    const asked = (await posted(page)).filter((m) => m.type === 'showBranch');
    record(group, 'Enter on the previous button asks the host for the branch before', JSON.stringify(asked) === JSON.stringify([{ type: 'showBranch', messageId: hex(0x10), step: -1 }]), JSON.stringify(asked));
    await give(page, [edited(2, false)]);
    await frames(page, 4);
    const focus = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      return { pager: !!active?.closest('.branch-pager'), question: active?.closest('article')?.getAttribute('data-id'), label: active?.getAttribute('aria-label') };
    });
    record(group, 'the other branch drawn: the keyboard is on the pager of the question now in that place', focus.pager && focus.question === hex(2), JSON.stringify(focus));

    // Edit of an earlier question, then Cancel.
    const firstEdit = page.locator('article.message.user >> nth=0').locator('button.edit-branch');
    await firstEdit.click();
    const editing = await page.evaluate(() => ({ box: (document.querySelector('textarea#message') as HTMLTextAreaElement).value, bar: (document.querySelector('.branch-edit') as HTMLElement).hidden, text: document.querySelector('.branch-edit')?.textContent ?? '', focused: document.activeElement?.id }));
    record(group, 'Edit on an earlier question: its text in the box, "Editing question 1" above it, the keyboard in the box', editing.box === 'First question' && !editing.bar && editing.text.includes('Editing question 1') && editing.focused === 'message', JSON.stringify(editing));
    await page.locator('.branch-edit button').click();
    const cancelled = await page.evaluate(() => ({ box: (document.querySelector('textarea#message') as HTMLTextAreaElement).value, bar: (document.querySelector('.branch-edit') as HTMLElement).hidden }));
    record(group, 'Cancel: the bar goes, the box is empty, nothing is sent', cancelled.box === '' && cancelled.bar && !(await posted(page)).some((m) => m.type === 'send'), JSON.stringify(cancelled));

    // Edit, change the text, send: the send carries the question.
    await firstEdit.click();
    await page.locator('textarea#message').fill('First question, better');
    await page.keyboard.press('Enter');
    const sends = (await posted(page)).filter((m) => m.type === 'send');
    const barAfter = await page.evaluate(() => (document.querySelector('.branch-edit') as HTMLElement).hidden);
    record(group, 'sending the edit carries the question it edits (editOf), and the bar goes', JSON.stringify(sends) === JSON.stringify([{ type: 'send', text: 'First question, better', editOf: hex(0) }]) && barAfter, JSON.stringify({ sends, barAfter }));

    // Find in chat: a word only in the branch not shown.
    await give(page, [edited(3)]);
    await frames(page);
    await page.locator('textarea#message').focus();
    await page.keyboard.press('Control+f');
    await page.locator('.find-input').fill('wombats');
    await frames(page, 2);
    const hits = await page.evaluate(() => ({
      count: document.querySelector('.find-count')?.textContent,
      listed: [...document.querySelectorAll('.find-hidden-hit')].map((b) => b.textContent),
      note: document.querySelector('.find-hidden-count')?.textContent,
    }));
    record(group, 'Find in chat: a word only in a branch not shown is listed below the bar as in another branch', hits.count === 'No results' && hits.listed.length === 1 && /^In another branch: .*wombats/.test(hits.listed[0] ?? '') && hits.note === 'Also in 1 message not shown:', JSON.stringify(hits));
    if (hits.listed.length === 0) return;
    await page.locator('.find-hidden-hit').click();
    const reveal = (await posted(page)).filter((m) => m.type === 'showHiddenMessage');
    record(group, 'choosing it asks the host to show that message', JSON.stringify(reveal) === JSON.stringify([{ type: 'showHiddenMessage', messageId: hex(3) }]), JSON.stringify(reveal));
    await give(page, [edited(4, false)]);
    // The bar goes to its match once the page shows it (the find bar follows the page's changes).
    await page.waitForFunction(() => /^1 of 1$/.test(document.querySelector('.find-count')?.textContent ?? ''));
    const found = await page.evaluate(() => [...(CSS.highlights.get('chat-find-current') ?? [])].map((r) => (r as Range).toString()));
    record(group, 'shown, the match is the current one', JSON.stringify(found) === '["wombats"]', JSON.stringify(found));
    // An edit of which no reply came: the text back in the box as the edit of that question again.
    await page.keyboard.press('Escape');
    await give(page, [{ type: 'restoreInput', text: 'Second question, again', editOf: hex(2) }]);
    await frames(page);
    const again = await page.evaluate(() => ({ box: (document.querySelector('textarea#message') as HTMLTextAreaElement).value, bar: (document.querySelector('.branch-edit') as HTMLElement).hidden, text: document.querySelector('.branch-edit')?.textContent ?? '' }));
    record(group, 'an edit that came back (no reply came) is in the box as the edit of its question again', again.box.includes('Second question, again') && !again.bar && again.text.includes('Editing question 2'), JSON.stringify(again));
    record(group, 'no page errors', errors.length === 0, errors.join('; ').slice(0, 300));
  } finally {
    await page.close();
    await panel.close();
  }
}
