// CLI of the reference server: `npm run server -- --port 8787 --chunk-size 24 --chunk-delay 20`.
import { DEMO_KEY, EMPTY_KEY, LOW_KEY } from './fixtures';
import { startReferenceServer, type ReferenceServerOptions } from './server';

function usage(): never {
  console.log(
    'Usage: npm run server -- [--port N] [--host H] [--chunk-size N] [--chunk-delay MS] [--quiet]\n' +
      'Defaults: port 8787 (or $PORT), host 127.0.0.1, chunk size 24 characters, chunk delay 15 ms.',
  );
  process.exit(0);
}

function parseArgs(argv: string[]): ReferenceServerOptions {
  const opts: ReferenceServerOptions = { port: process.env.PORT ? Number(process.env.PORT) : 8787 };
  const num = (name: string, v: string | undefined): number => {
    const n = Number(v);
    if (v === undefined || !Number.isInteger(n) || n < 0) {
      console.error(`${name} needs a non-negative integer, got ${v ?? 'nothing'}`);
      process.exit(2);
    }
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--port':
        opts.port = num(flag, value());
        break;
      case '--host':
        opts.host = value();
        break;
      case '--chunk-size':
        opts.chunkSize = Math.max(1, num(flag, value()));
        break;
      case '--chunk-delay':
        opts.chunkDelayMs = num(flag, value());
        break;
      case '--quiet':
        opts.quiet = true;
        break;
      case '--help':
      case '-h':
        return usage();
      default:
        console.error(`unknown option ${argv[i]}`);
        process.exit(2);
    }
  }
  if (opts.port === undefined || !Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
    console.error(`invalid port ${String(process.env.PORT)}`);
    process.exit(2);
  }
  return opts;
}

async function main(): Promise<void> {
  const server = await startReferenceServer(parseArgs(process.argv.slice(2)));
  console.log(`Reference server listening on ${server.url}`);
  console.log(`Demo API key: ${DEMO_KEY}   (low balance: ${LOW_KEY}, empty: ${EMPTY_KEY})`);
  console.log(
    `Inject faults: curl -X POST ${server.url}/__control/fault -d '{"kind":"status","status":429,"retryAfter":5}'` +
      `  (also /__control/reset, /__control/requests, /__control/balance, /__control/config)`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: closing`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'EADDRINUSE') console.error(`Port already in use (${e.message}); pick another with --port N, or --port 0 for a free one.`);
  else console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
