import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { DEMO_KEY, type RequestLogEntry } from '../../server/fixtures';
import { isLoopback, startReferenceServer } from '../../server/server';
import { get, parseSse, postChat, readAll, useServer, userMessage } from './helpers';

function control(url: string, path: string, body?: unknown): Promise<Response> {
  return fetch(url + '/__control/' + path, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
}

describe('reference server: control endpoints', () => {
  const ctx = useServer();

  it('POST /__control/fault queues a fault without a key; GET /__control/faults lists it', async () => {
    const res = await control(ctx.s.url, 'fault', { kind: 'status', status: 503, times: 2 });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { ok: boolean; pending: number };
    assert.deepEqual([body.ok, body.pending], [true, 1]);
    const pending = (await (await fetch(ctx.s.url + '/__control/faults')).json()) as Array<Record<string, unknown>>;
    assert.deepEqual(pending, [{ kind: 'status', status: 503, times: 2 }]);
    const chat = await postChat(ctx.s, userMessage('x'));
    assert.equal(chat.status, 503);
    await chat.arrayBuffer();
    assert.deepEqual(ctx.s.control.pendingFaults(), [{ kind: 'status', status: 503, times: 1 }]);
  });

  it('POST /__control/fault rejects an invalid fault with 400 and a reason', async () => {
    const res = await control(ctx.s.url, 'fault', { kind: 'drop-mid-stream', afterChunks: 'two' });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { ok: boolean; error: string };
    assert.equal(body.ok, false);
    assert.match(body.error, /afterChunks/);
  });

  it('GET /__control/requests returns the log: method, path, body, hasKey, status, at', async () => {
    await (await postChat(ctx.s, { messages: [{ role: 'user', content: 'logged' }] })).arrayBuffer();
    await (await get(ctx.s, '/ai-model', null)).arrayBuffer();
    await (await postChat(ctx.s, 'not json')).arrayBuffer();
    const log = (await (await fetch(ctx.s.url + '/__control/requests')).json()) as RequestLogEntry[];
    assert.equal(log.length, 3, 'control requests are not logged');
    assert.deepEqual(
      log.map(({ method, path, body, hasKey, status }) => ({ method, path, body, hasKey, status })),
      [
        { method: 'POST', path: '/chat', body: { messages: [{ role: 'user', content: 'logged' }] }, hasKey: true, status: 200 },
        { method: 'GET', path: '/ai-model', body: null, hasKey: false, status: 401 },
        { method: 'POST', path: '/chat', body: null, hasKey: true, status: 400 },
      ],
    );
    for (const e of log) assert.ok(!Number.isNaN(Date.parse(e.at)));
    assert.ok(!JSON.stringify(log).includes(DEMO_KEY));
    assert.deepEqual(ctx.s.control.requests(), log);
  });

  it('POST /__control/balance sets a balance and answers with it', async () => {
    const res = await control(ctx.s.url, 'balance', { key: DEMO_KEY, regular: 3, daily: 1 });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { ok: boolean; balance: { totalBalance: number } };
    assert.equal(body.balance.totalBalance, 4);
    const chat = await postChat(ctx.s, { ...userMessage('x'), model: 'deep-think' });
    assert.equal(chat.status, 402);
    assert.equal(((await chat.json()) as { creditsRemaining: number }).creditsRemaining, 4);
  });

  it('POST /__control/balance rejects a body without key', async () => {
    const res = await control(ctx.s.url, 'balance', { regular: 3 });
    assert.equal(res.status, 400);
    await res.arrayBuffer();
  });

  it('POST /__control/config changes chunking; GET returns it', async () => {
    const res = await control(ctx.s.url, 'config', { chunkSize: 100, chunkDelayMs: 0 });
    assert.equal(res.status, 200);
    const cfg = (await (await fetch(ctx.s.url + '/__control/config')).json()) as Record<string, unknown>;
    assert.deepEqual(cfg, { chunkSize: 100, chunkDelayMs: 0, framing: 'sse' });
    const chat = await postChat(ctx.s, { ...userMessage('x len:1000'), stream: true });
    const { events } = parseSse((await readAll(chat)).text);
    const sizes = events.filter((e) => e.event === '0').map((e) => (e.data as string).length);
    assert.ok(sizes.slice(0, -1).every((n) => n >= 99 && n <= 100), String(sizes));
  });

  it('POST /__control/reset restores balances, faults, log and config', async () => {
    await (await postChat(ctx.s, { ...userMessage('x'), model: 'deep-think' })).arrayBuffer();
    ctx.s.control.injectFault({ kind: 'status', status: 500 });
    ctx.s.control.configure({ chunkSize: 3 });
    const res = await control(ctx.s.url, 'reset', {});
    assert.equal(res.status, 200);
    await res.arrayBuffer();
    assert.deepEqual(ctx.s.control.requests(), []);
    assert.deepEqual(ctx.s.control.pendingFaults(), []);
    assert.equal(ctx.s.control.config().chunkSize, 24);
    const bal = (await (await get(ctx.s, '/user/balance')).json()) as { balance: { totalBalance: number } };
    assert.equal(bal.balance.totalBalance, 1000);
  });

  it('unknown control operation: 404; control endpoints answer without a key', async () => {
    const res = await control(ctx.s.url, 'nothing', {});
    assert.equal(res.status, 404);
    await res.arrayBuffer();
  });

  it('control endpoints are served only to loopback clients', async () => {
    assert.equal(isLoopback('127.0.0.1'), true);
    assert.equal(isLoopback('::1'), true);
    assert.equal(isLoopback('::ffff:127.0.0.1'), true);
    assert.equal(isLoopback('192.0.2.2'), false);
    assert.equal(isLoopback(undefined), false);
    // When the machine has a non-loopback IPv4 address, check it end to end.
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal);
    if (!external) return;
    const s = await startReferenceServer({ port: 0, host: '0.0.0.0', quiet: true });
    try {
      const url = `http://${external.address}:${s.port}`;
      const res = await fetch(url + '/__control/reset', { method: 'POST' });
      assert.equal(res.status, 404);
      await res.arrayBuffer();
      const ok = await fetch(url + '/ai-model', { headers: { 'x-api-key': DEMO_KEY } });
      assert.equal(ok.status, 200, 'service endpoints stay reachable');
      await ok.arrayBuffer();
    } finally {
      await s.close();
    }
  });
});

