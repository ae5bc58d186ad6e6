import { strict as assert } from 'node:assert';
import {
  DEFAULT_REPLY_CHARS,
  estimateTokens,
  excerptOf,
  generateReply,
  lastUserContent,
  MAX_EXAMPLE_LINES,
  MAX_REPLY_CHARS,
  requestedLength,
  requestedLines,
  splitChunks,
} from '../../server/reply';

const ask = (content: string) => generateReply([{ role: 'user', content }]);

function fenceCount(text: string): number {
  return text.split('\n').filter((l) => l.startsWith('```')).length;
}

describe('reference server: reply generator', () => {
  it('is deterministic for a given prompt and varies between prompts', () => {
    assert.equal(ask('How do retries work?'), ask('How do retries work?'));
    assert.notEqual(ask('How do retries work?'), ask('How does caching work?'));
  });

  it('has a heading, a paragraph quoting the prompt, a list, a table and fenced code', () => {
    const text = ask('Tell me about streaming');
    assert.match(text, /^# .+/);
    assert.match(text, /You wrote: “Tell me about streaming”/);
    assert.match(text, /^- \*\*.+\*\*: /m);
    assert.match(text, /^\| Step \| Area \| Status \|\n\|---:\|---\|---\|$/m);
    assert.match(text, /^```typescript\n[\s\S]+?\n```$/m);
    assert.equal(fenceCount(text) % 2, 0);
  });

  it('contains multi-byte characters, including one outside the BMP', () => {
    const text = ask('anything');
    assert.ok(text.includes('→'));
    assert.ok(/[\u{1F300}-\u{1FAFF}]/u.test(text));
    assert.ok(Buffer.byteLength(text, 'utf8') > text.length);
  });

  it('comments on a fenced code block: language and line count', () => {
    const text = ask('Why is this slow?\n```python\nfor i in range(10):\n    print(i)\n    total += i\n```');
    assert.match(text, /fenced \*\*python\*\* code block of 3 lines/);
    assert.match(text, /You wrote: “Why is this slow\?”/);
    assert.doesNotMatch(text.split('\n').slice(0, 3).join('\n'), /range\(10\)/);
  });

  it('answers the last user message', () => {
    const messages = [
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'an answer' },
      { role: 'user', content: 'second question' },
      { role: 'system', content: 'be nice' },
    ];
    assert.equal(lastUserContent(messages), 'second question');
    assert.match(generateReply(messages), /You wrote: “second question”/);
  });

  it('quotes at most a short excerpt, on one line', () => {
    const long = 'word '.repeat(100) + '\n\nsecond paragraph';
    const ex = excerptOf(long);
    assert.ok(Array.from(ex).length <= 80);
    assert.ok(ex.endsWith('…'));
    assert.ok(!ex.includes('\n'));
    assert.equal(excerptOf('hello len:500 world'), 'hello world');
  });

  it(`defaults to about ${DEFAULT_REPLY_CHARS} characters`, () => {
    for (const p of ['a', 'How do I cancel a stream?', 'naïve café ☕']) {
      const n = ask(p).length;
      assert.ok(n >= DEFAULT_REPLY_CHARS * 0.8 && n <= DEFAULT_REPLY_CHARS, `${p}: ${n}`);
    }
  });

  for (const n of [100, 500, 1200, 3000, 20_000, 250_000, 1_000_000]) {
    it(`len:${n} gives about ${n} characters with balanced code fences`, () => {
      const text = ask(`Make it long len:${n}`);
      assert.ok(text.length <= n && text.length >= n * 0.8, `got ${text.length}`);
      assert.equal(fenceCount(text) % 2, 0);
      assert.ok(!/[\uD800-\uDBFF]$/.test(text), 'no dangling high surrogate');
    });
  }

  it('long replies repeat varied sections: prose, lists, tables and code in several languages', () => {
    const text = ask('len:20000 variety');
    assert.ok((text.match(/^## Part \d+/gm) ?? []).length > 20);
    for (const lang of ['typescript', 'python', 'bash', 'json']) assert.match(text, new RegExp('^```' + lang + '$', 'm'));
    assert.ok((text.match(/^\| Step/gm) ?? []).length > 3);
  });

  it('lines:N makes the example block N lines long (clamped), and is not quoted', () => {
    const block = (text: string) => /```typescript\n([\s\S]*?)\n```/.exec(text)?.[1].split('\n') ?? [];
    assert.equal(block(ask('Rewrite it')).length, 7);
    assert.equal(block(ask('Rewrite it lines:300')).length, 300);
    assert.equal(block(ask('lines:2')).length, 7);
    assert.equal(requestedLines('lines:999999'), MAX_EXAMPLE_LINES);
    assert.equal(requestedLines('headlines:40'), undefined);
    assert.equal(excerptOf('Rewrite it lines:300'), 'Rewrite it');
  });

  it('len:N is clamped to the maximum', () => {
    assert.equal(requestedLength('len:5000000'), MAX_REPLY_CHARS);
    assert.equal(requestedLength('no length here'), undefined);
    assert.equal(requestedLength('(len:42)'), 42);
    assert.equal(requestedLength('mylen:42'), undefined);
    assert.ok(ask('len:9999999').length <= MAX_REPLY_CHARS);
  });

  it('splitChunks: exact sizes, lossless, never splits a surrogate pair', () => {
    assert.deepEqual(splitChunks('abcdefg', 3), ['abc', 'def', 'g']);
    assert.deepEqual(splitChunks('ab🚀cd', 3), ['ab', '🚀c', 'd']);
    assert.deepEqual(splitChunks('🚀🚀', 1), ['🚀', '🚀']);
    assert.deepEqual(splitChunks('', 5), []);
    const text = ask('🚀 len:5000');
    for (const size of [1, 2, 3, 24, 1000]) {
      const chunks = splitChunks(text, size);
      assert.equal(chunks.join(''), text);
      for (const c of chunks) {
        assert.ok(!/^[\uDC00-\uDFFF]/.test(c), 'starts with a low surrogate');
        assert.ok(c.length <= Math.max(size, 2));
      }
    }
  });

  it('estimateTokens: about chars/4, integer, at least 1', () => {
    assert.equal(estimateTokens(0), 1);
    assert.equal(estimateTokens(4), 1);
    assert.equal(estimateTokens(5), 2);
    assert.equal(estimateTokens(1200), 300);
  });
});

describe('reference server: a reply whose code block names a file', () => {
  it('file:PATH in the prompt names the example block; without it the block names none', () => {
    const named = generateReply([{ role: 'user', content: 'Code for the helper file:src/apply-other.ts please' }]);
    assert.match(named, /\n```typescript src\/apply-other\.ts\n/);
    const plain = generateReply([{ role: 'user', content: 'Code for the helper please' }]);
    assert.match(plain, /\n```typescript\n/);
    assert.ok(!/```typescript \S/.test(plain));
  });
});
