// Journey 34: @aichat in VS Code's Chat view, as a new user meets it. The suite's own profile
// turns VS Code's AI features off (chat.disableAIFeatures) to keep the other journeys quiet, so
// this journey starts a code-server of its own with a fresh profile: VS Code's defaults, where the
// Chat view is shown in the secondary side bar, and only the service address of the reference
// server set. The user sets the key and types `@aichat ...` in the Chat view: the reference server
// must receive the request, with the user's AI Chat model, whatever the Chat view's picker shows.
// A prompt that holds the key is refused there and never reaches the service, then or later.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { DEMO_KEY } from '../../server/fixtures';
import { startDemo, type Demo } from '../launcher';
import { e2e } from '../setup';
import { setKey } from '../steps';
import { Workbench, waitFor } from '../workbench';

/** The Chat view's message box (VS Code's own chat input, in the secondary side bar). */
function chatInput(page: Page): Locator {
  return page.locator('.part.auxiliarybar .interactive-input-part .monaco-editor').first();
}

/** The text of the Chat view's last response. */
async function lastResponse(page: Page): Promise<string> {
  const items = page.locator('.part.auxiliarybar .interactive-item-container.interactive-response');
  // Read at once: a response rendered again between a count and a read would hold the read up
  // for Playwright's whole timeout (30 s).
  return ((await items.allInnerTexts()).at(-1) ?? '').replace(/\s+/g, ' ');
}

async function askInChatView(page: Page, text: string): Promise<void> {
  await chatInput(page).click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

describe('Journey 34: @aichat in the Chat view', () => {
  let demo: Demo | undefined;
  let dir: string | undefined;
  after(async () => {
    await demo?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("in a fresh profile, @aichat answers in VS Code's Chat view with the user's key and AI Chat model, and the service gets the request; a prompt holding the key is not sent", async function () {
    this.timeout(300_000);
    dir = mkdtempSync(path.join(os.tmpdir(), 'ai-chat-e2e-chatview-'));
    // VS Code's defaults for what the suite's profile changes: AI features on, the secondary side
    // bar shown in a workspace. Only the service address points at this journey's server.
    demo = await startDemo({
      dir,
      skipBuild: true,
      settings: { 'chat.disableAIFeatures': false, 'workbench.secondarySideBar.defaultVisibility': 'visibleInWorkspace' },
    });
    const context = await e2e().browser.newContext({ viewport: { width: 1366, height: 800 }, locale: 'en-US' });
    try {
      const page = await context.newPage();
      const wb = new Workbench(page, demo.code.url);
      await wb.open();
      await chatInput(page).waitFor({ timeout: 60_000 });

      // With the key: the service answers @aichat, with the user's AI Chat model.
      await setKey(wb);
      // The Chat view's own model picker (under its message box) now offers the AI Chat models.
      const inputPart = page.locator('.part.auxiliarybar .interactive-input-part').first();
      await waitFor(async () => /Swift Chat|Deep Think|Code Pro/.test(await inputPart.innerText().catch(() => '')), "the Chat view's model picker shows no AI Chat model", 30_000);
      const before = demo.server.control.requests().filter((r) => r.method === 'POST' && r.path === '/chat').length;
      await askInChatView(page, '@aichat hello from the Chat view e2e-chatview-one');
      let shown = '';
      const reply = await waitFor(async () => {
        shown = await lastResponse(page);
        return /e2e-chatview-one/.test(shown) && !/Language model unavailable/.test(shown) ? shown : undefined;
      }, () => `@aichat did not answer in the Chat view: ${shown}`, 60_000);
      assert.doesNotMatch(reply, /Language model unavailable/);
      const chats = demo.server.control.requests().filter((r) => r.method === 'POST' && r.path === '/chat');
      assert.equal(chats.length, before + 1, 'the service received the @aichat request');
      const body = chats.at(-1)?.body as { model?: string; messages?: Array<{ role: string; content: string }> };
      assert.equal(body.model, 'swift-chat', "the user's AI Chat model answers, whatever the Chat view's picker shows");
      assert.match(body.messages?.at(-1)?.content ?? '', /hello from the Chat view e2e-chatview-one/);

      // The key pasted into a prompt: refused in the Chat view, nothing sent to the service.
      await askInChatView(page, `@aichat is this the right key? ${DEMO_KEY}`);
      await waitFor(async () => {
        shown = await lastResponse(page);
        return /holds your AI Chat API key.*nothing was sent/.test(shown);
      }, () => `@aichat did not refuse a prompt that holds the key: ${shown}`, 60_000);
      const chatCount = () => demo!.server.control.requests().filter((r) => r.method === 'POST' && r.path === '/chat').length;
      assert.equal(chatCount(), before + 1, 'a prompt that holds the key reaches no service');
      // The next request carries the Chat view's history without the refused request.
      await askInChatView(page, '@aichat and now e2e-chatview-two');
      await waitFor(async () => {
        shown = await lastResponse(page);
        return /e2e-chatview-two/.test(shown);
      }, () => `@aichat did not answer after the refusal: ${shown}`, 60_000);
      const next = demo.server.control.requests().filter((r) => r.method === 'POST' && r.path === '/chat');
      assert.equal(next.length, before + 2);
      const sentText = JSON.stringify(next.at(-1)?.body);
      assert.match(sentText, /e2e-chatview-one/, 'the earlier turn is sent');
      assert.ok(!sentText.includes(DEMO_KEY), 'the refused request is not in the history sent');
    } finally {
      await context.close();
    }
  });
});
