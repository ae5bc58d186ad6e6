// Entry point of the extension-host test suite: VS Code requires this module in its
// extension host and calls run(). Bundled by test/e2e/exthost/bundle.ts (the extension
// host loads JavaScript), mocha is loaded from the repository's node_modules.
import { writeFileSync } from 'node:fs';
import Mocha from 'mocha';

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec' });
  mocha.suite.emit('pre-require', globalThis, 'extension.test', mocha);
  await import('./extension.test');
  const stats = await new Promise<{ passes: number; failures: number }>((resolve) => {
    const runner = mocha.run(() => resolve({ passes: runner.stats?.passes ?? 0, failures: runner.stats?.failures ?? 0 }));
  });
  const line = `${stats.passes} passed, ${stats.failures} failed`;
  console.log(line);
  // code-server's extension host has no exit code to hand back: the runner reads this file.
  const out = process.env.AI_CHAT_EXTHOST_RESULTS;
  if (out) writeFileSync(out, `${JSON.stringify(stats)}\n`);
  if (stats.failures > 0) throw new Error(line);
}
