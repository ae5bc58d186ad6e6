// Entry point of the extension-host test suite, bundled with mocha by
// test/e2e/exthost/bundle.ts (the extension host loads one JavaScript file; `vscode` is
// the only module left to it). Two callers:
// - VS Code desktop (@vscode/test-electron, run-electron.ts) requires this module as
//   extensionTestsPath and calls run(), which fails when a test fails;
// - code-server (run-code-server.ts) has no extensionTestsPath in its remote extension
//   host, so a small harness extension calls runSuite() on activation and writes the
//   returned results to a file the runner reads.
import Mocha from 'mocha';

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
}

function titlePath(runnable: Mocha.Runnable): string[] {
  return runnable.titlePath().filter((t) => t !== '');
}

export async function runSuite(): Promise<SuiteResults> {
  // The spec reporter writes to the extension host's console (VS Code desktop shows it);
  // the results returned here are what the code-server runner prints.
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec' });
  mocha.suite.emit('pre-require', globalThis, 'extension.test', mocha);
  await import('./extension.test');
  mocha.suite.emit('pre-require', globalThis, 'security.test', mocha);
  await import('./security.test');
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
  };
}

/** What VS Code desktop calls (extensionTestsPath): throws when anything failed. */
export async function run(): Promise<void> {
  const r = await runSuite();
  const line = `${r.passed} passed, ${r.failed} failed`;
  console.log(line);
  if (r.failed > 0 || r.passed === 0) throw new Error(line);
}
