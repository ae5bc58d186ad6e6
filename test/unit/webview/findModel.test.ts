import assert from 'node:assert/strict';
import { countOccurrences, highlightWindow, matchesIn, occurrences, ordinalOf, positionAt, startOrdinal, step, totalOf } from '../../../src/webview/findModel';

const exact = { caseSensitive: true };
const anyCase = { caseSensitive: false };

describe('find in chat: matches in the conversation text', () => {
  it('finds non-overlapping occurrences, with and without case', () => {
    assert.deepEqual(occurrences('Foo foo FOO', 'foo', anyCase), [0, 4, 8]);
    assert.deepEqual(occurrences('Foo foo FOO', 'foo', exact), [4]);
    assert.deepEqual(occurrences('aaaa', 'aa', exact), [0, 2]);
    assert.deepEqual(occurrences('text', '', anyCase), []);
    assert.deepEqual(occurrences('abc', 'abcd', anyCase), []);
  });

  it('a character whose lower case is longer does not shift the offsets', () => {
    const text = 'İstanbul and the word here';
    const at = occurrences(text, 'word', anyCase);
    assert.deepEqual(at, [text.indexOf('word')]);
  });

  it('a message holding a character whose lower case changes length ("İ") is still searched without case', () => {
    const text = 'İstanbul: see the WORD here';
    assert.deepEqual(occurrences(text, 'word', anyCase), [18], 'found without Match Case');
    assert.deepEqual(occurrences('Istanbul: see the WORD here', 'word', anyCase), [18]);
    assert.deepEqual(occurrences(text, 'WORD', exact), [18]);
    assert.deepEqual(occurrences(text, 'word', exact), [], 'Match Case still tells them apart');
    // The offsets are those of the text as it is: the match covers the same characters.
    const mixed = 'aİb WORD İİ Word';
    for (const at of occurrences(mixed, 'word', anyCase)) assert.equal(mixed.slice(at, at + 4).toLowerCase(), 'word');
    assert.deepEqual(occurrences(mixed, 'word', anyCase), [4, 12]);
    // The dotted capital itself is found by its letter, either way round, and in a query.
    assert.deepEqual(occurrences('İstanbul', 'istanbul', anyCase), [0]);
    assert.deepEqual(occurrences('istanbul İSTANBUL', 'İstanbul', anyCase), [0, 9]);
    assert.equal(countOccurrences(text + ' word', 'word', anyCase), 2);
  });

  it('counts without listing: a million matches are counted, and the list stops at its limit', () => {
    const text = 'e'.repeat(1_000_000);
    assert.equal(countOccurrences(text, 'e', anyCase), 1_000_000);
    assert.equal(occurrences(text, 'E', anyCase, 10).length, 10);
  });

  it('the matches highlighted are at most the cap, around the current one, inside the total', () => {
    assert.deepEqual(highlightWindow(10, 3, 2000), [0, 10], 'all of them when they are few');
    assert.deepEqual(highlightWindow(840_000, 500_000, 2000), [499_000, 501_000]);
    assert.deepEqual(highlightWindow(840_000, 5, 2000), [0, 2000], 'near the first');
    assert.deepEqual(highlightWindow(840_000, 839_999, 2000), [838_000, 840_000], 'near the last');
    assert.deepEqual(highlightWindow(840_000, -1, 2000), [0, 2000], 'no current match: the first ones');
    assert.deepEqual(highlightWindow(0, -1, 2000), [0, 0]);
  });

  it('counts per message and in total, oldest first; a rendered count replaces the text count', () => {
    const messages = [
      { id: 'msg_000', content: 'apple pear' },
      { id: 'msg_001', content: 'nothing' },
      { id: 'msg_002', content: 'Apple **apple** apple' },
    ];
    const found = matchesIn(messages, 'apple', anyCase);
    assert.deepEqual(found, [
      { id: 'msg_000', index: 0, count: 1 },
      { id: 'msg_002', index: 2, count: 3 },
    ]);
    assert.equal(totalOf(found), 4);
    const rendered = matchesIn(messages, 'apple', anyCase, (id) => (id === 'msg_002' ? 2 : undefined));
    assert.equal(totalOf(rendered), 3);
    assert.deepEqual(matchesIn(messages, 'Apple', exact).map((m) => m.count), [1]);
  });

  it('maps a match number to its message and back', () => {
    const found = [
      { id: 'a', index: 0, count: 2 },
      { id: 'b', index: 5, count: 3 },
    ];
    assert.deepEqual(positionAt(found, 0), { id: 'a', index: 0, nth: 0 });
    assert.deepEqual(positionAt(found, 3), { id: 'b', index: 5, nth: 1 });
    assert.equal(positionAt(found, 5), undefined);
    assert.equal(ordinalOf(found, { id: 'b', nth: 2 }), 4);
    // A message whose count went down keeps its last match.
    assert.equal(ordinalOf(found, { id: 'a', nth: 7 }), 1);
    assert.equal(ordinalOf(found, { id: 'gone', nth: 0 }), -1);
  });

  it('next and previous wrap around', () => {
    assert.equal(step(3, 2, 1), 0);
    assert.equal(step(3, 0, -1), 2);
    assert.equal(step(3, -1, 1), 0);
    assert.equal(step(3, -1, -1), 2);
    assert.equal(step(0, 0, 1), -1);
  });

  it('a new search starts at the newest match on screen or above it, else the first below', () => {
    const found = [
      { id: 'a', index: 1, count: 2 },
      { id: 'b', index: 4, count: 1 },
      { id: 'c', index: 9, count: 2 },
    ];
    assert.equal(startOrdinal(found, 20), 4);
    assert.equal(startOrdinal(found, 5), 2);
    assert.equal(startOrdinal(found, 0), 0);
    assert.equal(startOrdinal([], 3), -1);
  });
});
