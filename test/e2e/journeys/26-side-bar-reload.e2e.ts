// Journey 26: the chat in a side bar view survives a window reload: the view shows the
// conversation the extension goes on with, and the next message continues the conversation on
// screen (the request the service receives holds it as history). The same with a 300-turn
// conversation (its time to show is printed), in the secondary side bar, and after moving the
// chat between the side bar and the editor.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { appendMessage } from '../../../src/core';
import { FileConversationStorage } from '../../../src/extension/platform/conversationFiles';
import { EXTENSION_ID } from '../launcher';
import { e2e } from '../setup';
import { feedStalled, makeStalled } from '../stalledFile';
import { chatRequests, readyWithKey, resetServer, userSetting, waitForChatRequests } from '../steps';
import { Chat, waitFor, type Workbench } from '../workbench';
import { WindowStore } from '../../support/windowStore';

const LONG_TURNS = 300;

/** The AI Chat view of the (primary) side bar on screen, opened from the activity bar when it is not. */
async function sideBarChat(wb: Workbench): Promise<Chat> {
  const title = wb.page.locator('.part.sidebar .composite.title', { hasText: 'AI Chat' }).first();
  // A command that moved the chat may still be opening the side bar: a click now would close it.
  await title.waitFor({ timeout: 5_000 }).catch(() => undefined);
  for (let attempt = 0; attempt < 3 && !(await title.isVisible().catch(() => false)); attempt++) {
    await wb.page.locator('.part.activitybar .action-item [aria-label^="AI Chat"], .part.activitybar .action-label[aria-label^="AI Chat"]').first().click();
    await title.waitFor({ timeout: 5_000 }).catch(() => undefined);
  }
  await title.waitFor({ timeout: 10_000 });
  return new Chat(wb, await wb.chatFrame());
}

/** The chat in the secondary side bar: the frame that lies over it (webviews float above the workbench). */
async function secondaryChat(wb: Workbench): Promise<Chat> {
  const aux = wb.page.locator('.part.auxiliarybar');
  await aux.locator('.composite.title', { hasText: /AI Chat|Chat/ }).first().waitFor({ timeout: 30_000 });
  return waitFor(
    async () => {
      const frame = await wb.chatFrame();
      const [f, a] = await Promise.all([(await frame.frameElement()).boundingBox(), aux.boundingBox()]);
      return f && a && f.x >= a.x - 2 && f.x + f.width <= a.x + a.width + 2 ? new Chat(wb, frame) : undefined;
    },
    'the chat is not shown over the secondary side bar',
  );
}

/** The chat back in the primary side bar's view, out of the editor (what a new user has). */
async function chatToPrimarySideBar(wb: Workbench): Promise<void> {
  await wb.closeQuickInput().catch(() => undefined);
  // The palette lists Move Chat to Primary Side Bar only while the setting says the secondary one.
  if (userSetting('aiChat.chatLocation') === 'secondarySideBar') await wb.runCommand('AI Chat: Move Chat to Primary Side Bar');
  await wb.runCommand('AI Chat: Move Chat to Side Bar').catch(() => wb.closeQuickInput());
}

/** A new conversation with the command (a view has New Chat in its title bar, not in the chat). */
async function newChat(wb: Workbench, chat: Chat): Promise<void> {
  await wb.runCommand('AI Chat: New Chat');
  await waitFor(async () => (await chat.articles().count()) === 0, 'New Chat did not clear the chat', 15_000);
}

/** Waits until the chat shows every text of `expected`, in order; says what it shows otherwise. */
async function waitForTranscript(chat: Chat, expected: string[], what: string, timeoutMs = 30_000): Promise<string[]> {
  let seen: string[] = [];
  let view = chat;
  return waitFor(
    async () => {
      // A restored webview may be loaded again while it is read: follow the chat to its new frame.
      if (view.frame.isDetached()) view = await chat.wb.settledChat();
      seen = await view.transcript();
      const joined = seen.join('\n');
      let at = 0;
      for (const text of expected) {
        const i = joined.indexOf(text, at);
        if (i < 0) return undefined;
        at = i + text.length;
      }
      return seen;
    },
    () => `${what}; the chat shows ${seen.length} message(s): ${JSON.stringify(seen.map((t) => t.slice(0, 70)).slice(-6))}`,
    timeoutMs,
  );
}

