// Every message of the chat's webview reaches the controller (ChatController.receive): it handles
// the conversation's (send, Stop, Edit, New Chat, open, fewer earlier turns, the queue, the draft)
// and hands what only VS Code can do to the host. What a surface needs when it starts is built in
// one place, initialMessages(), the call the render tests use too; every message posted is built
// by the presenter and valid on the wire.
import { strict as assert } from 'node:assert';
import { textAttachment, type Attachment, type ChatBackend } from '../../../../src/core';
import { ContextMeterFeed } from '../../../../src/extension/chat/common/contextMeter';
import type { ChatHost, HostAction } from '../../../../src/extension/chat/common/controller';
import { parseHostMessage, type ContextChip, type HostMessage } from '../../../../src/protocol';
import { scriptedBackend } from '../../../support/backend';
import { makeController } from '../../../support/session';

const KEY = 'sk-test-key-0123456789'; // the key of test/support/session.ts's pipeline
const chip: ContextChip = { id: 'ctx_1', name: 'a.ts', detail: 'lines 1-2', icon: 'file', path: 'src/a.ts' };
const reply = () => scriptedBackend([{ event: 'f', messageId: 'm' }, { event: '0', data: 'Answer' }, { event: 'd', finishReason: 'stop' }]);

function fakeHost(opts: { earlier?: HostMessage[]; draft?: string; shown?: () => boolean; onRestore?: () => void } = {}) {
  const acts: HostAction[] = [];
  const warnings: string[] = [];
  const kept: { draft: string | undefined } = { draft: opts.draft };
  let accountReads = 0;
  const host: ChatHost = {
    act: async (a) => void acts.push(a),
    surfaceReady: () => ({ earlier: opts.earlier ?? [], stillShown: opts.shown ?? (() => true) }),
    restoreCurrent: async () => opts.onRestore?.(),
    draft: { load: () => kept.draft, save: async (t) => void (kept.draft = t) },
    accountRead: async () => void accountReads++,
    warn: (m) => void warnings.push(m),
  };
  return { host, acts, warnings, kept, accountReads: () => accountReads };
}

function chat(host: ChatHost, attached: Attachment[] = [], backend: ChatBackend = reply()) {
  const posted: HostMessage[] = [];
  let items = attached;
  const attachments = {
    get attachments() {
      return items;
    },
    sent: (sent: readonly Attachment[]) => void (items = items.filter((a) => !sent.includes(a))),
    chips: () => (items.length ? [chip] : []),
  };
  let meter: ContextMeterFeed | undefined;
  const t = makeController({
    backend,
    controller: {
      host,
      attachments,
      prompts: () => ({ prompts: [{ name: 'review', description: 'Review the change', source: 'built-in' }], notice: 'Trust the workspace to use its prompt files.' }),
      meter: { setDraft: (text: string, post?: boolean) => meter?.setDraft(text, post), update: (force?: boolean) => meter?.update(force) } as unknown as ContextMeterFeed,
      post: (m) => {
        const parsed = parseHostMessage(JSON.parse(JSON.stringify(m)));
        assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
        posted.push(m);
      },
    },
  });
  meter = new ContextMeterFeed({ session: t.session, attachments: () => items, source: () => 'model', post: (m) => posted.push(m) });
  return { ...t, posted, attachments, meter: () => meter };
}

