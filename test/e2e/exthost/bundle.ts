// Bundles the extension-host suite into one CommonJS file the extension host can require.
import { build } from 'esbuild';
import path from 'node:path';
import { ROOT } from '../launcher';

export const SUITE_OUT = path.join(ROOT, '.cache', 'exthost', 'index.js');

export async function bundleSuite(): Promise<string> {
  await build({
    entryPoints: [path.join(__dirname, 'suite', 'index.ts')],
    outfile: SUITE_OUT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return SUITE_OUT;
}
