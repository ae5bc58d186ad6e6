import { strict as assert } from 'node:assert';
import { BlockSplitter, completePartialTable, markdownBlockStarts, openFence, plainAppend, splitWhole } from '../../../src/webview/render/blocks';
import { createBlockParser, createMarkdown, isAllowedUrl, type RenderEnv } from '../../../src/webview/render/markdown';
import { escapeHtml, languageOf } from '../../../src/webview/render/highlight';
import { FIXTURES, randomChunks, randomDocument, rng } from './fixtures';

const blockStarts = markdownBlockStarts(createBlockParser());
const md = createMarkdown();

/** Streams `chunks`, taking finished blocks after every chunk, as the reply view does per frame. */
function stream(chunks: string[], takeEvery = 1): string[] {
  const splitter = new BlockSplitter(blockStarts);
  const blocks: string[] = [];
  chunks.forEach((chunk, i) => {
    splitter.push(chunk);
    if (i % takeEvery === 0) blocks.push(...splitter.take());
  });
  blocks.push(...splitter.end());
  return blocks;
}

function renderBlocks(blocks: string[]): string {
  const env: RenderEnv = { references: {} };
  return blocks.map((b) => md.render(b, env)).join('');
}

describe('render/blocks: BlockSplitter', () => {
  for (const [name, doc] of Object.entries(FIXTURES)) {
    describe(`fixture "${name}"`, () => {
      const whole = splitWhole(blockStarts, doc);

      it('whole split covers the text exactly (line endings normalised)', () => {
        assert.equal(whole.join(''), doc.replace(/\r\n?/g, '\n'));
      });

      it('rendering the blocks one by one equals rendering the document whole', () => {
        assert.equal(renderBlocks(whole), md.render(doc));
      });

      it('any chunking yields the same blocks (200 random splits)', () => {
        const random = rng(name.length * 7919 + 1);
        for (let i = 0; i < 200; i++) {
          const chunks = randomChunks(doc, random, 1 + Math.floor(random() * 40));
          assert.deepEqual(stream(chunks, 1 + Math.floor(random() * 3)), whole, `split ${i}: ${JSON.stringify(chunks)}`);
        }
      });

      it('character by character yields the same blocks', () => {
        assert.deepEqual(stream(Array.from(doc)), whole);
      });
    });
  }

  it('random documents from fixture pieces: streamed = whole, rendered = whole render', () => {
    const random = rng(42);
    for (let d = 0; d < 150; d++) {
      const doc = randomDocument(random, 4 + Math.floor(random() * 14));
      const whole = splitWhole(blockStarts, doc);
      assert.equal(whole.join(''), doc);
      // References may be defined after their use in a random document; only compare renders
      // when none are used before being defined.
      if (!doc.includes(']:')) assert.equal(renderBlocks(whole), md.render(doc), `doc ${d}: ${JSON.stringify(doc)}`);
      for (let i = 0; i < 20; i++) {
        const chunks = randomChunks(doc, random, 1 + Math.floor(random() * 60));
        assert.deepEqual(stream(chunks), whole, `doc ${d} split ${i}`);
      }
    }
  });

  it('commits finished blocks while streaming and keeps the open one pending', () => {
    const splitter = new BlockSplitter(blockStarts);
    splitter.push('# Title\n\nSome text');
    // The next block starts on an incomplete line: nothing is certain yet.
    assert.deepEqual(splitter.take(), []);
    splitter.push('\n');
    assert.deepEqual(splitter.take(), ['# Title\n\n']);
    assert.equal(splitter.tail, 'Some text\n');
    splitter.push('---\n'); // setext underline: the paragraph became a heading, still open
    assert.deepEqual(splitter.take(), []);
    splitter.push('\n```js\nopen fence\n\nstill inside\n');
    assert.deepEqual(splitter.take(), ['Some text\n---\n\n']);
    assert.equal(splitter.tail, '```js\nopen fence\n\nstill inside\n');
    assert.deepEqual(splitter.end(), ['```js\nopen fence\n\nstill inside\n']);
    assert.equal(splitter.tail, '');
  });

  it('does not commit a paragraph whose next line may still turn it into a table', () => {
    const splitter = new BlockSplitter(blockStarts);
    splitter.push('| a | b |\n|--');
    assert.deepEqual(splitter.take(), []);
    splitter.push('-|---|\n| 1 | 2 |\n\nafter\n');
    assert.deepEqual(splitter.take(), ['| a | b |\n|---|---|\n| 1 | 2 |\n\n']);
  });

  it('joins a CRLF split across chunks into one line break', () => {
    const splitter = new BlockSplitter(blockStarts);
    splitter.push('a\r');
    splitter.push('\n\r');
    splitter.push('\nb\r');
    assert.deepEqual(splitter.end(), ['a\n\n', 'b\n']);
  });
});

