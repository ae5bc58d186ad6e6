import { strict as assert } from 'node:assert';
import {
  appendMessage,
  canAfford,
  conversationToMarkdown,
  createConversation,
  creditsCharged,
  creditsText,
  fenceFor,
  formatNumber,
  formatSelectionMessage,
  isLowBalance,
  nextMessageText,
  replyMetaText,
  subscriptionItems,
} from '../../../../src/core';

describe('cost maths and wording', () => {
  it('groups numbers the en-US way', () => {
    assert.equal(formatNumber(1000), '1,000');
    assert.equal(formatNumber(1234567), '1,234,567');
  });
  it('says credit or credits', () => {
    assert.equal(creditsText(1), '1 credit');
    assert.equal(creditsText(0), '0 credits');
    assert.equal(creditsText(1000), '1,000 credits');
  });
  it('shows the next message cost', () => {
    assert.equal(nextMessageText(1), 'Next message: 1 credit');
    assert.equal(nextMessageText(5), 'Next message: 5 credits');
    assert.equal(nextMessageText(null), 'Next message: cost unknown');
  });
  it('charges what the service reported, else the model cost', () => {
    assert.equal(creditsCharged(3, 5), 3);
    assert.equal(creditsCharged(0, 5), 0);
    assert.equal(creditsCharged(undefined, 5), 5);
    assert.equal(creditsCharged(undefined, null), undefined);
  });
  it('knows a low balance', () => {
    assert.equal(isLowBalance(2, 5), true);
    assert.equal(isLowBalance(5, 5), false);
    assert.equal(isLowBalance(0, null), true);
    assert.equal(isLowBalance(10, null), false);
    assert.equal(canAfford(4, 5), false);
    assert.equal(canAfford(undefined, 5), true);
  });
  it('writes the reply meta line', () => {
    assert.equal(
      replyMetaText({ model: 'swift-chat', credits: 1, promptTokens: 12, completionTokens: 340 }),
      'swift-chat · 1 credit · 12 prompt + 340 completion tokens',
    );
    assert.equal(replyMetaText({ model: 'deep-think', credits: 5 }), 'deep-think · 5 credits');
  });
});

describe('selection message', () => {
  it('fences the code with language, file and line range', () => {
    const text = formatSelectionMessage({
      code: 'const x = 1;\nconsole.log(x);\n',
      languageId: 'typescript',
      fileName: 'src/a.ts',
      startLine: 3,
      endLine: 4,
    });
    assert.equal(text, '`src/a.ts`, lines 3-4:\n\n```typescript\nconst x = 1;\nconsole.log(x);\n```');
  });
  it('puts the question first', () => {
    const text = formatSelectionMessage({ code: 'x', languageId: 'python', fileName: 'm.py', startLine: 7, endLine: 7, question: ' Why? ' });
    assert.ok(text.startsWith('Why?\n\n`m.py`, line 7:\n\n```python\nx\n```'), text);
  });
  it('uses a longer fence when the code contains backticks', () => {
    assert.equal(fenceFor('a ``` b'), '````');
    assert.equal(fenceFor('plain'), '```');
    const text = formatSelectionMessage({ code: '```\ninner\n```', languageId: 'markdown', fileName: 'r.md', startLine: 1, endLine: 3 });
    assert.ok(text.includes('````markdown\n```\ninner\n```\n````'), text);
  });
  it('keeps only safe characters of the language id', () => {
    const text = formatSelectionMessage({ code: 'x', languageId: 'c++ <b>', fileName: 'a', startLine: 1, endLine: 1 });
    assert.ok(text.includes('```c++b\n'), text);
  });
});

describe('export', () => {
  it('writes the conversation as Markdown with meta and stopped marks', () => {
    const c = createConversation('c', new Date('2026-11-21T00:00:00Z'));
    appendMessage(c, 'user', 'Hello there');
    appendMessage(c, 'assistant', 'Hi!', undefined, { meta: { model: 'swift-chat', credits: 1, promptTokens: 2, completionTokens: 3 } });
    appendMessage(c, 'user', 'More');
    appendMessage(c, 'assistant', 'Par', undefined, { status: 'stopped' });
    const md = conversationToMarkdown(c, new Date('2026-11-21T12:00:00Z'));
    assert.ok(md.startsWith('# Hello there\n\n_Exported 2026-11-21T12:00:00.000Z · 4 messages_'));
    assert.ok(md.includes('## You\n\nHello there\n\n## Assistant\n\n_swift-chat · 1 credit · 2 prompt + 3 completion tokens_\n\nHi!'));
    assert.ok(md.includes('Par\n\n_(Stopped)_'));
    assert.ok(md.includes('Hi!\n\n---\n\n## You\n\nMore'), 'turns are separated by a rule');
  });
});

describe('subscriptions', () => {
  it('lists plans by price with features', () => {
    const items = subscriptionItems([
      { id: '2', name: 'Pro', price: 19.99, features: ['More credits', 'All models'] },
      { id: '1', name: 'Free', price: 0, features: [] },
    ]);
    assert.deepEqual(items, [
      { label: 'Free', description: 'Free', detail: 'No features listed' },
      { label: 'Pro', description: 'Price 19.99', detail: 'More credits · All models' },
    ]);
  });
});
