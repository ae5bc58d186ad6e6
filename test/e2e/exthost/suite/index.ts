// Runs the extension-host test suite with mocha and returns the results. Two ways in:
// - code-server (run-code-server.ts) has no extensionTestsPath in its remote extension
//   host, so a small harness extension (harness.ts, bundled with this module and mocha by
//   bundle.ts) calls runSuite() on activation and writes the results to a file the runner
//   reads;
// - VS Code desktop runs extension.test.ts itself through @vscode/test-cli (.vscode-test.mjs),
//   which brings its own mocha runner.
import Mocha from 'mocha';
import { reported } from './figures';

export interface TestResult {
  /** Titles from the outermost describe to the test (or hook) itself. */
  titles: string[];
  state: 'passed' | 'failed';
  /** For a failure: the error's message and stack. */
  error?: string;
}

export interface SuiteResults {
  passed: number;
  failed: number;
  tests: TestResult[];
  /** Measured figures (see figures.ts), printed after the results. */
  figures: string[];
}

function titlePath(runnable: Mocha.Runnable): string[] {
  return runnable.titlePath().filter((t) => t !== '');
}

/** Benchmarks run in the extension host instead of the suite (never by the suite itself). */
const BENCHES: Record<string, () => Promise<unknown>> = {
  context: () => import('../../../../bench/context/hashMenu.exthost'),
};

/**
 * `grep`: only the tests whose full title matches (mocha's --grep), e.g. `activation`;
 * `bench`: the benchmark of that name (BENCHES) alone, none of the suite's tests.
 */
export async function runSuite(options: { grep?: string; bench?: string } = {}): Promise<SuiteResults> {
  // The spec reporter writes to the extension host's console (VS Code desktop shows it);
  // the results returned here are what the code-server runner prints.
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec', ...(options.grep ? { grep: options.grep } : {}) });
  if (options.bench) {
    const load = BENCHES[options.bench];
    if (!load) throw new Error(`no benchmark named ${options.bench} (known: ${Object.keys(BENCHES).join(', ')})`);
    mocha.suite.emit('pre-require', globalThis, options.bench, mocha);
    await load();
  } else await loadSuite(mocha);
  return run(mocha);
}

async function loadSuite(mocha: Mocha): Promise<void> {
  mocha.suite.emit('pre-require', globalThis, 'extension.test', mocha);
  await import('./extension.test');
  mocha.suite.emit('pre-require', globalThis, 'security.test', mocha);
  await import('./security.test');
  mocha.suite.emit('pre-require', globalThis, 'lmProvider.test', mocha);
  await import('./lmProvider.test');
  mocha.suite.emit('pre-require', globalThis, 'instructions.test', mocha);
  await import('./instructions.test');
  mocha.suite.emit('pre-require', globalThis, 'participant.test', mocha);
  await import('./participant.test');
  mocha.suite.emit('pre-require', globalThis, 'surfaces.test', mocha);
  await import('./surfaces.test');
  mocha.suite.emit('pre-require', globalThis, 'problemHelp.test', mocha);
  await import('./problemHelp.test');
  mocha.suite.emit('pre-require', globalThis, 'inlineEdit.test', mocha);
  await import('./inlineEdit.test');
  mocha.suite.emit('pre-require', globalThis, 'inlineEditSave.test', mocha);
  await import('./inlineEditSave.test');
  mocha.suite.emit('pre-require', globalThis, 'promptFiles.test', mocha);
  await import('./promptFiles.test');
  mocha.suite.emit('pre-require', globalThis, 'rules.test', mocha);
  await import('./rules.test');
  mocha.suite.emit('pre-require', globalThis, 'changes.test', mocha);
  await import('./changes.test');
  mocha.suite.emit('pre-require', globalThis, 'codebase.test', mocha);
  await import('./codebase.test');
  mocha.suite.emit('pre-require', globalThis, 'contextRanges.test', mocha);
  await import('./contextRanges.test');
  mocha.suite.emit('pre-require', globalThis, 'hashMenu.test', mocha);
  await import('./hashMenu.test');
}

async function run(mocha: Mocha): Promise<SuiteResults> {
  const tests: TestResult[] = [];
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on('pass', (t: Mocha.Test) => tests.push({ titles: titlePath(t), state: 'passed' }));
    runner.on('fail', (t: Mocha.Runnable, err: unknown) => {
      const e = err instanceof Error ? `${err.stack ?? err.message}` : String(err);
      tests.push({ titles: titlePath(t), state: 'failed', error: e });
    });
  });
  return {
    passed: tests.filter((t) => t.state === 'passed').length,
    failed: tests.filter((t) => t.state === 'failed').length,
    tests,
    figures: reported(),
  };
}