describe('render/blocks: completePartialTable', () => {
  it('completes a half-typed delimiter row under a header row', () => {
    assert.equal(completePartialTable('Intro\n\n| a | b | c |\n|--'), 'Intro\n\n| a | b | c |\n| --- | --- | --- |');
    assert.equal(completePartialTable('a | b\n|'), 'a | b\n| --- | --- |');
  });

  it('leaves everything else alone', () => {
    for (const text of ['| a | b |', 'text\n--', 'x\n| a |\n|---|\n| 1 |\n|-', '| a | b |\n|---|---|\n', 'a\nb']) {
      assert.equal(completePartialTable(text), text);
    }
  });

  it('the completed text renders as a table', () => {
    assert.match(md.render(completePartialTable('| a | b |\n|:-')), /<table>[\s\S]*<th>a<\/th>/);
  });
});

describe('render/markdown: links and languages', () => {
  it('allows only http(s) and in-document anchors as link targets', () => {
    for (const ok of ['https://example.com', 'http://x.y/z?q=1', '#section', 'HTTPS://EXAMPLE.COM']) assert.ok(isAllowedUrl(ok), ok);
    for (const bad of ['javascript:alert(1)', ' javascript:x', 'java\tscript:x', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd', '//evil.com', 'relative/path', 'mailto:a@b.c', '']) {
      assert.ok(!isAllowedUrl(bad), bad);
    }
  });

  it('renders unsafe links and raw HTML as text', () => {
    const html = md.render('[x](javascript:alert(1)) <img src=x onerror=alert(1)> ![i](data:image/png;base64,AAAA)');
    assert.doesNotMatch(html, /<a |<img/);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
  });

  it('renders images as links labelled with their alt text, never as <img>', () => {
    const html = md.render('![diagram](https://example.com/d.png)');
    assert.match(html, /<a class="md-image-link" href="https:\/\/example.com\/d.png"[^>]*><span class="md-image-label">diagram<\/span><\/a>/);
  });

  it('takes the language of a fence only when it is a plain identifier', () => {
    assert.equal(languageOf('TypeScript {1,3}'), 'typescript');
    assert.equal(languageOf('c++'), 'c++');
    assert.equal(languageOf('"><script>'), '');
    assert.equal(languageOf(''), '');
  });

  it('highlights known languages and escapes unknown ones', () => {
    assert.match(md.render('```js\nconst a = "<b>";\n```'), /<span class="hljs-keyword">const<\/span>/);
    assert.match(md.render('```nosuchlang\n<b>x</b>\n```'), /&lt;b&gt;x&lt;\/b&gt;/);
    assert.doesNotMatch(md.render('```js\nconst a = 1;\n```', { plainCode: true }), /hljs-keyword/);
  });

  it('renders task lists with disabled checkboxes and table alignment as classes', () => {
    const html = md.render('- [x] done\n- [ ] todo\n\n| a | b |\n|:-:|--:|\n| 1 | 2 |\n');
    assert.match(html, /<input class="task-list-item-checkbox" type="checkbox" disabled checked>/);
    assert.match(html, /<th class="md-align-center">a<\/th>/);
    assert.doesNotMatch(html, /style=/);
  });
});

describe('render/blocks: openFence', () => {
  it('recognises an open fence and returns its code', () => {
    assert.deepEqual(openFence('```ts {x}\nconst a = 1;\nconst b'), { info: 'ts {x}', code: 'const a = 1;\nconst b' });
    assert.deepEqual(openFence('~~~~\n```\nstill code\n~~~\n'), { info: '', code: '```\nstill code\n~~~\n' });
    assert.deepEqual(openFence('  ```\n    indented\n  x\n'), { info: '', code: '  indented\nx\n' });
  });

  it('returns null for closed fences, other blocks and unusual info strings', () => {
    for (const text of ['```js\nx\n```', '```js\nx\n```\n\nmore', '```js', 'text\n```\ncode\n', '``` a`b\nx\n', '```&lt;\nx\n', '    ```\nx\n']) {
      assert.equal(openFence(text), null, text);
    }
  });

  it('agrees with markdown-it on the code of an open fence', () => {
    for (const text of ['```py\nprint(1)\n\n\nx = 2\n', '```py\nprint(1)\nx = ', '~~~\na\n  b\n', '   ```\n   a\n     b\n c\n']) {
      const token = md.parse(text, {}).find((t) => t.type === 'fence');
      assert.equal(openFence(text)?.code, token?.content, text);
    }
  });
});

describe('render/blocks: plainAppend (fast path for plain words added to the tail)', () => {
  const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
  /**
   * Rendered HTML and the text of its last text node, as the DOM path sees it: only a text node
   * right in a paragraph, list item, cell or heading (not code) is appended to.
   */
  const renderTail = (text: string) => {
    const html = md.render(text, { plainCode: true });
    const closing = /(?:<\/[a-z0-9]+>\s*)+$/.exec(html);
    const at = closing ? closing.index : html.length;
    const before = html.slice(0, at);
    const inline = /^<\/(?:p|li|td|th|h[1-6])>/.test(html.slice(at));
    return { html, at, lastText: inline ? unescape(before.slice(before.lastIndexOf('>') + 1)) : '' };
  };

  it('accepts plain words after a completed word and rejects everything else', () => {
    assert.equal(plainAppend('Some text here', 'Some text heres and', 'Some text here'), 's and');
    assert.equal(plainAppend('- item one', '- item ones', 'item one'), 's');
    // Spaces at the end are not rendered until words follow them.
    assert.equal(plainAppend('Some text', 'Some text ', 'Some text'), '');
    assert.equal(plainAppend('Some text ', 'Some text  more', 'Some text'), '  more');
    assert.equal(plainAppend('Some text.', 'Some text. More', 'Some text.'), ' More');
    for (const [before, after] of [
      ['Some text\n', 'Some text\nmore', ''], ['Some text \n', 'Some text \nmore', ''], ['word', 'words', ''], ['para\n1', 'para\n1. x', ''], ['a **b', 'a **bc', ''],
      ['see http:', 'see http:x', ''], ['text more', 'text more*', ''], ['text more', 'text more\nx', ''], ['a _b_', 'a _b_c', ''],
    ]) {
      assert.equal(plainAppend(before, after, renderTail(before).lastText), null, JSON.stringify([before, after]));
    }
  });

  it('whenever it applies, rendering the longer text equals appending to the last text node', () => {
    const random = rng(7);
    let applied = 0;
    let spaced = 0;
    for (let d = 0; d < 300; d++) {
      const doc = randomDocument(random, 6) + ' and some more plain words to finish  with  spaces ';
      const blocks = splitWhole(blockStarts, doc);
      for (const block of blocks) {
        for (let i = 1; i < block.length; i += 1 + Math.floor(random() * 5)) {
          const before = block.slice(0, i);
          const after = block.slice(0, Math.min(block.length, i + 1 + Math.floor(random() * 12)));
          const old = renderTail(before);
          const delta = plainAppend(before, after, old.lastText);
          if (delta === null) continue;
          applied++;
          if (/\s$/.test(before) || /\s$/.test(after)) spaced++;
          const expected = old.html.slice(0, old.at) + escapeHtml(delta) + old.html.slice(old.at);
          assert.equal(md.render(after, { plainCode: true }), expected, JSON.stringify({ before, after }));
        }
      }
    }
    assert.ok(applied > 100, `fast path applied only ${applied} times`);
    assert.ok(spaced > 50, `fast path applied only ${spaced} times with spaces at the end`);
  });
});