describe('the chat controller takes every message of the webview', () => {
  it('a surface that starts: the settings at once, then (the last conversation back) what initialMessages() gives, what was posted before it was ready, the meter', async () => {
    let postedBeforeRestore = -1;
    const earlier: HostMessage[] = [{ type: 'streamChunk', messageId: 'm', offset: 0, text: 'x', version: 1 }, { type: 'restoreInput', text: 'typed before' }];
    const h = fakeHost({ earlier, draft: 'half a question', onRestore: () => (postedBeforeRestore = t.posted.length) });
    const t = chat(h.host, [textAttachment('ctx_1', 'selection', 'src/a.ts', 'typescript', 'x', 1, { start: 1, end: 2 })]);
    await t.controller.receive({ type: 'ready' });
    const initial = t.controller.initialMessages();
    assert.equal(postedBeforeRestore, 1, 'only the settings before the last conversation is back');
    assert.deepEqual(initial.map((m) => m.type), ['settings', 'conversation', 'queue', 'contextChips', 'promptList', 'restoreInput']);
    assert.deepEqual(t.posted.slice(0, initial.length), initial, 'the same messages as initialMessages(), in its order');
    assert.deepEqual(t.posted.slice(initial.length, initial.length + 2), [{ type: 'restoreInput', text: 'typed before' }, t.meter().message()], 'of what was posted before, what the conversation does not hold; then the meter');
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(h.accountReads(), 1);
    assert.equal(t.posted.at(-1)?.type, 'settings', 'the settings again once the key is read');
  });

  it('Edit of a question whose reply\'s changes were applied asks the host first: cancelled, nothing is taken out; the same for Retry', async () => {
    const asked: string[] = [];
    let answer = false;
    const t = makeController({ backend: reply(), controller: { host: fakeHost().host, post: () => undefined, replyLeaving: async (id) => (asked.push(id), answer) } });
    await t.controller.receive({ type: 'send', text: 'change three files' });
    const [question, answerMsg] = t.session.conversation.messages;
    await t.controller.receive({ type: 'editLast', messageId: question.id });
    assert.deepEqual(asked, [answerMsg.id], 'the reply after the question clicked');
    assert.equal(t.session.conversation.messages.length, 2, 'cancelled: nothing taken out');
    answer = true;
    await t.controller.receive({ type: 'editLast', messageId: question.id });
    assert.equal(t.session.conversation.messages.length, 0);
    await t.controller.receive({ type: 'send', text: 'again' });
    answer = false;
    await t.controller.receive({ type: 'retry' });
    assert.deepEqual(asked.slice(2), [t.session.conversation.messages[1].id], 'Retry asks about the last reply');
    assert.equal(t.session.conversation.messages.length, 2);
  });

  it('a surface that started but no longer holds the chat gets only the settings', async () => {
    const h = fakeHost({ shown: () => false });
    const t = chat(h.host);
    await t.controller.receive({ type: 'ready' });
    assert.deepEqual(t.posted.map((m) => m.type), ['settings']);
  });

  it('the conversation\'s messages are the controller\'s (send, Edit, Stop, New Chat, open, fewer earlier turns); what VS Code does goes to the host', async () => {
    const h = fakeHost();
    const t = chat(h.host);
    await t.controller.receive({ type: 'send', text: 'first question' });
    assert.deepEqual(t.session.conversation.messages.map((m) => m.content), ['first question', 'Answer']);
    const first = t.session.conversation.id;
    await t.controller.receive({ type: 'editLast' });
    assert.equal(t.session.conversation.messages.length, 0);
    assert.ok(t.posted.some((m) => m.type === 'restoreInput' && m.text === 'first question'));
    await t.controller.receive({ type: 'sendFewer', text: 'again' });
    assert.equal(t.session.conversation.messages[0]?.content, 'again');
    await t.controller.receive({ type: 'newChat' });
    assert.notEqual(t.session.conversation.id, first);
    await t.controller.receive({ type: 'loadConversation', id: first });
    assert.equal(t.session.conversation.id, first);
    await t.controller.receive({ type: 'loadConversation', id: '../elsewhere' });
    await t.controller.receive({ type: 'loadConversation', id: 'no-such-conversation' });
    assert.deepEqual(h.warnings, ['That conversation could not be opened.', 'That conversation could not be opened.']);

    // Stop: the reply being written stops (its text so far is kept).
    const untilStopped: ChatBackend = {
      chat: () => Promise.reject(new Error('not used')),
      chatStream: async (_req, { signal }) => ({
        abort() {},
        async *[Symbol.asyncIterator]() {
          yield { event: 'f', messageId: 'm' } as const;
          yield { event: '0', data: 'Part' } as const;
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        },
      }),
    };
    const held = chat(fakeHost().host, [], untilStopped);
    const running = held.controller.receive({ type: 'send', text: 'a long answer, please' });
    for (let i = 0; i < 20 && !held.session.busy; i++) await new Promise((r) => setTimeout(r, 1));
    assert.equal(held.session.busy, true);
    await held.controller.receive({ type: 'stop' });
    await running;
    assert.equal(held.session.busy, false);
    assert.equal(held.session.conversation.messages.at(-1)?.status, 'stopped');

    const before = t.posted.length;
    await t.controller.receive({ type: 'openLink', href: 'https://example.com/' });
    await t.controller.receive({ type: 'selectModel', valueId: 'swift-chat' });
    assert.deepEqual(h.acts.map((a) => a.type), ['openLink', 'selectModel']);
    assert.deepEqual(t.posted.slice(before).map((m) => m.type), ['settings'], 'a model picked: the settings say which one is selected');
  });

  it('a draft that holds the key is not kept by the host, and the webview is told; one without it is kept', async () => {
    const h = fakeHost();
    const t = chat(h.host);
    await t.controller.receive({ type: 'draft', text: 'a question in the making' });
    assert.equal(h.kept.draft, 'a question in the making');
    assert.deepEqual(t.posted.at(-1), { type: 'draftHoldsKey', holds: false });
    await t.controller.receive({ type: 'draft', text: `my key is ${KEY}` });
    assert.equal(h.kept.draft, undefined);
    assert.deepEqual(t.posted.at(-1), { type: 'draftHoldsKey', holds: true });
  });

  it('a message with chips refused: the box gets back what was typed, not the attached file', async () => {
    const h = fakeHost();
    const t = chat(h.host, [textAttachment('ctx_1', 'selection', '.env', 'dotenv', `AI_CHAT_KEY=${KEY}`, 100, { start: 1, end: 1 })]);
    await t.controller.receive({ type: 'send', text: 'what is in this file?' });
    assert.deepEqual(t.posted.filter((m) => m.type === 'restoreInput'), [{ type: 'restoreInput', text: 'what is in this file?' }]);
    assert.equal(t.attachments.attachments.length, 1, 'the chips stay');
    assert.equal(t.session.conversation.messages.length, 0);
  });
});
