// Journey 22: the chat looks at home in every kind of theme: its controls take the theme's
// colours (computed styles equal the theme's variables), high contrast outlines them, every
// button has an accessible name. Also takes the README's side bar screenshots.
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { e2e } from '../setup';
import { readyWithKey, resetServer, useTheme } from '../steps';
import { Chat, waitFor } from '../workbench';

/** Computed colours of the chat's controls next to the theme variables they should use. */
interface Colours {
  send: string; sendFg: string; buttonBackground: string; buttonForeground: string;
  select: string; dropdownBackground: string; selectBorder: string; contrastBorder: string;
  input: string; inputBackground: string; inputBorder: string; hasContrastBorder: boolean;
  codiconFont: string; unnamedButtons: string[]; iconButtonsWithoutTooltip: number;
}

// Run in the webview as a string: the test runner's transpiler would add helpers the page lacks.
const COLOURS_SCRIPT = `(() => {
  const probe = document.createElement('div');
  document.body.append(probe);
  function colourOf(variable) {
    probe.style.color = '';
    probe.style.color = 'var(' + variable + ')';
    return getComputedStyle(probe).color;
  }
  const send = getComputedStyle(document.querySelector('button.send'));
  const select = getComputedStyle(document.querySelector('select#model'));
  const input = getComputedStyle(document.querySelector('textarea#message'));
  const out = {
    send: send.backgroundColor, sendFg: send.color,
    buttonBackground: colourOf('--vscode-button-background'), buttonForeground: colourOf('--vscode-button-foreground'),
    select: select.backgroundColor, dropdownBackground: colourOf('--vscode-dropdown-background'),
    selectBorder: select.borderTopColor, contrastBorder: colourOf('--vscode-contrastBorder'),
    input: input.backgroundColor, inputBackground: colourOf('--vscode-input-background'), inputBorder: input.borderTopColor,
    hasContrastBorder: getComputedStyle(document.documentElement).getPropertyValue('--vscode-contrastBorder').trim() !== '',
    codiconFont: getComputedStyle(document.querySelector('.codicon') || document.body).fontFamily,
    unnamedButtons: Array.from(document.querySelectorAll('button'))
      .filter((b) => !((b.getAttribute('aria-label') || b.textContent || '').trim()))
      .map((b) => b.outerHTML.slice(0, 120)),
    iconButtonsWithoutTooltip: Array.from(document.querySelectorAll('button.icon-button')).filter((b) => !b.getAttribute('title')).length,
  };
  probe.remove();
  return out;
})()`;

/** Computed colours of the chat's controls next to the theme variables they should use. */
function controlColours(frame: Frame): Promise<Colours> {
  return frame.evaluate<Colours>(COLOURS_SCRIPT);
}

describe('Journey 22: Themes', () => {

  it('every control takes the theme colours in dark, light and both high-contrast themes, and has a name', async () => {
    resetServer();
    const wb = await readyWithKey();
    const { page } = e2e();
    // In the side bar (an earlier journey may have moved it into the editor or elsewhere).
    await wb.runCommand('View: Reset View Locations');
    await wb.runCommand('AI Chat: Move Chat to Side Bar');
    await e2e().page.locator('.part.sidebar .composite.title', { hasText: 'AI Chat' }).first().waitFor({ timeout: 30_000 });
    const chat = new Chat(wb, await wb.chatFrame());
    const reply = await chat.ask('Show me a code block e2e-theme-check');
    assert.ok(reply.length > 0);

    const themes: Array<[string, string, string | undefined]> = [
      ['Dark Modern', 'vscode-dark', 'side-bar-chat-dark'],
      ['Light Modern', 'vscode-light', 'side-bar-chat-light'],
      ['Dark High Contrast', 'vscode-high-contrast', undefined],
      ['Light High Contrast', 'vscode-high-contrast-light', undefined],
    ];
    for (const [theme, bodyClass, shot] of themes) {
      await useTheme(wb, chat.frame, theme, bodyClass);
      const c = await controlColours(chat.frame);
      const where = `${theme}: ${JSON.stringify(c)}`;
      assert.equal(c.send, c.buttonBackground, `Send uses --vscode-button-background (${where})`);
      assert.equal(c.sendFg, c.buttonForeground, `Send uses --vscode-button-foreground (${where})`);
      assert.equal(c.select, c.dropdownBackground, `the model dropdown uses --vscode-dropdown-background (${where})`);
      assert.equal(c.input, c.inputBackground, `the message box uses --vscode-input-background (${where})`);
      assert.match(c.codiconFont, /codicon/, `icons use the codicon font (${where})`);
      assert.deepEqual(c.unnamedButtons, [], `every button has an accessible name (${where})`);
      assert.equal(c.iconButtonsWithoutTooltip, 0, `every icon button has a tooltip (${where})`);
      if (bodyClass.startsWith('vscode-high-contrast')) {
        assert.ok(c.hasContrastBorder, `the high contrast theme defines contrastBorder (${where})`);
        assert.equal(c.selectBorder, c.contrastBorder, `the dropdown is outlined in the contrast colour (${where})`);
        assert.equal(c.inputBorder, c.contrastBorder, `the message box is outlined in the contrast colour (${where})`);
      }
      // The code block toolbar shows its icon buttons on hover, each named.
      const block = chat.lastReply().locator('.code-block').first();
      if (await block.count()) {
        await block.hover();
        for (const name of ['Copy', 'Insert at Cursor', 'Open in New Editor']) {
          const b = block.getByRole('button', { name, exact: true });
          await waitFor(async () => (await b.evaluate((el) => getComputedStyle(el).opacity)) === '1', `"${name}" did not appear on hover in ${theme}`, 5_000);
        }
        if (shot === 'side-bar-chat-dark') await wb.screenshot('code-block-toolbar');
      }
      if (shot) await wb.screenshot(shot);
    }

    await useTheme(wb, chat.frame, 'Light Modern', 'vscode-light');
    // Keyboard: Tab from the message box reaches the attach button, then Send.
    await chat.message().focus();
    const order: string[] = [];
    for (let i = 0; i < 3 && order[order.length - 1] !== 'Send'; i++) {
      await page.keyboard.press('Tab');
      order.push((await chat.frame.evaluate(() => document.activeElement?.getAttribute('aria-label'))) ?? '');
    }
    assert.deepEqual(order, ['Attach to the next message', 'Send'], 'Tab from the message box reaches Attach, then Send');
  });
});
