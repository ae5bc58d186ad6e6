import assert from 'node:assert/strict';
import { questionsOf } from '../../../../src/core';

describe('Go to Question: the user\'s messages', () => {
  it('lists only the user\'s messages, newest first, by their first line with text', () => {
    const at = '2026-01-02T03:04:05.000Z';
    const list = questionsOf([
      { id: 'msg_000', role: 'user', content: '\n  How do I sort?\nwith details', createdAt: at },
      { id: 'msg_001', role: 'assistant', content: 'Like this', createdAt: at },
      { id: 'msg_002', role: 'user', content: 'x'.repeat(300), createdAt: at },
    ]);
    assert.deepEqual(list.map((q) => q.id), ['msg_002', 'msg_000']);
    assert.equal(list[1].firstLine, 'How do I sort?');
    assert.equal(list[0].firstLine.length, 120);
    assert.ok(list[0].firstLine.endsWith('…'));
    assert.equal(list[1].createdAt, at);
  });

  it('a conversation without questions gives an empty list', () => {
    assert.deepEqual(questionsOf([]), []);
  });
});