describe('reference server: lifecycle', () => {
  it('close() ends an open stream and resolves', async () => {
    const s = await startReferenceServer({ port: 0, quiet: true, chunkDelayMs: 50 });
    const res = await postChat(s, { ...userMessage('long len:100000'), stream: true });
    const reader = res.body!.getReader();
    await reader.read();
    await s.close();
    let failed = false;
    try {
      for (;;) if ((await reader.read()).done) break;
    } catch {
      failed = true;
    }
    assert.equal(failed, true, 'the stream was cut by close()');
    await assert.rejects(fetch(s.url + '/ai-model'));
    assert.equal(s.control.requests()[0].clientClosed, undefined, 'a server close is not a client close');
  });

  it('port 0 gives distinct free ports; options set chunk size', async () => {
    const [a, b] = await Promise.all([
      startReferenceServer({ port: 0, quiet: true, chunkDelayMs: 0, chunkSize: 7 }),
      startReferenceServer({ port: 0, quiet: true }),
    ]);
    try {
      assert.notEqual(a.port, b.port);
      assert.equal(a.control.config().chunkSize, 7);
      assert.equal(b.control.config().chunkDelayMs, 15);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('the CLI prints URL, demo key and control hint, serves, and exits 0 on SIGTERM', async () => {
    const root = join(__dirname, '..', '..', '..');
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/server/main.ts', '--port', '0', '--chunk-delay', '0', '--quiet'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: string) => {
        out += d;
        if (/__control\/fault/.test(out)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${out}`)));
    });
    try {
      await ready;
      const url = /Reference server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      assert.ok(url, out);
      assert.match(out, /Demo API key: sk-demo-0000000000000001/);
      const res = await fetch(url + '/subscription', { headers: { 'x-api-key': DEMO_KEY } });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      assert.equal(code, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
