// A range of a conversation's turns (core/export/turnRange.ts): which messages a range takes, its
// title, the summary kept only with every message it replaces, and every format taking it.
import { strict as assert } from 'node:assert';
import { conversationToMarkdown, conversationTurns, exportFileText, parseExportText, turnCount, turnQuestions } from '../../../../src/core';
import { conversationToHtml } from '../../../../src/core/export/htmlPage';
import { everyField, longConversation } from './fixtures';

describe('export: a range of turns', () => {
  it('a turn is a question and the replies up to the next question; the questions are listed by their first line', () => {
    const conv = everyField();
    assert.equal(turnCount(conv), 3);
    assert.deepEqual(
      turnQuestions(conv).map((q) => [q.turn, q.text]),
      [
        [0, 'Parse this'],
        [1, 'And again'],
        [2, 'Stop early'],
      ],
    );
  });

  it('takes the messages of the turns from the first to the last question (inclusive), ids and facts unchanged, the title saying which', () => {
    const conv = everyField();
    const part = conversationTurns(conv, { first: 1, last: 1 });
    assert.deepEqual(part.messages, conv.messages.slice(2, 4));
    assert.equal(part.title, `${conv.title} (turns 2–2 of 3)`);
    assert.equal(part.id, conv.id);
    const tail = conversationTurns(conv, { first: 2, last: 1 });
    assert.deepEqual(tail.messages.map((m) => m.id), ['msg_002', 'msg_003', 'msg_004', 'msg_005'], 'the range given the other way round');
    assert.equal(conv.messages.length, 6, 'the conversation itself is unchanged');
  });

  it('the whole range is the whole conversation (a copy, its own title)', () => {
    const conv = everyField();
    const whole = conversationTurns(conv, { first: 0, last: 2 });
    assert.deepEqual(whole, conv);
    assert.notEqual(whole.messages, conv.messages);
  });

  it('keeps the summary only when every message it replaces is in the range', () => {
    const conv = longConversation(80);
    // The summary replaces the first 50 turns (100 messages).
    assert.ok(conversationTurns(conv, { first: 0, last: 60 }).summary);
    assert.equal(conversationTurns(conv, { first: 0, last: 30 }).summary, undefined, 'a range ending before the summary does');
    assert.equal(conversationTurns(conv, { first: 1, last: 79 }).summary, undefined, 'a range without the first turn');
  });

  it('every format takes the range: Markdown, the conversation file and the web page hold those turns only', () => {
    const conv = longConversation(10);
    const part = conversationTurns(conv, { first: 3, last: 5 });
    const md = conversationToMarkdown(part);
    assert.match(md, /Question 3:/);
    assert.match(md, /Question 5:/);
    assert.doesNotMatch(md, /Question 2:|Question 6:/);
    const file = parseExportText(exportFileText(part));
    assert.ok(file.ok);
    assert.deepEqual(file.file.conversation.messages, conv.messages.slice(6, 12));
    const html = conversationToHtml(part);
    assert.equal(html.match(/<article /g)?.length, 6);
    assert.doesNotMatch(html, /Question 6:/);
  });
});
