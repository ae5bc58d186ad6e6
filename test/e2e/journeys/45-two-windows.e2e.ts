// Journey 45: two windows on one conversation. Window B (a second tab on the same workbench, so
// the same conversations folder) shows a conversation; window A adds a turn to it; B's next
// message goes to the service with A's turn in its history, and B shows A's turn.
import assert from 'node:assert/strict';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer, setKey, waitForChatRequests } from '../steps';
import { waitFor, Workbench, type Chat } from '../workbench';

/** Opens a conversation from History (the quick pick) by a word of its title. */
async function openFromHistory(chat: Chat, text: string): Promise<void> {
  const wb = chat.wb;
  await chat.button('History').click();
  await waitFor(
    async () => {
      const row = wb.quickPickRows().filter({ hasText: text }).first();
      if (!(await row.isVisible().catch(() => false))) return false;
      await row.click();
      return true;
    },
    `History did not offer the conversation "${text}"`,
    20_000,
  );
  await wb.quickInput().waitFor({ state: 'hidden', timeout: 10_000 });
}

async function waitForShown(chat: Chat, text: string, what: string): Promise<string[]> {
  let seen: string[] = [];
  return waitFor(
    async () => {
      seen = await chat.transcript();
      return seen.some((x) => x.includes(text)) ? seen : undefined;
    },
    () => `${what}; the chat shows: ${JSON.stringify(seen.map((t) => t.slice(0, 70)))}`,
  );
}

describe('Journey 45: Two windows on one conversation', () => {
  it("window B's request carries window A's turn, and B shows it", async () => {
    resetServer();
    const wbA = await readyWithKey();
    const chatA = await wbA.chat();
    await chatA.newChat();
    await chatA.ask('Two windows e2e-windows-zero: what is a pallet?');

    // Window B: another tab on the same workbench.
    const pageB = await e2e().page.context().newPage();
    const wbB = new Workbench(pageB, e2e().demo.code.url);
    try {
      await wbB.open();
      await setKey(wbB);
      await wbB.waitForCredits();
      const chatB = await wbB.chat();
      await openFromHistory(chatB, 'e2e-windows-zero');
      await waitForShown(chatB, 'e2e-windows-zero', 'window B did not open the conversation');

      // Window A adds a turn while B shows the conversation.
      await chatA.ask('Window A asks e2e-windows-alpha: and a bin?');

      const before = chatRequests().length;
      const replies = await chatB.articles('Assistant').count();
      await chatB.send('Window B asks e2e-windows-beta: and a shelf?');
      const requests = await waitForChatRequests(before + 1);
      const sent = (requests.at(-1)?.messages ?? []).map((m) => `${m.role}: ${m.content}`);
      const alpha = sent.findIndex((m) => m.startsWith('user:') && m.includes('e2e-windows-alpha'));
      assert.ok(alpha >= 0, `window B's request lacks window A's turn: ${JSON.stringify(sent.map((m) => m.slice(0, 60)))}`);
      assert.ok(sent[alpha + 1]?.startsWith('assistant:'), "window A's reply goes with its question");
      assert.ok(sent.at(-1)?.includes('e2e-windows-beta'), "B's own message comes last");
      await chatB.waitForNewReply(replies);
      // B shows what is on disk: A's turn, then its own.
      const shown = await waitForShown(chatB, 'e2e-windows-alpha', "window B does not show window A's turn");
      const a = shown.findIndex((x) => x.includes('e2e-windows-alpha'));
      const b = shown.findIndex((x) => x.includes('e2e-windows-beta'));
      assert.ok(a >= 0 && b > a, `A's turn before B's: ${JSON.stringify(shown.map((t) => t.slice(0, 50)))}`);
    } finally {
      await pageB.close().catch(() => undefined);
    }
  });
});
