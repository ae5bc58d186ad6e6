import { strict as assert } from 'node:assert';
import { chatHtml, contentSecurityPolicy, placeholderHtml } from '../../../../src/extension/chat/common/html';
import { isSafeConversationId, normalizeBaseUrl, safeExternalUrl } from '../../../../src/extension/platform/links';
import { formatLogLine, redact, redactData } from '../../../../src/extension/platform/redact';
import { clientTimeouts, DEFAULT_BASE_URL, readSettings } from '../../../../src/extension/platform/settings';

describe('link checks', () => {
  it('allows only http and https URLs', () => {
    assert.equal(safeExternalUrl('https://example.com/a?b=1'), 'https://example.com/a?b=1');
    assert.equal(safeExternalUrl('http://example.com'), 'http://example.com/');
    assert.equal(safeExternalUrl('javascript:alert(1)'), undefined);
    assert.equal(safeExternalUrl('command:workbench.action.terminal.new'), undefined);
    assert.equal(safeExternalUrl('file:///etc/passwd'), undefined);
    assert.equal(safeExternalUrl('vscode://settings'), undefined);
    assert.equal(safeExternalUrl('not a url'), undefined);
    assert.equal(safeExternalUrl('https://user:pw@example.com'), undefined);
  });
  it('accepts only simple conversation ids', () => {
    assert.ok(isSafeConversationId('3f2c1a9e-1b2c-4d5e-8f90-123456789abc'));
    assert.ok(!isSafeConversationId('../../etc/passwd'));
    assert.ok(!isSafeConversationId(''));
    assert.ok(!isSafeConversationId('a/b'));
  });
  it('normalises the base URL', () => {
    assert.equal(normalizeBaseUrl('http://127.0.0.1:8787/', 'x'), 'http://127.0.0.1:8787');
    assert.equal(normalizeBaseUrl('ftp://host', DEFAULT_BASE_URL), DEFAULT_BASE_URL);
    assert.equal(normalizeBaseUrl('', DEFAULT_BASE_URL), DEFAULT_BASE_URL);
  });
});

describe('redaction', () => {
  it('removes known secrets and key-like strings', () => {
    assert.equal(redact('key is abc-secret-123', ['abc-secret-123']), 'key is [redacted]');
    assert.equal(redact('using sk-demo-0000000000000001 now'), 'using [redacted] now');
    assert.equal(redact('x-api-key: hunter2hunter2'), 'x-api-key: [redacted]');
  });
  it('redacts inside log data, including secret-named fields', () => {
    const out = redactData({ headers: { 'x-api-key': 'whatever' }, note: 'sk-abcdefghijkl', n: 3 }) as Record<string, unknown>;
    assert.deepEqual(out, { headers: { 'x-api-key': '[redacted]' }, note: '[redacted]', n: 3 });
  });
  it('formats a log line without the key', () => {
    const line = formatLogLine('POST /chat 401', { traceId: 't-1', echo: 'my-key-value' }, ['my-key-value']);
    assert.equal(line, 'POST /chat 401 {"traceId":"t-1","echo":"[redacted]"}');
  });
});

