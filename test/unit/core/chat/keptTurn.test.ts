// core/chat/keptTurn.ts: a turn asked elsewhere kept as a conversation of its own, listed in History.
import { strict as assert } from 'node:assert';
import { ConversationStore, keepTurn } from '../../../../src/core';
import { MemoryConversationStorage } from '../../../support/memoryStorage';

describe('keepTurn (core/chat/keptTurn.ts)', () => {
  it('saves the question and its answer (with its facts) as a new conversation that History lists', async () => {
    const store = new ConversationStore(new MemoryConversationStorage(), { searchPersistDelayMs: 0 });
    const id = await keepTurn(store, 'What is X?', 'X is Y.', { model: 'swift-chat' });
    const conv = await store.load(id);
    assert.deepEqual(conv?.messages.map((m) => [m.role, m.content, m.meta?.model]), [['user', 'What is X?', undefined], ['assistant', 'X is Y.', 'swift-chat']]);
    assert.deepEqual((await store.list()).map((e) => e.id), [id]);
    assert.notEqual(await keepTurn(store, 'again', 'yes'), id, 'each kept turn is a conversation of its own');
  });
});
