// Journey 41: the chat by keyboard only: open it and start a new chat from the command palette,
// send two questions with Enter, go to the reply (Ctrl+Up), into it (Enter) and on to its code
// block's Copy (Tab), copy it (Enter), find a word of the first turn (Ctrl+F), and go back to the
// message box (Escape).
import assert from 'node:assert/strict';
import { readyWithKey, resetServer } from '../steps';
import { provesNothingHappensFor, waitFor } from '../workbench';

describe('Journey 41: The chat by keyboard only', () => {
  it('sends, moves into the reply and copies its code, finds a word of the first turn, and comes back to the box', async () => {
    resetServer();
    const wb = await readyWithKey();
    const chat = await wb.chat();
    const keys = wb.page.keyboard;
    // What has the keyboard in the chat: the box, a message (its name) or a control (its name).
    const focus = () =>
      chat.frame.evaluate(() => {
        const a = document.activeElement as HTMLElement | null;
        if (!a || a === document.body) return 'none';
        if (a.id === 'message') return 'box';
        if (a.matches('article')) return `article:${a.getAttribute('aria-label') ?? ''}`;
        return `${a.tagName.toLowerCase()}:${a.getAttribute('aria-label') ?? a.textContent?.trim() ?? ''}`;
      });

    await wb.runCommand('AI Chat: New Chat');
    await waitFor(async () => (await chat.articles().count()) === 0 && (await focus()) === 'box', 'New Chat did not give the message box the keyboard', 15_000);
    for (const question of ['First question about e2e-kbd-zebracorn', 'Second question, unrelated']) {
      const before = await chat.articles('Assistant').count();
      await keys.type(question);
      await keys.press('Enter');
      await waitFor(async () => (await chat.articles('Assistant').count()) > before, 'no reply article appeared', 60_000);
      await chat.waitForIdle();
    }
    assert.equal(await focus(), 'box');

    // The newest reply, then into it and on to its code block's Copy.
    await keys.press('Control+ArrowUp');
    const reply = await focus();
    assert.match(reply, /^article:Assistant, /, reply);
    await keys.press('Enter');
    const path: string[] = [await focus()];
    for (let i = 0; i < 20 && path.at(-1) !== 'button:Copy'; i++) {
      await keys.press('Tab');
      path.push(await focus());
    }
    assert.equal(path.at(-1), 'button:Copy', `Tab did not reach the code block's Copy: ${path.join(' | ')}`);
    await keys.press('Enter');
    await waitFor(async () => (await wb.page.locator('.statusbar').textContent())?.includes('Copied to the clipboard') ?? false, 'no "Copied to the clipboard" after Copy');
    await keys.press('Escape');
    assert.equal(await focus(), 'box', 'Escape in the reply goes back to the box');

    // Find a word of the first turn.
    await keys.press('Control+f');
    await waitFor(async () => (await focus()) === 'input:Find', 'Ctrl+F did not open the find bar');
    await keys.type('e2e-kbd-zebracorn');
    const count = chat.frame.locator('.find-count');
    let counted = '';
    await waitFor(async () => /^\d+ of \d+$/.test((counted = (await count.textContent()) ?? '')), () => `find count: ${counted}`);
    const current = await chat.frame.evaluate(() => {
      const range = [...(CSS.highlights.get('chat-find-current') ?? [])][0] as Range | undefined;
      return range?.startContainer.parentElement?.closest('article')?.getAttribute('aria-label') ?? '';
    });
    assert.ok(current === 'You' || current.startsWith('Assistant, '), `the current match is in a message: ${current}`);
    await keys.press('Escape');
    // As the steps above, the keyboard's move is awaited (the webview handles the key after the press returns).
    let after = '';
    await waitFor(async () => (after = await focus()) === 'box', () => `Escape closes the find bar and gives the box the keyboard; focus: ${after}`);
    assert.equal(await chat.frame.locator('.find-bar').isVisible(), false);

    // Ctrl+F and Escape straight after: the bar stays closed (the workbench's own Ctrl+F, Find in
    // Chat, does not open it again once the Escape was handled).
    await keys.press('Control+f');
    await keys.press('Escape');
    await waitFor(async () => (after = await focus()) === 'box', () => `Escape did not give the box the keyboard; focus: ${after}`);
    await provesNothingHappensFor(1_500, 'the find bar does not open again');
    assert.equal(await chat.frame.locator('.find-bar').isVisible(), false, 'the find bar opened again after Escape');
    assert.equal(await focus(), 'box', 'the box kept the keyboard');
  });
});
