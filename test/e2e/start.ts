// `npm start`: the extension in a real VS Code (code-server) in your browser, talking
// to the local reference server. Everything it starts is stopped by Ctrl+C.
// Options (environment): PORT (code-server, default 8080), SERVER_PORT (reference
// server, default 8787), START_DIR (profile folder, default .cache/start).
import path from 'node:path';
import { DEMO_KEY } from '../server/fixtures';
import { ROOT, startDemo, type Demo } from './launcher';

async function main(): Promise<void> {
  const started = Date.now();
  const log = (msg: string) => console.log(msg);
  let demo: Demo | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping code-server and the reference server...');
    await demo?.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGHUP', () => void stop(0));

  demo = await startDemo({
    dir: process.env.START_DIR ? path.resolve(process.env.START_DIR) : path.join(ROOT, '.cache', 'start'),
    codePort: Number(process.env.PORT ?? 8080),
    serverPort: Number(process.env.SERVER_PORT ?? 8787),
    log,
  });
  if (stopping) return;
  demo.code.process.once('exit', (code, signal) => {
    if (stopping) return;
    console.error(`code-server stopped unexpectedly (${code ?? signal}); see ${demo?.code.logFile}`);
    void stop(1);
  });

  const secs = Math.round((Date.now() - started) / 1000);
  console.log(`
Ready in ${secs} s.

  Open VS Code:      ${demo.code.url}
  Reference server:  ${demo.server.url}   (the extension's aiChat.baseUrl)
  Demo API key:      ${DEMO_KEY}

  In VS Code: press F1, run "AI Chat: Set API Key" and paste the demo key
  (stored in VS Code's secret storage, so only the first time), then F1 ->
  "AI Chat: Open Chat", or select code in demo-project/src and right-click ->
  "AI Chat: Send Selection".

Press Ctrl+C to stop everything.`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