describe('settings', () => {
  it('uses defaults for missing values', () => {
    const s = readSettings(() => undefined);
    assert.deepEqual(s, {
      baseUrl: DEFAULT_BASE_URL,
      model: '',
      temperature: 1,
      search: false,
      stream: true,
      systemPrompt: '',
      requestTimeoutSeconds: 120,
      balanceRefreshMinutes: 5,
      replyDeadlineMinutes: 10,
      fontSize: 0,
      contextMaxTokens: 32768,
    });
  });
  it('clamps out-of-range numbers and ignores wrong types', () => {
    const values: Record<string, unknown> = { temperature: 5, requestTimeoutSeconds: 1, fontSize: 'big', stream: 'no', model: ' swift-chat ' };
    const s = readSettings((k) => values[k]);
    assert.equal(s.temperature, 2);
    assert.equal(s.requestTimeoutSeconds, 5);
    assert.equal(s.fontSize, 0);
    assert.equal(s.stream, true);
    assert.equal(s.model, 'swift-chat');
  });
  it('maps the request timeout to client timeouts', () => {
    assert.deepEqual(clientTimeouts(120), {
      connectMs: 30_000,
      headersMs: 120_000,
      bodyMs: 120_000,
      requestMs: 120_000,
      chatReplyMs: 300_000,
      chatRequestMs: 420_000,
      replyDeadlineMs: 600_000,
    });
    assert.deepEqual(clientTimeouts(10, 2), {
      connectMs: 10_000,
      headersMs: 10_000,
      bodyMs: 10_000,
      requestMs: 10_000,
      chatReplyMs: 300_000,
      chatRequestMs: 310_000,
      replyDeadlineMs: 120_000,
    });
    // A GET as a whole ends at the request timeout; a non-streaming reply has its wait plus one timeout for its body.
    assert.equal(clientTimeouts(3600).requestMs, 3_600_000);
    assert.equal(clientTimeouts(3600).chatRequestMs, 7_200_000 + 3_600_000);
    // A non-streaming reply always waits longer than the time to a stream's first byte.
    assert.ok(clientTimeouts(600).chatReplyMs > clientTimeouts(600).headersMs);
  });
});

describe('chat panel HTML', () => {
  const html = chatHtml({
    cspSource: 'https://webview.example',
    nonce: 'abc123==',
    scriptUri: 'https://webview.example/media/dist/webview.js',
    chatCssUri: 'https://webview.example/media/chat.css',
    renderCssUri: 'https://webview.example/media/render.css',
    codiconCssUri: 'https://webview.example/media/dist/codicons/codicon.css',
  });
  it('has a strict CSP with a script nonce', () => {
    const csp = contentSecurityPolicy('https://webview.example', 'abc123==');
    assert.ok(csp.startsWith("default-src 'none'"));
    assert.ok(csp.includes("script-src 'nonce-abc123=='"));
    assert.ok(csp.includes('style-src https://webview.example'));
    assert.ok(csp.includes("connect-src 'none'"));
    assert.ok(!csp.includes('unsafe-inline'));
    assert.ok(!csp.includes('unsafe-eval'));
    assert.ok(html.includes('http-equiv="Content-Security-Policy"'));
  });
  it('links the bundle by nonce and both stylesheets', () => {
    assert.ok(html.includes('<script nonce="abc123==" src="https://webview.example/media/dist/webview.js"></script>'));
    assert.ok(html.includes('href="https://webview.example/media/chat.css"'));
    assert.ok(html.includes('href="https://webview.example/media/render.css"'));
    assert.ok(html.includes('href="https://webview.example/media/dist/codicons/codicon.css"'));
    assert.ok(contentSecurityPolicy('https://webview.example', 'n').includes('font-src https://webview.example'), 'the codicon font may load');
    assert.equal((html.match(/<script/g) ?? []).length, 1);
  });
});

describe('side bar placeholder HTML', () => {
  const html = placeholderHtml({
    cspSource: 'https://webview.example',
    nonce: 'n0nce',
    chatCssUri: 'https://webview.example/media/chat.css',
    codiconCssUri: 'https://webview.example/media/dist/codicons/codicon.css',
    text: 'The chat is open in the <editor>.',
    buttonLabel: 'Move Chat to Side Bar',
  });
  it('has the strict CSP, one nonce script that posts only bringBack, and escaped text', () => {
    assert.ok(html.includes(`content="${contentSecurityPolicy('https://webview.example', 'n0nce').replace(/'/g, "'")}"`));
    assert.equal((html.match(/<script/g) ?? []).length, 1);
    assert.ok(html.includes('<script nonce="n0nce">'));
    assert.match(html, /postMessage\(\{ type: 'bringBack' \}\)/);
    assert.ok(html.includes('The chat is open in the &lt;editor&gt;.'));
    assert.ok(html.includes('Move Chat to Side Bar'));
  });
});
