// `npm run test:e2e:soak -- --runs N [mocha arguments, e.g. --grep "Journey (03|07):"]`: the
// end-to-end tier N times in a row, each run with one CPU core kept busy by a spinning child
// process, then each journey's pass count over the runs ("5/5 Journey 3: …"). A journey passes a
// run when it ran there and every one of its tests passed. Exits non-zero if any journey failed
// (or did not run) in any run. No retries: a journey gets one go per run.
//
// Each run takes the machine's e2e lock (/tmp/aichat-e2e.lock, or E2E_LOCK) for itself only, so
// that other runs of the tier can go in between; the load runs only while the lock is held.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const LOCK = process.env.E2E_LOCK ?? '/tmp/aichat-e2e.lock';

interface Result {
  journey: string;
  title: string;
  state: string;
  ms: number;
}

function parseArgs(argv: string[]): { runs: number; mocha: string[] } {
  let runs = 5;
  const mocha: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--runs') runs = Number(argv[++i]);
    else if (a.startsWith('--runs=')) runs = Number(a.slice('--runs='.length));
    else mocha.push(a);
  }
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs wants a whole number of runs from 1 up, not ${JSON.stringify(runs)}`);
  return { runs, mocha };
}

/** The journeys' titles (each file's top describe), in file order: those a crashed run did not get to. */
function journeyTitles(): string[] {
  const dir = path.join(ROOT, 'test', 'e2e', 'journeys');
  const titles: string[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.e2e.ts')).sort()) {
    const m = /describe\(\s*(['"`])(.*?)\1/.exec(readFileSync(path.join(dir, name), 'utf8'));
    if (m) titles.push(m[2].replace(/\\(.)/g, '$1'));
  }
  return titles;
}

/** The `--grep`/`-g` pattern passed on to mocha, if any (to know which journeys a run should have). */
function grepOf(args: string[]): RegExp | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--grep' || args[i] === '-g') return new RegExp(args[i + 1]);
    if (args[i].startsWith('--grep=')) return new RegExp(args[i].slice('--grep='.length));
  }
  return undefined;
}

/**
 * One run of the tier under the lock: `flock` waits for the lock, then a shell starts the load (a
 * Node process spinning), runs scripts/e2e.sh (build, package, journeys) and stops the load.
 */
function runOnce(resultsFile: string, mocha: string[]): Promise<number> {
  const script = [
    `"${process.execPath}" -e 'for (;;) {}' &`,
    'load=$!',
    "trap 'kill $load 2>/dev/null' EXIT",
    'echo "  (lock taken; one core kept busy by process $load)"',
    'bash scripts/e2e.sh "$@"',
  ].join('\n');
  return new Promise((resolve) => {
    const child = spawn('flock', [LOCK, 'bash', '-c', script, 'e2e-soak', ...mocha], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, E2E_RESULTS: resultsFile },
    });
    const stop = () => child.kill('SIGTERM');
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

function readResults(file: string): Result[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Result);
}

async function main(): Promise<void> {
  const { runs, mocha } = parseArgs(process.argv.slice(2));
  const grep = grepOf(mocha);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ai-chat-soak-'));
  const perRun: Array<{ exit: number; results: Result[]; seconds: number }> = [];
  try {
    for (let r = 1; r <= runs; r++) {
      console.log(`\n=== e2e soak: run ${r} of ${runs} (waiting for ${LOCK})`);
      const file = path.join(dir, `run-${r}.jsonl`);
      const t0 = Date.now();
      const exit = await runOnce(file, mocha);
      const results = readResults(file);
      const seconds = Math.round((Date.now() - t0) / 1000);
      perRun.push({ exit, results, seconds });
      const failed = results.filter((x) => x.state !== 'passed').length;
      console.log(`=== e2e soak: run ${r} of ${runs}: exit ${exit}, ${results.length - failed} tests passed, ${failed} failed (${seconds} s with the wait for the lock)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // Every journey any run reached; those of the files (grep-filtered) when a run crashed early.
  const seen = new Set(perRun.flatMap((p) => p.results.map((x) => x.journey)));
  const journeys = [...new Set([...journeyTitles().filter((t) => !grep || grep.test(t)), ...seen])];
  const order = (t: string) => Number(/Journey (\d+)/.exec(t)?.[1] ?? 1e9);
  journeys.sort((a, b) => order(a) - order(b));

  let allPassed = true;
  console.log(`\n=== e2e soak: each journey's passes over ${runs} run(s) with one core busy`);
  for (const journey of journeys) {
    let passes = 0;
    const failures: string[] = [];
    perRun.forEach((p, i) => {
      const mine = p.results.filter((x) => x.journey === journey);
      const bad = mine.filter((x) => x.state !== 'passed');
      if (mine.length > 0 && bad.length === 0) passes++;
      else failures.push(`run ${i + 1}: ${mine.length === 0 ? 'did not run' : bad.map((x) => x.title).join('; ')}`);
    });
    if (passes < runs) allPassed = false;
    console.log(`${passes}/${runs} ${journey}${failures.length ? `\n      failed in ${failures.join('\n      failed in ')}` : ''}`);
  }
  const crashed = perRun.filter((p) => p.exit !== 0 && p.results.every((x) => x.state === 'passed'));
  if (crashed.length) {
    allPassed = false;
    console.log(`${crashed.length} run(s) exited non-zero with no failed test recorded (a hook or the start failed)`);
  }
  console.log(`run times (s): ${perRun.map((p) => p.seconds).join(', ')}`);
  process.exit(allPassed ? 0 : 1);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(2);
});
