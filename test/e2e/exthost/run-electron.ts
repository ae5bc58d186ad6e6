// The extension-host suite in VS Code desktop via @vscode/test-electron, for machines that
// can download VS Code (this one cannot: see run-code-server.ts for the same suite here).
// Usage: npx tsx test/e2e/exthost/run-electron.ts (after npm run build)
import { runTests } from '@vscode/test-electron';
import path from 'node:path';
import { ROOT } from '../launcher';
import { bundleSuite } from './bundle';

async function main(): Promise<void> {
  const extensionTestsPath = await bundleSuite();
  await runTests({
    extensionDevelopmentPath: ROOT,
    extensionTestsPath,
    launchArgs: [path.join(ROOT, 'test', 'e2e', 'fixtures', 'demo-project'), '--disable-extensions'],
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
