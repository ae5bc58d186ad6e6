// The conversation log (core/storage) keeps what the rules need: a question's files (its
// attachments' paths, sent again with Retry) and the list of rules kept in a reply's facts, through
// a save and a load, a compaction, and the older whole-conversation form.
import { strict as assert } from 'node:assert';
import { appendMessage, encodeLog, parseConversation, replayLog, type SentRule } from '../../../../src/core';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { WindowStore } from '../../../support/windowStore';

const RULES: SentRule[] = [
  { path: 'AGENTS.md', why: 'always (the project instructions)' },
  { path: '.cursor/rules/py.mdc', why: 'matched `src/a.py` by `**/*.py`' },
];

describe('conversation log: files of a question and rules of a reply', () => {
  let n = 0;
  const newStore = (storage: MemoryConversationStorage) => new WindowStore(storage, { newId: () => `conv-r${++n}` });

  it('save then load: the question keeps its files, the reply its rules; a question without files has none', async () => {
    const storage = new MemoryConversationStorage();
    const s = newStore(storage);
    appendMessage(s.current, 'user', 'about a.py', new Date(), { files: ['src/a.py', 'lib/b.ts', 'src/a.py'] });
    appendMessage(s.current, 'assistant', 'answer', new Date(), { meta: { model: 'swift-chat', credits: 1, rules: RULES } });
    appendMessage(s.current, 'user', 'plain', new Date(), { files: [] });
    appendMessage(s.current, 'assistant', 'answer 2', new Date(), { meta: { model: 'swift-chat' } });
    await s.save();
    const loaded = await newStore(storage).load(s.current.id);
    assert.ok(loaded);
    const [q1, a1, q2, a2] = loaded.messages;
    assert.deepEqual(q1.files, ['src/a.py', 'lib/b.ts'], 'each file once, in order');
    assert.deepEqual(a1.meta?.rules, RULES);
    assert.equal('files' in q2, false);
    assert.equal(a2.meta && 'rules' in a2.meta, false);
    // What was read is what was written.
    assert.deepEqual(loaded.messages, s.current.messages);
  });

  it('a compaction (the log rewritten after an edit) keeps them', async () => {
    const storage = new MemoryConversationStorage();
    const s = newStore(storage);
    appendMessage(s.current, 'user', 'first', new Date(), { files: ['src/a.py'] });
    appendMessage(s.current, 'assistant', 'one', new Date(), { meta: { model: 'swift-chat', rules: RULES } });
    appendMessage(s.current, 'user', 'edited away', new Date(), { files: ['x.py'] });
    await s.save();
    s.current.messages.splice(2);
    await s.save();
    const id = s.current.id;
    assert.match(storage.data.get(id) ?? '', /"t":"x"/, 'a drop record: the log is untidy');
    const opened = await newStore(storage).open(id);
    assert.ok(opened);
    assert.doesNotMatch(storage.data.get(id) ?? '', /"t":"x"/, 'rewritten');
    const again = replayLog(storage.data.get(id) ?? '');
    assert.deepEqual(again?.conv.messages.map((m) => [m.content, m.files, m.meta?.rules]), [
      ['first', ['src/a.py'], undefined],
      ['one', undefined, RULES],
    ]);
    assert.deepEqual(replayLog(encodeLog(opened, again?.keys ?? []))?.conv.messages[0].files, ['src/a.py']);
  });

  it('the whole-conversation form (parseConversation) keeps them too', () => {
    const storage = new MemoryConversationStorage();
    const conv = newStore(storage).current;
    appendMessage(conv, 'user', 'q', new Date(), { files: ['src/a.py'] });
    appendMessage(conv, 'assistant', 'a', new Date(), { meta: { model: 'm', rules: RULES } });
    const parsed = parseConversation(JSON.parse(JSON.stringify(conv)));
    assert.deepEqual(parsed?.messages[0].files, ['src/a.py']);
    assert.deepEqual(parsed?.messages[1].meta?.rules, RULES);
  });
});
