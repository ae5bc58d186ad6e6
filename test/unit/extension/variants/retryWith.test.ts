// Retry with… through the chat controller as the panel asks for it: the model picked goes in the
// request's body, the panel is told the reply's place among its variants ("2 / 2"), the pager
// shows the other one, and the quick pick offers the usable models with their price, current first.
import { strict as assert } from 'node:assert';
import { ChatSession, ConversationStore, directTurns, retryModelItems, variantTitle, type ChatBackend, type SessionChatRequest, type StoredMessage } from '../../../../src/core';
import { parseHostMessage, type HostMessage, type MessageView } from '../../../../src/protocol';
import { ChatController } from '../../../../src/extension/chat/common/controller';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { echoBackend } from '../../../support/backend';
import { makeTurns } from '../../../support/turns';

const models = [
  { valueId: 'swift-chat', name: 'Swift Chat', type: 'text', costInCreditPerUse: 1, isActive: true },
  { valueId: 'deep-think', name: 'Deep Think', type: 'text', costInCreditPerUse: 5, isActive: true },
  { valueId: 'retired', name: 'Retired', type: 'text', costInCreditPerUse: 2, isActive: false },
];

function setup(pick: string | undefined) {
  const requests: SessionChatRequest[] = [];
  const backend: ChatBackend = echoBackend(requests, (req) => `${req.model} answers`);
  const posted: HostMessage[] = [];
  const offered: Array<string | undefined> = [];
  const compared: Array<{ all: string[]; shown: string }> = [];
  const settings = { model: 'swift-chat', search: false, temperature: 1, fontSize: 0, baseUrl: 'http://127.0.0.1:8787' };
  const costOf = (id: string) => models.find((m) => m.valueId === id)?.costInCreditPerUse ?? null;
  let controller: ChatController | undefined;
  const session = new ChatSession({
    store: new ConversationStore(new MemoryConversationStorage()),
    turns: directTurns(() => backend),
    settings: () => ({ ...settings, stream: true, systemPrompt: '' }),
    modelCost: costOf,
    onEvent: (e) => controller?.onSessionEvent(e),
    flushIntervalMs: 0,
  });
  controller = new ChatController({
    session,
    settings: () => settings,
    models: () => ({ models, loading: false, error: undefined, costOf }),
    hasKey: () => true,
    turns: makeTurns({ key: () => 'sk-test-key-0123456789', model: () => settings.model, models: () => models, costOf, balance: () => 100 }).turns,
    pickModel: async () => true,
    pickVariantModel: async (replyModel) => {
      offered.push(replyModel);
      return pick;
    },
    compareVariants: async (all: StoredMessage[], shown: StoredMessage) => void compared.push({ all: all.map((v) => v.id), shown: shown.id }),
    notifyBusy: () => undefined,
    post: (m) => {
      const parsed = parseHostMessage(JSON.parse(JSON.stringify(m)));
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
      posted.push(m);
    },
  });
  const shown = (): MessageView[] => {
    const last = [...posted].reverse().find((m): m is Extract<HostMessage, { type: 'conversation' }> => m.type === 'conversation');
    return last?.conversation.messages ?? [];
  };
  return { controller, session, requests, posted, offered, compared, shown };
}

describe('Retry with… from the panel', () => {
  it('sends the model picked (the request body), and the panel shows the new reply as 2 / 2 in place of the old one', async () => {
    const { controller, session, requests, offered, shown } = setup('deep-think');
    await controller.receive({ type: 'send', text: 'Q1' });
    const first = session.conversation.messages[1];
    await controller.receive({ type: 'retryWith', messageId: first.id });
    assert.deepEqual(offered, ['swift-chat'], "the pick is offered with the reply's model as the current one");
    assert.equal(requests.at(-1)?.model, 'deep-think');
    assert.deepEqual(requests.at(-1)?.messages.map((m) => m.content), ['Q1']);
    await controller.receive({ type: 'send', text: 'Q2' });
    assert.deepEqual(requests.at(-1)?.messages.map((m) => m.content), ['Q1', 'deep-think answers', 'Q2'], 'the next request holds the variant shown');
    controller.showConversation();
    const view = shown();
    assert.deepEqual(view[1].variant, { index: 2, count: 2 });
    assert.equal(view[1].meta?.model, 'deep-think');
    assert.equal(view[3].variant, undefined, 'a reply without variants has no pager');
  });

  it('the pager shows the other variant; nothing past the ends; a cancelled pick sends nothing', async () => {
    const { controller, session, requests, shown, posted } = setup('deep-think');
    await controller.receive({ type: 'send', text: 'Q1' });
    await controller.receive({ type: 'retryWith', messageId: session.conversation.messages[1].id });
    const second = session.conversation.messages[1].id;
    await controller.receive({ type: 'showVariant', messageId: second, step: 1 });
    assert.equal(session.conversation.messages[1].id, second, 'nothing after the last');
    await controller.receive({ type: 'showVariant', messageId: second, step: -1 });
    // The panel is told of that reply only.
    const told = posted.at(-1);
    assert.equal(told?.type, 'variantShown');
    assert.ok(told?.type === 'variantShown' && told.from === second && told.message.variant?.index === 1);
    controller.showConversation();
    assert.deepEqual(shown()[1].variant, { index: 1, count: 2 });
    assert.equal(shown()[1].content, 'swift-chat answers');
    const sent = requests.length;
    const cancelled = setup(undefined);
    await cancelled.controller.receive({ type: 'send', text: 'Q1' });
    await cancelled.controller.receive({ type: 'retryWith', messageId: cancelled.session.conversation.messages[1].id });
    assert.equal(cancelled.requests.length, 1);
    assert.equal(requests.length, sent);
  });

  it('offers the usable models with their price, the current one first', () => {
    const items = retryModelItems(models, 'deep-think');
    assert.deepEqual(items.map((i) => i.valueId), ['deep-think', 'swift-chat']);
    assert.ok(items[0].current);
    assert.match(items[0].description, /5/);
    assert.match(items[1].description, /1/);
    assert.deepEqual(retryModelItems(undefined, 'swift-chat'), []);
  });

  it('Compare gives the reply shown and all its variants; a reply without variants compares nothing', async () => {
    const { controller, session, compared } = setup('deep-think');
    await controller.receive({ type: 'send', text: 'Q1' });
    const first = session.conversation.messages[1];
    await controller.receive({ type: 'compareVariants', messageId: first.id });
    assert.deepEqual(compared, []);
    await controller.receive({ type: 'retryWith', messageId: first.id });
    const second = session.conversation.messages[1];
    await controller.receive({ type: 'compareVariants', messageId: second.id });
    assert.deepEqual(compared, [{ all: [first.id, second.id], shown: second.id }]);
    const title = variantTitle(session.variants.of(second.id), second);
    assert.match(title, /^2 \/ 2 · deep-think · 5 credits · /);
  });
});
