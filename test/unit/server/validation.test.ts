import { strict as assert } from 'node:assert';
import { postChat, useServer, UUID_RE } from './helpers';

const ok = { role: 'user', content: 'hi' };

// [name, body (object or raw string), expected status, message pattern, details field]
const cases: Array<[string, unknown, number, RegExp, string]> = [
  ['body not an object', [ok], 400, /request body must be a JSON object, got array/, 'body'],
  ['messages missing', {}, 400, /^messages is required$/, 'messages'],
  ['messages not an array', { messages: 'hi' }, 400, /^messages must be an array, got string$/, 'messages'],
  ['messages empty', { messages: [] }, 400, /^messages must contain at least 1 item$/, 'messages'],
  ['message not an object', { messages: [ok, 'x'] }, 400, /^messages\[1\] must be an object, got string$/, 'messages[1]'],
  ['role missing', { messages: [{ content: 'x' }] }, 400, /^messages\[0\]\.role is required$/, 'messages[0].role'],
  ['bad role', { messages: [ok, { role: 'bot', content: 'x' }] }, 400, /^messages\[1\]\.role must be one of: user, system, assistant/, 'messages[1].role'],
  ['content missing', { messages: [{ role: 'user' }] }, 400, /^messages\[0\]\.content is required$/, 'messages[0].content'],
  ['content not a string', { messages: [{ role: 'user', content: 5 }] }, 400, /^messages\[0\]\.content must be a string, got number$/, 'messages[0].content'],
  ['id not a string', { messages: [{ ...ok, id: 7 }] }, 400, /^messages\[0\]\.id must be a string/, 'messages[0].id'],
  ['id pattern', { messages: [ok, { ...ok, id: 'msg_12g' }] }, 400, /^messages\[1\]\.id must match \^msg_\[0-9a-f\]\{3\}\$/, 'messages[1].id'],
  ['id pattern (uppercase)', { messages: [{ ...ok, id: 'msg_ABC' }] }, 400, /^messages\[0\]\.id must match/, 'messages[0].id'],
  ['duplicate id', { messages: [{ ...ok, id: 'msg_00a' }, { role: 'assistant', content: 'y', id: 'msg_00b' }, { ...ok, id: 'msg_00a' }] }, 400, /^messages\[2\]\.id must be unique: "msg_00a" is already used by messages\[0\]$/, 'messages[2].id'],
  ['model not a string', { messages: [ok], model: 3 }, 400, /^model must be a string/, 'model'],
  ['model pattern', { messages: [ok], model: 'turbo-v2' }, 400, /^model must match \^\[a-z-\]\+\$ \(got "turbo-v2"\)$/, 'model'],
  ['model unknown', { messages: [ok], model: 'gpt-nope' }, 400, /^model "gpt-nope" is not a known model$/, 'model'],
  ['model inactive', { messages: [ok], model: 'legacy-chat' }, 400, /^model "legacy-chat" is inactive$/, 'model'],
  ['model not text', { messages: [ok], model: 'pixel-art' }, 400, /^model "pixel-art" has type image; chat needs a text model$/, 'model'],
  ['stream not boolean', { messages: [ok], stream: 'yes' }, 400, /^stream must be a boolean, got string$/, 'stream'],
  ['search not boolean', { messages: [ok], search: 1 }, 400, /^search must be a boolean, got number$/, 'search'],
  ['search unsupported', { messages: [ok], search: true }, 400, /^search is not supported by model "swift-chat"$/, 'search'],
  ['temperature not a number', { messages: [ok], temperature: '1' }, 400, /^temperature must be a number, got string$/, 'temperature'],
  ['temperature below 0', { messages: [ok], temperature: -0.1 }, 400, /^temperature must be >= 0 \(got -0\.1\)$/, 'temperature'],
  ['temperature above 2', { messages: [ok], temperature: 2.5 }, 400, /^temperature must be <= 2 \(got 2\.5\)$/, 'temperature'],
  ['body not JSON', '{"messages": [', 400, /^request body is not valid JSON: /, 'body'],
  ['body empty', '', 400, /^request body is required$/, 'body'],
];

describe('reference server: POST /chat validation', () => {
  const ctx = useServer();

  for (const [name, body, status, pattern, field] of cases) {
    it(`rejects: ${name}`, async () => {
      const res = await postChat(ctx.s, body);
      assert.equal(res.status, status);
      const err = (await res.json()) as Record<string, unknown>;
      assert.equal(err.code, 'INVALID_INPUT');
      assert.equal(err.success, false);
      assert.match(String(err.error), pattern);
      assert.match(String(err.message), pattern);
      assert.match(String(err.details), new RegExp(`^field=${field.replace(/[[\].]/g, '\\$&')} rule=`));
      assert.match(String(err.traceId), UUID_RE);
    });
  }

  it('accepts the boundaries: temperature 0 and 2, search on deep-think, all roles, valid ids', async () => {
    for (const extra of [{ temperature: 0 }, { temperature: 2 }, { model: 'deep-think', search: true }]) {
      const res = await postChat(ctx.s, {
        messages: [
          { id: 'msg_000', role: 'system', content: 'be brief' },
          { id: 'msg_fff', role: 'user', content: 'q' },
          { role: 'assistant', content: 'a' },
          { id: 'msg_a1b', role: 'user', content: 'q2' },
        ],
        ...extra,
      });
      assert.equal(res.status, 200, JSON.stringify(extra));
      await res.arrayBuffer();
    }
  });

  it('rejects a non-JSON content type', async () => {
    const res = await postChat(ctx.s, JSON.stringify({ messages: [ok] }), { contentType: 'text/plain' });
    assert.equal(res.status, 400);
    const err = (await res.json()) as Record<string, unknown>;
    assert.equal(err.code, 'INVALID_INPUT');
    assert.match(String(err.error), /^content-type must be application\/json \(got "text\/plain"\)$/);
  });

  it('accepts application/json with a charset', async () => {
    const res = await postChat(ctx.s, { messages: [ok] }, { contentType: 'application/json; charset=utf-8' });
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  });

  it('rejects a body above 5 MB with 413 INVALID_INPUT', async () => {
    const big = JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(5 * 1024 * 1024 + 10) }] });
    const res = await postChat(ctx.s, big);
    assert.equal(res.status, 413);
    const err = (await res.json()) as Record<string, unknown>;
    assert.equal(err.code, 'INVALID_INPUT');
    assert.match(String(err.error), /at most 5242880 bytes/);
    assert.equal(ctx.s.control.requests().at(-1)?.body, null);
  });

  it('checks the key before the body', async () => {
    const res = await postChat(ctx.s, '{not json', { key: null });
    assert.equal(res.status, 401);
    await res.arrayBuffer();
  });

  it('charges nothing for a rejected request', async () => {
    await (await postChat(ctx.s, { messages: [] })).arrayBuffer();
    const bal = (await (await fetch(ctx.s.url + '/user/balance', { headers: { 'x-api-key': 'sk-demo-0000000000000001' } })).json()) as {
      balance: { totalBalance: number };
    };
    assert.equal(bal.balance.totalBalance, 1000);
  });
});