/** A reload a user would do: Developer: Reload Window (see Workbench.reloadWindow). */
async function reloadWindow(): Promise<Workbench> {
  const wb = e2e().wb;
  await wb.reloadWindow();
  return wb;
}

/**
 * Sends `text` followed by `tag` (the reply echoes it), and checks that the request the service
 * received holds `history` before it: the chat continued the conversation on screen.
 */
async function askContinuing(chat: Chat, text: string, tag: string, history: string[]): Promise<void> {
  const before = chatRequests().length;
  assert.match(await chat.ask(`${text} ${tag}`), new RegExp(tag));
  await waitForChatRequests(before + 1);
  assertContinues(history, tag);
}

/** The request the service received last holds `texts` as history (in order) before `last`. */
function assertContinues(texts: string[], last: string): void {
  const req = chatRequests().at(-1);
  const contents = (req?.messages ?? []).map((m) => m.content);
  assert.ok(contents.at(-1)?.includes(last), `the request ends with the new message: ${JSON.stringify(contents.slice(-2))}`);
  let at = 0;
  for (const text of texts) {
    const i = contents.findIndex((c, j) => j >= at && c.includes(text));
    assert.ok(i >= 0 && i < contents.length - 1, `the request holds "${text}" as history (got ${contents.length} messages: ${JSON.stringify(contents.map((c) => c.slice(0, 50)).slice(-6))})`);
    at = i + 1;
  }
}

function conversationsDir(): string {
  return path.join(e2e().demo.profile.userDataDir, 'User', 'globalStorage', EXTENSION_ID, 'conversations');
}

/** This window's storage folder of the extension (where it records the current conversation). */
function windowStorage(): string {
  const root = path.join(e2e().demo.profile.userDataDir, 'User', 'workspaceStorage');
  const found = readdirSync(root)
    .map((d) => path.join(root, d, EXTENSION_ID))
    .filter((d) => existsSync(path.join(d, 'current-conversation')));
  assert.equal(found.length, 1, `one window storage with a current conversation (found ${found.length})`);
  return found[0];
}

/**
 * A conversation of `turns` turns on disk, recorded as this window's current one (as the extension
 * writes them): questions `<tag>-q<i>`, replies ending `<tag>-a<i>-end`. Its log file.
 */
async function seedCurrent(tag: string, turns = LONG_TURNS): Promise<string> {
  const store = new WindowStore(
    new FileConversationStorage(path.dirname(conversationsDir()), windowStorage()),
  );
  const conv = store.newConversation();
  for (let i = 0; i < turns; i++) {
    appendMessage(conv, 'user', `Seeded question ${i} about **stock levels** ${tag}-q${i}`);
    appendMessage(conv, 'assistant', `Seeded answer ${i}:\n\n- one point\n- another point\n\n\`\`\`ts\nconst n = ${i};\n\`\`\`\n\n${tag}-a${i}-end`);
  }
  await store.save(conv);
  await store.rememberCurrent();
  await store.flush();
  return path.join(conversationsDir(), `${conv.id}.jsonl`);
}

