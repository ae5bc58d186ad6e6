// "Sent with this message" (src/core/context/sentWith.ts): the record stored with a question is
// exactly what its request carried beside the text. The chips go through sendWithAttachments and
// the controller, the real client sends to the reference server, and the body the server received
// is compared with the record; the record survives a reload; a stored question without one (an
// older file) opens as it was.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatServiceClient } from '../../../../src/client';
import {
  ChatSession, ConversationStore, directTurns, fileAttachment, readFileAttachment, readRules, requestRules, systemPromptWith, textAttachment,
  type Attachment, type SentItem,
} from '../../../../src/core';
import { ChatController } from '../../../../src/extension/chat/common/controller';
import { messageView } from '../../../../src/extension/chat/common/presenter';
import { sendWithAttachments } from '../../../../src/extension/chat/common/sendWithAttachments';
import { parseHostMessage } from '../../../../src/protocol';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { makeTurns } from '../../../support/turns';
import { DEMO_KEY } from '../../../server/fixtures';
import { startReferenceServer, type ReferenceServer } from '../../../server/server';

const utf8 = (s: string) => new TextEncoder().encode(s).length;
const RULES = readRules([
  { path: '.cursor/rules/py.mdc', content: '---\nglobs: **/*.py\n---\nPython: use type hints.' },
  { path: '.cursor/rules/go.mdc', content: '---\nglobs: **/*.go\n---\nGo: wrap errors.' },
]);
const INSTRUCTIONS = systemPromptWith('Be brief.', { state: 'active', name: 'AGENTS.md', text: 'Answer in English.\nName files by their path.', bytes: 46, cut: false });

