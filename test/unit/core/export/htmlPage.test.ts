// The exported web page (core/export/htmlPage.ts) as text: for every reply of the render tier's
// hostile corpus, as a question, a reply, its thinking, an error and the title, the page has no
// <script>, no on* attribute, nothing that loads (src, srcdoc, action, data, style attributes,
// <link>, <img>, <iframe>…), and only http(s) or #anchor links; its CSP allows no script and no
// request. And it reads like the chat: code highlighted, the thinking folded, the figures shown.
// (The render tier opens the same page in Chromium: test/render/exportPage.ts.)
import { strict as assert } from 'node:assert';
import { appendMessage, createConversation } from '../../../../src/core';
import { conversationToHtml, HTML_PAGE_CSP, markdownHtml, softBreaks } from '../../../../src/core/export/htmlPage';
import { allowlistHtml } from '../../../../src/wording/replyHtml';
import { HOSTILE_CASES } from '../../../render/corpus';
import { everyField } from './fixtures';

/** Every tag of the page, its name and its attributes (the page is ours: double-quoted values). */
function tags(html: string): Array<{ name: string; attrs: Array<[string, string]> }> {
  const out: Array<{ name: string; attrs: Array<[string, string]> }> = [];
  for (const m of html.matchAll(/<([A-Za-z][A-Za-z0-9-]*)([^>]*)>/g)) {
    const attrs: Array<[string, string]> = [...m[2].matchAll(/([^\s=]+)(?:="([^"]*)")?/g)].map((a) => [a[1].toLowerCase(), a[2] ?? '']);
    out.push({ name: m[1].toLowerCase(), attrs });
  }
  return out;
}

const PAGE_TAGS = new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'main', 'header', 'article', 'details', 'summary', 'div', 'wbr']);
const REPLY_TAGS = new Set(['a', 'blockquote', 'br', 'code', 'del', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'input', 'li', 'ol', 'p', 'pre', 's', 'span', 'strong', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul']);

function assertSafe(html: string, what: string): void {
  assert.doesNotMatch(html, /<script/i, `${what}: a script element`);
  const head = html.slice(0, html.indexOf('</head>'));
  const body = html.slice(html.indexOf('</head>'));
  for (const { name, attrs } of tags(body)) {
    assert.ok(PAGE_TAGS.has(name) || REPLY_TAGS.has(name), `${what}: <${name}>`);
    assert.ok(!['meta', 'style', 'title', 'html', 'head'].includes(name), `${what}: <${name}> in the body`);
    for (const [attr, value] of attrs) {
      assert.doesNotMatch(attr, /^on|^(src|srcdoc|action|formaction|data|style|background|poster|xlink:href)$/, `${what}: <${name} ${attr}>`);
      if (attr === 'href') assert.match(value, /^(https?:\/\/|#)/i, `${what}: a link to ${value.slice(0, 80)}`);
      if (name === 'input') assert.ok(attrs.some(([a]) => a === 'disabled'), `${what}: an input that is not disabled`);
    }
  }
  assert.equal(tags(head).filter((t) => !['html', 'head', 'meta', 'title', 'style'].includes(t.name)).length, 0, `${what}: the head holds only metas, the title and the style`);
}

describe('export: the web page', () => {
  it('its CSP allows inline styles and nothing else (no script, no image, no request)', () => {
    const html = conversationToHtml(everyField());
    assert.ok(html.includes(`<meta http-equiv="Content-Security-Policy" content="${HTML_PAGE_CSP}">`));
    const directives = new Map(HTML_PAGE_CSP.split(';').map((d) => d.trim().split(/\s+/) as [string, ...string[]]).map(([k, ...v]) => [k, v.join(' ')]));
    assert.equal(directives.get('default-src'), "'none'");
    assert.equal(directives.get('style-src'), "'unsafe-inline'");
    for (const [k, v] of directives) if (k !== 'style-src') assert.equal(v, "'none'", k);
    assert.match(html, /<meta name="referrer" content="no-referrer">/);
  });

  it('the hostile corpus, as questions, replies, thinking, errors, files and title: no script, no handler, nothing loaded, only http(s) and #anchor links', function () {
    this.timeout(60_000);
    const conv = createConversation('conv-hostile', new Date('2026-12-01T00:00:00.000Z'));
    conv.title = HOSTILE_CASES[0].text;
    for (const c of HOSTILE_CASES) {
      appendMessage(conv, 'user', c.text, new Date(), { files: [c.text.slice(0, 300)] });
      appendMessage(conv, 'assistant', c.text, new Date(), {
        status: 'error',
        meta: { model: c.text.slice(0, 80), reasoning: c.text, note: c.text.slice(0, 400) },
        error: { kind: 'server', message: c.text.slice(0, 1000), actions: [] },
      });
    }
    const html = conversationToHtml(conv);
    assertSafe(html, 'the whole page');
    for (const c of HOSTILE_CASES) assertSafe(`</head>${markdownHtml(c.text)}`, `${c.group}/${c.name}`);
  });

  it("the allowlist drops what markdown-it would never write: other elements (their text kept), other attributes, links of other schemes", () => {
    assert.equal(allowlistHtml('<p onclick="x()" class="a">hi</p><script>alert(1)</script>'), '<p class="a">hi</p>alert(1)');
    assert.equal(allowlistHtml('<a href="javascript:alert(1)" title="t">x</a>'), '<a title="t">x</a>');
    assert.equal(allowlistHtml('<a href="jav&#x09;ascript:alert(1)">x</a><a href=" https://ok.example">y</a>'), '<a>x</a><a href=" https://ok.example">y</a>');
    assert.equal(allowlistHtml('<img src="https://evil.example/p.png">'), '');
    assert.equal(allowlistHtml('<input type="text"><input type="checkbox" checked>'), '<input type="checkbox" checked disabled>');
    assert.equal(allowlistHtml('a < b > c <p'), 'a &lt; b &gt; c &lt;p');
    assert.equal(allowlistHtml('<p title="x" onmouseover=alert(1)>'), '&lt;p title="x" onmouseover=alert(1)&gt;');
  });

  it('reads like the chat: code highlighted, the thinking folded, the figures, files, notes and errors shown as text', () => {
    const html = conversationToHtml(everyField(), new Date('2026-12-01T00:00:00.000Z'));
    assert.match(html, /<pre class="md-code"><code class="hljs language-ts"><span class="hljs-title function_">parse<\/span>\(\)/);
    assert.match(html, /<details class="reasoning"><summary>Thinking<\/summary><div class="reasoning-text">First, read the grammar\.<\/div><\/details>/);
    assert.match(html, /deep-think · 3 credits · 120 prompt \+ 45 completion tokens/);
    assert.match(html, /Files: src\/a\.ts, lib\/b\.py/);
    assert.match(html, /Error: Too many requests/);
    assert.match(html, /\(Stopped\)/);
    assert.match(html, /<details class="summary"><summary>Summary of the earlier turns/);
    assert.match(html, /<title>Every field “quoted”\tand tabbed<\/title>/);
    assert.equal(html.match(/<article /g)?.length, 6);
  });

  it('a long word gets a line-break opportunity every 40 characters (outside code), never inside an entity', () => {
    assert.equal(softBreaks(`<p>${'a'.repeat(90)}</p>`), `<p>${'a'.repeat(40)}<wbr>${'a'.repeat(40)}<wbr>${'a'.repeat(10)}</p>`);
    assert.equal(softBreaks(`<pre>${'a'.repeat(90)}</pre>`), `<pre>${'a'.repeat(90)}</pre>`);
    const amps = softBreaks('&amp;'.repeat(70));
    assert.equal(amps.replace(/<wbr>/g, ''), '&amp;'.repeat(70));
    assert.doesNotMatch(amps, /&[a-z]*<wbr>/);
  });
});