describe('Journey 26: The side bar chat after a window reload', () => {
  beforeEach(async () => {
    await chatToPrimarySideBar(e2e().wb);
  });
  after(async () => {
    await chatToPrimarySideBar(e2e().wb);
  });

  it('shows the conversation in the side bar view after a reload, and the next message continues it', async () => {
    resetServer();
    let wb = await readyWithKey();
    let chat = await sideBarChat(wb);
    await newChat(wb, chat);
    assert.match(await chat.ask('Hello from the side bar before the reload e2e-sbr-one'), /e2e-sbr-one/);

    wb = await reloadWindow();
    chat = await sideBarChat(wb);
    await waitForTranscript(chat, ['e2e-sbr-one', 'e2e-sbr-one'], 'the side bar view does not show the conversation after the reload');

    await askContinuing(chat, 'And after the reload', 'e2e-sbr-two', ['e2e-sbr-one']);
    await waitForTranscript(chat, ['e2e-sbr-one', 'e2e-sbr-two'], 'the view does not show the whole conversation');
  });

  it(`shows the last reply of a ${LONG_TURNS}-turn conversation after a reload, and continues it`, async () => {
    resetServer();
    let wb = await readyWithKey();
    let chat = await sideBarChat(wb);
    // A conversation of this window first (the extension records which one is current).
    await newChat(wb, chat);
    await chat.ask('Before the long one e2e-long-warmup');
    await seedCurrent('e2e-long');

    const t0 = Date.now();
    wb = await reloadWindow();
    const tReloaded = Date.now();
    chat = await sideBarChat(wb);
    const tVisible = Date.now();
    const last = `e2e-long-a${LONG_TURNS - 1}-end`;
    await waitForTranscript(chat, [`e2e-long-q${LONG_TURNS - 1}`, last], `the last reply of the ${LONG_TURNS}-turn conversation is not on screen`, 60_000);
    const tShown = Date.now();
    await waitFor(() => chat.lastReply().isVisible(), 'the last reply is not in view');
    console.log(
      `      ${LONG_TURNS}-turn conversation after a reload: last reply on screen ${tShown - tVisible} ms after the view was visible ` +
        `(${tShown - tReloaded} ms after the workbench loaded, ${tShown - t0} ms after Reload Window)`,
    );

    await askContinuing(chat, 'One more after the long one', 'e2e-long-next', [`e2e-long-q${LONG_TURNS - 1}`, last]);
  });

  it('lists History first after a reload, while the current conversation is still being read: it is marked once it is back, and a pick made before then is what the chat shows', async () => {
    resetServer();
    let wb = await readyWithKey();
    let chat = await sideBarChat(wb);
    await newChat(wb, chat);
    assert.match(await chat.ask('An older conversation e2e-hf-older'), /e2e-hf-older/);
    // The current conversation's file stalls, as on a slow network drive (see stalledFile.ts).
    const log = await seedCurrent('e2e-hf-last', 2);
    const text = readFileSync(log, 'utf8');
    rmSync(log);
    makeStalled(log);
    const feed = (done: () => Promise<boolean>, what: string) => feedStalled([log], text, done, what, 60_000);
    // Nothing shows the chat after the reload: History is the first to need the current conversation.
    await wb.runCommand('View: Close Primary Side Bar');
    await wb.page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: 10_000 });
    const lastRow = () => wb.quickPickRows().filter({ hasText: 'e2e-hf-last-q0' }).first();
    try {
      wb = await reloadWindow();
      await wb.runCommand('AI Chat: Show History');
      await lastRow().waitFor({ timeout: 30_000 });
      assert.equal(await lastRow().locator('.codicon-check').count(), 0, 'listed before the current conversation is back');
      // The file gives its text: the current conversation is back and marked.
      await feed(() => lastRow().locator('.codicon-check').isVisible(), 'the current conversation was not marked once it was read');
      await wb.closeQuickInput();
      assert.equal(await wb.page.locator('.part.sidebar').isVisible(), false, 'History did not open the side bar');

      // Again, and the older conversation picked while the current one is still being read.
      wb = await reloadWindow();
      await wb.runCommand('AI Chat: Show History');
      await wb.quickPickRows().filter({ hasText: 'e2e-hf-older' }).first().click({ timeout: 30_000 });
      await wb.quickInput().waitFor({ state: 'hidden', timeout: 10_000 });
      const older = async () => {
        const frame = await wb.chatFrame(1_000).catch(() => undefined);
        return !!frame && (await new Chat(wb, frame).transcript().catch(() => [])).some((t) => t.includes('e2e-hf-older'));
      };
      await feed(older, 'the side bar did not show the conversation picked in History');
      chat = await sideBarChat(wb);
      const shown = await waitForTranscript(chat, ['e2e-hf-older', 'e2e-hf-older'], 'the side bar does not show the conversation picked in History');
      assert.ok(!shown.some((t) => t.includes('e2e-hf-last')), 'the current conversation, read after the pick, did not replace it');
      // The search index reads it too: given until History says the index is built.
      await wb.runCommand('AI Chat: Show History');
      const title = () => wb.quickInput().locator('.quick-input-title').innerText().catch(() => '');
      await feed(async () => /AI Chat: History/.test(await title()) && !/Indexing|Loading/.test(await title()), 'the search index was not built');
      await wb.closeQuickInput();
    } finally {
      rmSync(log, { force: true });
      writeFileSync(log, text);
    }
    // The chat goes on with the conversation picked.
    await askContinuing(chat, 'Continuing the older one', 'e2e-hf-next', ['e2e-hf-older']);
  });

  it('shows the conversation in the secondary side bar after a reload', async () => {
    resetServer();
    let wb = await readyWithKey();
    await wb.runCommand('AI Chat: Move Chat to Secondary Side Bar');
    let chat = await secondaryChat(wb);
    await newChat(wb, chat);
    assert.match(await chat.ask('In the secondary side bar e2e-sbr-sec-one'), /e2e-sbr-sec-one/);

    wb = await reloadWindow();
    chat = await secondaryChat(wb);
    await waitForTranscript(chat, ['e2e-sbr-sec-one', 'e2e-sbr-sec-one'], 'the secondary side bar does not show the conversation after the reload');
    await askContinuing(chat, 'Secondary, after the reload', 'e2e-sbr-sec-two', ['e2e-sbr-sec-one']);

    await wb.runCommand('AI Chat: Move Chat to Primary Side Bar');
    chat = await sideBarChat(wb);
    await waitForTranscript(chat, ['e2e-sbr-sec-one', 'e2e-sbr-sec-two'], 'the conversation did not come back to the side bar');
  });

  it('keeps the conversation when the chat moves between the side bar and the editor across a reload', async () => {
    resetServer();
    let wb = await readyWithKey();
    let chat = await sideBarChat(wb);
    await newChat(wb, chat);
    assert.match(await chat.ask('Before moving to the editor e2e-sbr-move-one'), /e2e-sbr-move-one/);

    await wb.runCommand('AI Chat: Open Chat in Editor');
    await wb.page.locator('.tab', { hasText: 'AI Chat' }).first().waitFor({ timeout: 30_000 });
    wb = await reloadWindow();
    // The editor tab comes back; the side bar's view says the chat is there.
    await wb.page.locator('.tab', { hasText: 'AI Chat' }).first().waitFor({ timeout: 30_000 });
    chat = await wb.settledChat();
    await waitForTranscript(chat, ['e2e-sbr-move-one', 'e2e-sbr-move-one'], 'the editor tab does not show the conversation after the reload');

    await wb.runCommand('AI Chat: Move Chat to Side Bar');
    await wb.page.locator('.tab', { hasText: 'AI Chat' }).first().waitFor({ state: 'detached', timeout: 30_000 });
    chat = await sideBarChat(wb);
    await waitForTranscript(chat, ['e2e-sbr-move-one', 'e2e-sbr-move-one'], 'the side bar view does not show the conversation moved from the editor');
    await askContinuing(chat, 'Back in the side bar', 'e2e-sbr-move-two', ['e2e-sbr-move-one']);

    // And the other way: from the side bar (after a reload) into the editor.
    wb = await reloadWindow();
    chat = await sideBarChat(wb);
    await waitForTranscript(chat, ['e2e-sbr-move-one', 'e2e-sbr-move-two'], 'the side bar view does not show the conversation after the second reload');
    await wb.runCommand('AI Chat: Open Chat in Editor');
    await wb.page.locator('.tab', { hasText: 'AI Chat' }).first().waitFor({ timeout: 30_000 });
    chat = await wb.openChat();
    await waitForTranscript(chat, ['e2e-sbr-move-one', 'e2e-sbr-move-two'], 'the editor does not show the conversation of the side bar');
    await wb.runCommand('AI Chat: Move Chat to Side Bar');
  });
});
