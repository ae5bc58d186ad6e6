// The sources of a reply (`h` parts): only http(s) addresses, no repeats, titles as plain text.
import { strict as assert } from 'node:assert';
import MarkdownIt from 'markdown-it';
import { ReplyAssembler, activityOf } from '../../../../src/client/reply';
import { conversationToMarkdown, createConversation, appendMessage, filesMarkdown, replyFileName, sourcesMarkdown } from '../../../../src/core';
import { MAX_EXTRAS } from '../../../../src/protocol';

const source = (url: string, title?: string) => ({ event: 'h' as const, sourceType: 'url', id: url, url, ...(title !== undefined ? { title } : {}) });

describe('core: the sources a reply cites', () => {
  it('keeps http(s) addresses only, once each, in order', () => {
    const reply = new ReplyAssembler();
    for (const ev of [
      source('https://a.example/one', 'One'),
      source('javascript:alert(1)', 'bad'),
      source('data:text/html,<script>alert(1)</script>'),
      source('https://a.example/one', 'One again'),
      source('http://b.example/two?q=a b'),
      source('not a url'),
    ]) {
      assert.equal(reply.push(ev), '', 'a source adds no text by itself');
    }
    assert.deepEqual(reply.sources, [
      { url: 'https://a.example/one', title: 'One' },
      { url: 'http://b.example/two?q=a%20b' },
    ]);
  });

  it('hostile titles stay text: no link, image, HTML or emphasis comes out of them', () => {
    const md = new MarkdownIt({ html: false, linkify: false });
    const hostile = ['](javascript:alert(1))', '<img src=x onerror=alert(1)>', '**bold** _it_ `code`', '[x](https://evil.example)', '![i](https://evil.example/i.png)'];
    const section = sourcesMarkdown(hostile.map((title, i) => ({ url: `https://ok.example/${i}`, title })));
    const html = md.render(section);
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(hrefs, hostile.map((_, i) => `https://ok.example/${i}`), 'one link per source, to its own address');
    assert.doesNotMatch(html, /<img|<em>|<code>/);
    assert.equal(html.match(/<strong>/g)?.length, 1, 'only the heading is bold');
    for (const title of hostile) assert.ok(html.includes(md.utils.escapeHtml(title)) || html.includes(title.replace(/</g, '&lt;').replace(/>/g, '&gt;')), `the title is shown as text: ${title}`);
  });

  it('no sources, no section; the activity before the text: thinking for reasoning, searching for a tool call', () => {
    assert.equal(sourcesMarkdown([]), '');
    assert.equal(activityOf({ event: 'g', data: 'x' }), 'thinking');
    assert.equal(activityOf({ event: 'i', data: 'x' }), 'thinking');
    assert.equal(activityOf({ event: '9', toolCallId: 'c', toolName: 'web_search', args: {} }), 'searching');
    assert.equal(activityOf({ event: 'b', toolCallId: 'c', toolName: 'web_search' }), 'searching');
    assert.equal(activityOf({ event: '0', data: 'x' }), undefined);
  });

  it('Export carries the thinking as a quoted section before the reply, and the sources with the reply', () => {
    const conv = createConversation('c1', new Date('2026-01-01T00:00:00Z'));
    appendMessage(conv, 'user', 'Why?');
    const a = appendMessage(conv, 'assistant', `Because.${sourcesMarkdown([{ url: 'https://a.example/x', title: 'A' }])}`);
    a.meta = { model: 'deep-think', reasoning: 'First line of thought\nsecond line' };
    const md = conversationToMarkdown(conv, new Date('2026-01-02T00:00:00Z'));
    assert.match(md, /> \*\*Thinking\*\*\n>\n> First line of thought\n> second line\n\nBecause\./);
    assert.match(md, /\*\*Sources\*\*\n\n1\. \[A\]\(<https:\/\/a\.example\/x>\)/);
  });

  it('files (k) are listed by a name of ours, with a media type reduced to plain characters and the decoded size', () => {
    const reply = new ReplyAssembler();
    assert.equal(reply.push({ event: 'k', mimeType: 'image/svg+xml', data: 'PHN2Zz48L3N2Zz4=' }), '');
    reply.push({ event: 'k', mimeType: 'text/plain"><img src=x onerror=alert(1)>', data: 'a'.repeat(4 * 1024 * 400) });
    assert.deepEqual(reply.files, [
      { mimeType: 'image/svg+xml', bytes: 11 },
      { mimeType: 'text/plainimgsrcxonerroralert1', bytes: 1024 * 1200 },
    ]);
    assert.equal(replyFileName(0, 'image/svg+xml'), 'file-1.svg');
    assert.equal(replyFileName(1, 'image/jpeg'), 'file-2.jpg');
    assert.equal(replyFileName(2, 'nonsense'), 'file-3');
    const md = new MarkdownIt({ html: false, linkify: false }).render(filesMarkdown(reply.files));
    assert.doesNotMatch(md, /<img|<a /);
    assert.match(md, /file-1\.svg \(image\/svg\+xml, 11 bytes\)/);
    assert.match(md, /file-2\.plainimgsr \(text\/plainimgsrcxonerroralert1, 1\.2 MB\)/);
    assert.equal(filesMarkdown([]), '');
  });

  it('data (2) and annotations (8) are kept as sent while they fit, whole values only, and say when some were left out', () => {
    const reply = new ReplyAssembler();
    const kept = () => reply.extras;
    assert.equal(kept(), undefined);
    assert.equal(reply.push({ event: '2', data: [{ a: 1 }] }), '');
    assert.equal(reply.push({ event: '8', data: [{ b: 'x' }] }), '');
    assert.deepEqual(kept(), { data: [{ a: 1 }], annotations: [{ b: 'x' }], cut: false });
    // Thousands of small values, then one too big: the JSON stays within what the store takes.
    for (let i = 0; i < 40; i++) reply.push({ event: '2', data: Array.from({ length: 1000 }, () => 7) });
    reply.push({ event: '8', data: ['y'.repeat(100_000)] });
    const extras = kept();
    assert.ok(extras);
    assert.equal(extras.cut, true);
    assert.ok(!extras.annotations.some((v) => typeof v === 'string' && v.length === 100_000), 'a value too big is left out whole');
    assert.ok(JSON.stringify(extras).length <= MAX_EXTRAS, `${JSON.stringify(extras).length} characters`);
  });
});
