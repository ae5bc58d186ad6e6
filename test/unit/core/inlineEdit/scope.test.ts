import { strict as assert } from 'node:assert';
import { documentsValue, editInScope, inDocuments, REVIEWED_DOCUMENTS, STREAMING_DOCUMENTS } from '../../../../src/core/inlineEdit/scope';

// Edit in the editor, with edits in several documents: which one a command (Stop/Escape, Keep or
// Undo of a hunk, Keep Edit/Undo Edit) acts on.
const A = 'file:///work/a.ts';
const B = 'file:///work/b.ts';
const C = 'untitled:Untitled-1';

describe('edit in the editor: which edit a command acts on', () => {
  it('Stop (Escape) in another document leaves the reply streaming into A going', () => {
    const streaming = new Map([[A, 'reply into A']]);
    assert.equal(editInScope(streaming, { active: B }), undefined);
    assert.equal(editInScope(streaming, { active: A }), 'reply into A');
  });

  it('a hunk key pressed in B never decides a hunk of A\'s review, out of sight', () => {
    const reviews = new Map([[A, 'review of A']]);
    assert.equal(editInScope(reviews, { active: B }), undefined);
    assert.equal(editInScope(reviews, { active: C }), undefined);
  });

  it('with no active editor (the focus in the chat panel), no edit is chosen for the command', () => {
    assert.equal(editInScope(new Map([[A, 'review of A']]), {}), undefined);
  });

  it('the document the command was given (a CodeLens of A) wins over the active one', () => {
    const reviews = new Map([
      [A, 'review of A'],
      [B, 'review of B'],
    ]);
    assert.equal(editInScope(reviews, { given: A, active: B }), 'review of A');
    assert.equal(editInScope(reviews, { active: B }), 'review of B');
    assert.equal(editInScope(reviews, { given: C, active: B }), undefined, 'a given document without an edit is not taken for the active one');
  });
});

describe('edit in the editor: the context keys of the documents under edit', () => {
  it('name each document once, in a stable order, as `resource in` compares them', () => {
    assert.deepEqual(documentsValue([B, A, B]), [A, B]);
    assert.deepEqual(documentsValue([]), []);
  });

  it('the clause holds in a file\'s editor and in a notebook cell\'s', () => {
    assert.equal(inDocuments(STREAMING_DOCUMENTS), 'resourcePath in aiChat.inlineEditStreamingDocuments');
    assert.notEqual(STREAMING_DOCUMENTS, REVIEWED_DOCUMENTS);
  });
});
