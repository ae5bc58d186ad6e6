import { strict as assert } from 'node:assert';
import { inlineRest, lastLineSettled, lastSpace } from '../../../src/webview/render/inlineAppend';

describe('inline Markdown added to the open paragraph: the rules without a page', () => {
  it('a settled part may take text once its last line holds two words', () => {
    assert.equal(lastLineSettled('one two'), true);
    assert.equal(lastLineSettled('first line\nsecond\tline'), true);
    // A line of one word could still become a list item, a heading or a break.
    assert.equal(lastLineSettled('two words\n1.'), false);
    assert.equal(lastLineSettled('two words\n-'), false);
    assert.equal(lastLineSettled('single'), false);
    assert.equal(lastLineSettled(''), false);
  });

  it('what follows starts with a space or tab and holds no line break and no pipe', () => {
    assert.equal(inlineRest(' **bold** and `code`'), true);
    assert.equal(inlineRest('\tword'), true);
    assert.equal(inlineRest('word'), false, 'a word going on');
    assert.equal(inlineRest(' two\nlines'), false);
    assert.equal(inlineRest(' carriage\rreturn'), false, 'markdown-it reads \\r as a line break');
    assert.equal(inlineRest(' a | b'), false, 'a pipe may make a table');
    assert.equal(inlineRest('\u00a0no-break'), false, 'the rest starts at a space or tab');
    assert.equal(inlineRest(''), false);
  });

  it('the rest is cut at the start of its last run of spaces, never at its start', () => {
    assert.equal(lastSpace(' one two'), 4);
    assert.equal(lastSpace(' one  two'), 4);
    assert.equal(lastSpace(' one two '), 8);
    assert.equal(lastSpace(' one'), 0);
    assert.equal(lastSpace(' one\u00a0two'), 0, 'a no-break space is no place to cut');
  });
});
