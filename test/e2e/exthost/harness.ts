// Main module of the test harness extension that run-code-server.ts builds and installs
// next to the packaged extension: on activation (after the extension it depends on) it
// runs the extension-host suite and writes the results as JSON to the file named in
// harness.json beside its package.json. It never exits the extension host: the runner
// reads the file and stops code-server.
import { writeFileSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import type * as vscode from 'vscode';
import { runSuite, type SuiteResults } from './suite/index';

export interface HarnessConfig {
  /** Where the results JSON goes (written whole, then renamed into place). */
  results: string;
  /** Only the tests whose title matches (EXTHOST_GREP of the runner). */
  grep?: string;
  /** A benchmark to run instead of the suite (EXTHOST_BENCH of the runner, e.g. `context`). */
  bench?: string;
}

export type HarnessOutput = SuiteResults | { error: string };

function write(file: string, out: HarnessOutput): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(out, null, 2)}\n`);
  renameSync(tmp, file);
}

export function activate(context: vscode.ExtensionContext): void {
  const config = JSON.parse(readFileSync(path.join(context.extensionPath, 'harness.json'), 'utf8')) as HarnessConfig;
  runSuite({ ...(config.grep ? { grep: config.grep } : {}), ...(config.bench ? { bench: config.bench } : {}) }).then(
    (results) => write(config.results, results),
    (err: unknown) => write(config.results, { error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
  );
}

export function deactivate(): void {}
