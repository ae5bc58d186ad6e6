// Bundles the extension-host suite into one CommonJS file the extension host can require:
// mocha is bundled in (an installed extension has no node_modules), `vscode` is left to
// the extension host.
import { build } from 'esbuild';
import path from 'node:path';
import { ROOT } from '../launcher';

export const SUITE_OUT = path.join(ROOT, '.cache', 'exthost', 'index.js');

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

/** The suite as extensionTestsPath (exports run()), for VS Code desktop. */
export function bundleSuite(): Promise<string> {
  return bundle(path.join(__dirname, 'suite', 'index.ts'), SUITE_OUT);
}

/** The harness extension's main module (exports activate()), for code-server. */
export function bundleHarness(outfile: string): Promise<string> {
  return bundle(path.join(__dirname, 'harness.ts'), outfile);
}
