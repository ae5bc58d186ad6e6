// Log levels: no message text at info, warning or error level; the key at no level.
import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChatServiceClient, type Logger } from '../../../src/client';
import { holdsSecret, logLines, type LogLevel } from '../../../src/extension/platform/redact';

const KEY = 'sk-live-9f8e7d6c5b4a39281706';
const TEXT = 'my private question about payroll.ts';

/** A logger that writes through logLines like the extension's channel, keeping every line. */
function recordingLogger(secrets: string[]): { logger: Required<Logger>; lines: Array<{ level: LogLevel; line: string }> } {
  const lines: Array<{ level: LogLevel; line: string }> = [];
  const at = (level: LogLevel) => (msg: string, data?: Record<string, unknown>) => lines.push(...logLines(level, msg, data, secrets));
  return { logger: { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

describe('log levels', () => {
  it('text fields go to a trace line at info, warning and error; debug and trace keep them', () => {
    for (const level of ['info', 'warn', 'error'] as const) {
      const out = logLines(level, 'Command failed', { kind: 'server', message: TEXT, href: 'https://x.example/?q=secret' }, []);
      assert.equal(out[0].level, level);
      assert.doesNotMatch(out[0].line, /payroll|secret/);
      assert.match(out[0].line, /"kind":"server"/);
      assert.equal(out[1].level, 'trace');
      assert.match(out[1].line, /payroll/);
    }
    for (const level of ['debug', 'trace'] as const) {
      const out = logLines(level, 'detail', { message: TEXT }, []);
      assert.equal(out.length, 1);
      assert.match(out[0].line, /payroll/);
    }
  });

  it('the key never appears at any level, in the message, the data or a header-like string', () => {
    for (const level of ['trace', 'debug', 'info', 'warn', 'error'] as const) {
      const out = logLines(level, `failed with ${KEY}`, { message: `x-api-key: ${KEY}`, nested: { apiKey: KEY, list: [KEY] } }, [KEY]);
      for (const l of out) assert.ok(!l.line.includes(KEY), `${l.level}: ${l.line}`);
    }
  });

  describe('the client against a service that quotes the request in its errors', () => {
    let server: http.Server;
    let base: string;
    before(async () => {
      server = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          if (req.url?.endsWith('/chat') && body.includes('"stream":true')) {
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            res.end(`data: {"event":"f","messageId":"m"}\n\ndata: not json ${TEXT}\n\n`);
            return;
          }
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ success: false, code: 'INVALID_INPUT', error: `Rejected: ${TEXT} (key ${KEY})` }));
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise((r) => server.close(r)));

    it('an error response: its text only at trace, the key nowhere', async () => {
      const { logger, lines } = recordingLogger([KEY]);
      const client = new ChatServiceClient({ baseUrl: base, apiKey: () => KEY, logger, maxRetries: 0 });
      await assert.rejects(client.chat({ messages: [{ role: 'user', content: TEXT }] }));
      await client.close();
      const loud = lines.filter((l) => l.level === 'info' || l.level === 'warn' || l.level === 'error');
      assert.ok(loud.length > 0, 'the failure is logged');
      for (const l of loud) assert.doesNotMatch(l.line, /payroll/, l.line);
      assert.ok(lines.some((l) => l.level === 'trace' && l.line.includes('payroll')), 'the detail is kept at trace');
      for (const l of lines) assert.ok(!l.line.includes(KEY), l.line);
    });

    it('a malformed stream frame: its excerpt only at trace', async () => {
      const { logger, lines } = recordingLogger([KEY]);
      const client = new ChatServiceClient({ baseUrl: base, apiKey: () => KEY, logger, maxRetries: 0 });
      const stream = await client.chatStream({ messages: [{ role: 'user', content: 'hi' }] });
      await assert.rejects(async () => {
        for await (const ev of stream) void ev;
      });
      await client.close();
      const loud = lines.filter((l) => l.level === 'info' || l.level === 'warn' || l.level === 'error');
      assert.ok(loud.some((l) => l.level === 'error'), 'the failure is logged as an error');
      for (const l of loud) assert.doesNotMatch(l.line, /payroll/, l.line);
      assert.ok(lines.some((l) => l.level === 'trace' && l.line.includes('payroll')));
    });
  });
});

describe('a text holding a key', () => {
  it('is found by the key itself, anywhere in the text, and only by a known key', () => {
    const key = 'sk-demo-1234567890abcdef';
    assert.equal(holdsSecret(`AI_CHAT_KEY=${key}\n`, [key]), true);
    assert.equal(holdsSecret(`x${key}y`, ['other-key-000', key]), true);
    assert.equal(holdsSecret('a key looks like sk-xxxxxxxxxxxxxxxx', [key]), false, 'a key-shaped string that is not a known key');
    assert.equal(holdsSecret(`${key.slice(0, -1)}x and more`, [key]), false, 'a start of the key inside a line');
    assert.equal(holdsSecret(`${key.slice(0, 11)}`, [key]), false, 'a short start of the key');
    assert.equal(holdsSecret('anything', []), false);
    assert.equal(holdsSecret('abc', ['', 'ab']), false, 'empty and very short secrets never match');
  });
});