describe('"Sent with this message" and the request the service received', () => {
  let srv: ReferenceServer;
  let client: ChatServiceClient;
  before(async () => {
    srv = await startReferenceServer({ port: 0, quiet: true, chunkDelayMs: 0 });
    client = new ChatServiceClient({ baseUrl: srv.url, apiKey: () => DEMO_KEY, maxRetries: 0 });
  });
  after(async () => {
    await client.close();
    await srv.close();
  });
  beforeEach(() => srv.control.reset());

  function setup(storage = new MemoryConversationStorage(), attachments?: { readonly attachments: readonly Attachment[]; sent(a: readonly Attachment[]): void; pinned?(): Promise<readonly Attachment[]> }) {
    const settings = { model: 'swift-chat', search: false, temperature: 1, fontSize: 0, baseUrl: srv.url };
    const store = new ConversationStore(storage);
    let controller: ChatController | undefined;
    const session = new ChatSession({
      store,
      turns: directTurns(() => client),
      settings: () => ({ ...settings, stream: true, systemPrompt: INSTRUCTIONS }),
      rules: (files) => requestRules(RULES, { files }),
      modelCost: () => 1,
      onEvent: (e) => controller?.onSessionEvent(e),
      flushIntervalMs: 0,
    });
    controller = new ChatController({
      session,
      settings: () => settings,
      models: () => ({ models: undefined, loading: false, error: undefined, costOf: () => 1 }),
      hasKey: () => true,
      turns: makeTurns({ key: () => DEMO_KEY, model: () => settings.model }).turns,
      pickModel: async () => false,
      notifyBusy: () => undefined,
      post: () => undefined,
      ...(attachments ? { attachments: { ...attachments, get attachments() { return attachments.attachments; }, chips: () => [] } } : {}),
    });
    return { session, store, storage, controller };
  }

  function chipsOf(items: Attachment[], pinned?: () => Promise<readonly Attachment[]>) {
    let chips = items;
    return {
      get attachments() {
        return chips;
      },
      set attachments(next: Attachment[]) {
        chips = next;
      },
      sent: (sent: readonly Attachment[]) => (chips = chips.filter((c) => !sent.includes(c))),
      ...(pinned ? { pinned } : {}),
    };
  }

  /** A pinned file as PinnedContext reads it: from disk at each send (`reads` counts them). */
  function pinnedFile(path: string) {
    const pin = {
      reads: 0,
      read: async (): Promise<Attachment[]> => {
        const r = await readFileAttachment(`ctx_pin${++pin.reads}`, 'notes.md', path, 100);
        return r.ok ? [r.attachment] : [];
      },
    };
    return pin;
  }

  /** The body of the last /chat request the server received. */
  function lastBody(): { messages: Array<{ role: string; content: string }> } {
    const chats = srv.control.requests().filter((r) => r.path === '/chat');
    return chats.at(-1)?.body as { messages: Array<{ role: string; content: string }> };
  }

  it('the record under the message names exactly what the body carried beside the text, with its size', async () => {
    const { session, controller } = setup();
    const file = fileAttachment('f1', 'src/model.py', new TextEncoder().encode('class Model:\n    pass\n'), 100);
    assert.ok(file.ok);
    const chips = chipsOf([
      file.attachment,
      // Inside the file attached: goes with the file, so not in the record either.
      textAttachment('s1', 'selection', 'src/model.py', 'python', 'class Model:', 100, { start: 1, end: 1 }),
      textAttachment('s2', 'selection', 'cmd/main.go', 'go', 'func main() {}\n', 100, { start: 12, end: 40 }),
      textAttachment('s3', 'selection', 'cmd/main.go', 'go', 'func main() {}\n', 100, { start: 12, end: 40 }),
      textAttachment('t1', 'terminal', 'bash', '', '$ go test\nok', 100),
    ]);
    assert.equal(await sendWithAttachments('Why does this fail?', chips, controller, session), 'sent');
    const user = session.conversation.messages.find((m) => m.role === 'user');
    const record = user?.sent ?? [];
    const body = lastBody();
    const sentUser = body.messages.at(-1)?.content ?? '';
    const system = body.messages[0].role === 'system' ? body.messages[0].content : '';
    // The attachments: the user message is the text, then one block per item, in the record's order.
    const attached = record.filter((i) => i.kind !== 'instructions' && i.kind !== 'rule');
    assert.deepEqual(attached.map((i) => [i.kind, i.name]), [['file', 'model.py'], ['range', 'cmd/main.go:12-40'], ['terminal', 'bash']]);
    assert.equal(utf8(sentUser), utf8('Why does this fail?') + attached.reduce((n, i) => n + 2 + i.bytes, 0), 'the body holds the text and exactly these blocks');
    let at = 'Why does this fail?'.length;
    for (const i of attached) {
      const head = i.kind === 'file' ? `\`${i.path}\`:` : i.kind === 'range' ? `\`${i.path}\`, lines ${i.startLine}-${i.endLine}:` : 'Terminal selection:';
      assert.equal(sentUser.indexOf(`\n\n${head}`, at), at, `${i.name} next, as its block`);
      at += 2 + new TextDecoder().decode(new TextEncoder().encode(sentUser.slice(at + 2)).slice(0, i.bytes)).length;
    }
    assert.equal(at, sentUser.length);
    // The instructions and the rules: those of the system message, each with its size.
    const rest = record.filter((i) => i.kind === 'instructions' || i.kind === 'rule');
    const ruleHeaders = [...system.matchAll(/Project rules from (\S+) \(applies/g)].map((m) => m[1]);
    assert.deepEqual(ruleHeaders.slice().sort(), ['.cursor/rules/go.mdc', '.cursor/rules/py.mdc'], 'both rules went (a .py and a .go file)');
    assert.deepEqual(rest.map((i) => [i.kind, i.name]), [['instructions', 'AGENTS.md'], ...ruleHeaders.map((p) => ['rule', p])]);
    const project = system.slice(system.indexOf('Project instructions (AGENTS.md)'), system.indexOf('\n\nProject rules from'));
    assert.equal(rest[0].bytes, utf8(project));
    for (const r of rest.slice(1)) assert.ok(r.bytes > 0 && system.includes(`(applies`), `${r.path} with its size`);
    // The panel gets the record with the message.
    const view = messageView(user!);
    assert.ok(parseHostMessage({ type: 'messageChanged', message: view, version: 1 }).ok, 'the panel takes it');
    assert.deepEqual(view.sent, record);
  });

  it('a pinned file goes with every message, read again each time (edited between two sends: its new text), and once when also added as a chip', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aichat-pin-'));
    try {
      const path = join(dir, 'notes.md');
      writeFileSync(path, 'first version\n');
      const { session, controller } = setup();
      const pin = pinnedFile(path);
      const chips = chipsOf([], pin.read);
      chips.attachments = [{ ...(await pin.read())[0], id: 'ctx_chip' }];
      assert.equal(await sendWithAttachments('one', chips, controller, session), 'sent');
      const first = lastBody().messages.at(-1)?.content ?? '';
      assert.equal(first.split('first version').length - 1, 1, 'added and pinned: once');
      writeFileSync(path, 'second version, edited\n');
      assert.equal(await sendWithAttachments('two', chips, controller, session), 'sent');
      const second = lastBody().messages.at(-1)?.content ?? '';
      assert.ok(second.startsWith('two\n\n`notes.md`:') && second.includes('second version, edited') && !second.includes('first version'), second);
      const records = session.conversation.messages.filter((m) => m.role === 'user').map((m) => m.sent?.filter((i) => i.kind === 'file'));
      assert.deepEqual(records.map((r) => r?.map((i) => [i.name, i.pinned])), [[['notes.md', true]], [['notes.md', true]]], 'each record marks the pin');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a message queued while a reply streams takes the pinned file as it is when the message goes, once (also added as a chip), after its own chips', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aichat-pin-queued-'));
    try {
      const path = join(dir, 'notes.md');
      const other = join(dir, 'other.md');
      writeFileSync(path, 'version at queue time\n');
      writeFileSync(other, 'a chip of its own\n');
      const pin = pinnedFile(path);
      const chips = chipsOf([], pin.read);
      // The chat's chips are the controller's: it reads the pins again when the queued message goes.
      const { session, controller } = setup(undefined, chips);
      // The first reply is held back: the chat is busy while the next message is typed.
      srv.control.injectFault({ kind: 'delay-headers', ms: 3000, path: '/chat', times: 1 });
      const first = controller.send('first');
      while (!session.busy) await new Promise((r) => setImmediate(r));
      const chip = await readFileAttachment('ctx_other', 'other.md', other, 100);
      assert.ok(chip.ok);
      const pinChip = await readFileAttachment('ctx_chip', 'notes.md', path, 100);
      assert.ok(pinChip.ok);
      chips.attachments = [chip.attachment, pinChip.attachment];
      assert.equal(await sendWithAttachments('queued one', chips, controller, session), 'queued');
      const readAtQueue = pin.reads;
      writeFileSync(path, 'version when it goes\n');
      assert.equal(await first, 'sent');
      while (srv.control.requests().filter((r) => r.path === '/chat').length < 2 || session.busy) await new Promise((r) => setTimeout(r, 5));
      const body = lastBody().messages.at(-1)?.content ?? '';
      assert.ok(body.startsWith('queued one\n\n`other.md`:'), body.slice(0, 200));
      assert.equal(body.split('`notes.md`:').length - 1, 1, `notes.md once: ${body}`);
      assert.ok(body.includes('version when it goes') && !body.includes('version at queue time'), `the pin as it is when the message goes: ${body}`);
      assert.ok(pin.reads > readAtQueue, 'the pins were read again when it went');
      const record = session.conversation.messages.filter((m) => m.role === 'user').at(-1)?.sent?.filter((i) => i.kind === 'file');
      assert.deepEqual(record?.map((i) => i.name), ['other.md', 'notes.md']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a message without attachments records the instructions that went; a reload keeps the record', async () => {
    const storage = new MemoryConversationStorage();
    const { session, store, controller } = setup(storage);
    assert.equal(await controller.send('hello'), 'sent');
    const record = session.conversation.messages[0].sent;
    assert.deepEqual(record?.map((i: SentItem) => i.name), ['AGENTS.md']);
    assert.ok(lastBody().messages[0].content.includes('Project instructions (AGENTS.md)'));
    await store.flush();
    const again = setup(storage);
    assert.equal(await again.session.restore(session.conversation.id), 'restored');
    assert.deepEqual(again.session.conversation.messages[0].sent, record);
  });
});
