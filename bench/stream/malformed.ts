// A streamed reply that carries many malformed or unknown parts (a broken or hostile service),
// read by the real client from a loopback server and assembled as the chat does it. For each
// count of parts it prints the time from the request to the assembled reply, the longest stall of
// the event loop meanwhile (what the other extensions in the host would wait), the warnings
// logged and the problems kept. The last line is JSON, for scripts.
//
//   npm run bench:stream            10k, 40k and 100k malformed start parts (`f`), then unknown kinds
//   npm run bench:stream -- 250000  other counts
import http from 'node:http';
import { ChatServiceClient } from '../../src/client';
import { ReplyAssembler, activityOf } from '../../src/client/reply';

type Kind = 'f' | 'unknown' | 'side';
const counts = process.argv.slice(2).map(Number).filter((n) => Number.isFinite(n) && n > 0);
const COUNTS = counts.length ? counts : [10_000, 40_000, 100_000];

const part: Record<Kind, (i: number) => string> = {
  f: (i) => `{"event":"f","messageId":${i}}\n`,
  unknown: (i) => `{"event":"zz${i}"}\n`,
  side: (i) => `{"event":"h","title":"t${i}"}\n`,
};

interface Figures {
  kind: Kind;
  parts: number;
  mb: number;
  ms: number;
  stallMs: number;
  ending: string;
  warnings: number;
  problemsKept: number;
  problemCount: number;
}

async function run(kind: Kind, n: number): Promise<Figures> {
  let bytes = 0;
  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/x-ndjson');
    res.write('{"event":"f","messageId":"m"}\n{"event":"0","data":"hi"}\n');
    let i = 0;
    const pump = (): void => {
      while (i < n) {
        let chunk = '';
        for (let k = 0; k < 1000 && i < n; k++) chunk += part[kind](i++);
        bytes += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end('{"event":"e","finishReason":"stop"}\n{"event":"d","finishReason":"stop"}\n');
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  let warnings = 0;
  const logger = { debug() {}, info() {}, warn() { warnings++; }, error() {} };
  const client = new ChatServiceClient({ baseUrl: url, apiKey: () => 'sk-bench-123456', logger, maxRetries: 0 });
  let stallMs = 0;
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last - 10);
    last = now;
  }, 10);
  const t0 = performance.now();
  const reply = new ReplyAssembler();
  let ending = 'complete';
  try {
    const stream = await client.chatStream({ model: 'm', messages: [{ id: 'msg_001', role: 'user', content: 'go' }] } as never);
    for await (const ev of stream) {
      activityOf(ev);
      reply.push(ev);
    }
    ending = reply.outcome.ending;
  } catch (e) {
    ending = `error: ${(e as Error).message.slice(0, 80)}`;
  }
  const ms = performance.now() - t0;
  clearInterval(tick);
  await client.close();
  server.close();
  const outcome = reply.outcome;
  return { kind, parts: n, mb: bytes / 1e6, ms, stallMs, ending, warnings, problemsKept: outcome.problems?.length ?? 0, problemCount: outcome.problemCount };
}

async function main(): Promise<void> {
  // Warm-up (first connection, compilation of each path), not printed.
  for (const kind of ['f', 'unknown', 'side'] as const) await run(kind, 5000);
  const all: Figures[] = [];
  for (const kind of ['f', 'unknown', 'side'] as const) {
    for (const n of COUNTS) {
      const r = await run(kind, n);
      all.push(r);
      console.log(
        `${String(n).padStart(7)} ${kind.padEnd(7)} parts (${r.mb.toFixed(1)} MB): ${Math.round(r.ms)} ms, longest event-loop stall ${Math.round(r.stallMs)} ms, reply ${r.ending}, warnings logged ${r.warnings}, problems kept ${r.problemsKept} of ${r.problemCount}`,
      );
    }
  }
  console.log(JSON.stringify(all.map((r) => ({ ...r, ms: Math.round(r.ms), stallMs: Math.round(r.stallMs), mb: Number(r.mb.toFixed(2)) }))));
}

void main();
