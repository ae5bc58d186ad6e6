// Bundles the extension-host suite into one CommonJS file the extension host can require:
// mocha is bundled in (an installed extension has no node_modules), `vscode` is left to
// the extension host.
import { build } from 'esbuild';
import path from 'node:path';
import { ROOT } from '../launcher';

/** Where .vscode-test.mjs (@vscode/test-cli) finds the suite's test files. */
export const CLI_OUT = path.join(ROOT, '.cache', 'exthost', 'cli', 'extension.test.js');

async function bundle(entry: string, outfile: string): Promise<string> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'error',
  });
  return outfile;
}

/** The suite's test file alone, for @vscode/test-cli (which brings mocha and its globals). */
export function bundleSuiteForCli(): Promise<string> {
  return bundle(path.join(__dirname, 'suite', 'extension.test.ts'), CLI_OUT);
}

/** The harness extension's main module (exports activate()), for code-server. */
export function bundleHarness(outfile: string): Promise<string> {
  return bundle(path.join(__dirname, 'harness.ts'), outfile);
}

// `tsx test/e2e/exthost/bundle.ts`: the test file for `vscode-test` (npm run test:exthost:desktop).
if (require.main === module) {
  bundleSuiteForCli().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
