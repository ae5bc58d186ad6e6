// Choosing the rules for a send (chooseRules: what a send runs on every message) with 200 rule
// files in the workspace, in every format: 40 folder AGENTS.md and CLAUDE.md, 160 pattern,
// always-apply and description rules of Copilot, Claude Code, Cursor, Continue and Cline. The files
// are read once (readRules, as on start and on change); each send is timed with 5 request files
// (attached files, the selection's, the active editor's). Prints the read time and p50, p95, p99
// and the largest send in milliseconds, wall time and the process's CPU time (on a loaded machine
// the wall time waits for a core), and the load; the last line is JSON, for scripts. Goal: p95 ≤ 5 ms.
//
//   npm run bench:rules            2,000 sends
//   npm run bench:rules -- 10000   other counts
import { availableParallelism, loadavg } from 'node:os';
import { chooseRules, readRules, requestRules, rulesText, type RuleSource } from '../../src/core/rules';

const SENDS = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 2_000;
const body = (i: number) => `# Rule ${i}\n\n${'- Keep functions small and name them for what they do.\n'.repeat(40)}`;
const langs = ['ts', 'tsx', 'py', 'go', 'rs', 'java', 'md', 'css'];

function workspace(): RuleSource[] {
  const out: RuleSource[] = [];
  for (let i = 0; i < 20; i++) out.push({ path: `packages/p${i}/AGENTS.md`, content: body(i) });
  for (let i = 0; i < 20; i++) out.push({ path: `packages/p${i}/src/CLAUDE.md`, content: body(i) });
  for (let i = 0; i < 40; i++) {
    const l = langs[i % langs.length];
    out.push({ path: `.github/instructions/r${i}.instructions.md`, content: `---\napplyTo: "**/*.${l}, packages/p${i % 20}/**"\n---\n${body(i)}` });
  }
  for (let i = 0; i < 40; i++) {
    const fm = i % 4 === 0 ? 'alwaysApply: true' : i % 4 === 1 ? `description: Use for topic ${i}\nalwaysApply: false` : `globs: src/**/*.${langs[i % langs.length]}, test/**/*.{ts,tsx}\nalwaysApply: false`;
    out.push({ path: `.cursor/rules/r${i}.mdc`, content: `---\n${fm}\n---\n${body(i)}` });
  }
  for (let i = 0; i < 30; i++) out.push({ path: `.claude/rules/r${i}.md`, content: `---\npaths:\n  - "packages/p${i % 20}/src/**/*.ts"\n  - "*.${langs[i % langs.length]}"\n---\n${body(i)}` });
  for (let i = 0; i < 30; i++) out.push({ path: `.continue/rules/r${i}.md`, content: `---\nname: R${i}\nglobs: ["**/*.${langs[i % langs.length]}", "!**/*.test.ts"]\n---\n${body(i)}` });
  for (let i = 0; i < 20; i++) out.push({ path: `.clinerules/r${i}.md`, content: `---\npaths: ["src/components/**", "packages/p${i}/**"]\n---\n${body(i)}` });
  return out;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const sources = workspace();
const t0 = performance.now();
const rules = readRules(sources);
const readMs = performance.now() - t0;
const requests = Array.from({ length: SENDS }, (_, i) => [
  `packages/p${i % 20}/src/module${i % 7}.ts`,
  `packages/p${(i + 3) % 20}/src/components/View${i % 5}.tsx`,
  `src/lib/file${i % 11}.${langs[i % langs.length]}`,
  `test/unit/case${i % 13}.test.ts`,
  `docs/page${i % 3}.md`,
]);
const off = new Set([rules[3].id, rules[50].id]);
let sink = 0;
for (let i = 0; i < 300; i++) sink += chooseRules(rules, { files: requests[i % SENDS], off }).bytes; // warm-up
const times = new Array<number>(SENDS);
const cpu = new Array<number>(SENDS);
let sent = 0;
for (let i = 0; i < SENDS; i++) {
  const c = process.cpuUsage();
  const s = performance.now();
  const choice = chooseRules(rules, { files: requests[i], off });
  times[i] = performance.now() - s;
  const used = process.cpuUsage(c);
  cpu[i] = (used.user + used.system) / 1000;
  sink += choice.bytes;
  sent += choice.sent.length;
}
times.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
const r = {
  ruleFiles: rules.length,
  sends: SENDS,
  readMs: +readMs.toFixed(1),
  rulesSentAvg: +(sent / SENDS).toFixed(1),
  p50ms: +percentile(times, 50).toFixed(3),
  p95ms: +percentile(times, 95).toFixed(3),
  p99ms: +percentile(times, 99).toFixed(3),
  maxMs: +times[times.length - 1].toFixed(3),
  cpuP50ms: +percentile(cpu, 50).toFixed(3),
  cpuP95ms: +percentile(cpu, 95).toFixed(3),
  loadAverage: +loadavg()[0].toFixed(1),
  cores: availableParallelism(),
};
console.log(`${r.ruleFiles} rule files read in ${r.readMs} ms; ${SENDS} sends of 5 files, ${r.rulesSentAvg} rules sent on average`);
console.log(`chooseRules  p50 ${r.p50ms} ms  p95 ${r.p95ms} ms  p99 ${r.p99ms} ms  max ${r.maxMs} ms  (goal: p95 ≤ 5 ms)`);
console.log(`  its CPU time: p50 ${r.cpuP50ms} ms  p95 ${r.cpuP95ms} ms (load average ${r.loadAverage} on ${r.cores} cores)`);
// Building the text of the sent rules, once a send goes (not part of the choice).
const build: number[] = [];
for (let i = 0; i < Math.min(SENDS, 500); i++) {
  const choice = chooseRules(rules, { files: requests[i], off });
  const s = performance.now();
  sink += rulesText(choice).length;
  build.push(performance.now() - s);
}
build.sort((a, b) => a - b);
console.log(`rulesText    p50 ${percentile(build, 50).toFixed(3)} ms  p95 ${percentile(build, 95).toFixed(3)} ms  (the sent rules' text, built once a send goes)`);
// What the extension runs for a request (RulesService.forRequest): the choice, the text and each sent rule's reason.
const whole: number[] = [];
const wholeCpu: number[] = [];
for (let i = 0; i < SENDS; i++) {
  const c = process.cpuUsage();
  const s = performance.now();
  sink += requestRules(rules, { files: requests[i], off }, { path: 'AGENTS.md', why: 'always' }).text.length;
  whole.push(performance.now() - s);
  const used = process.cpuUsage(c);
  wholeCpu.push((used.user + used.system) / 1000);
}
whole.sort((a, b) => a - b);
wholeCpu.sort((a, b) => a - b);
const wholeP95 = +percentile(whole, 95).toFixed(3);
console.log(`requestRules p50 ${percentile(whole, 50).toFixed(3)} ms  p95 ${wholeP95} ms  (what a request runs: the choice, the text, the reasons; goal: p95 ≤ 5 ms)`);
console.log(`  its CPU time: p50 ${percentile(wholeCpu, 50).toFixed(3)} ms  p95 ${percentile(wholeCpu, 95).toFixed(3)} ms`);
if (sink < 0) console.log(sink);
console.log(JSON.stringify({ ...r, requestRulesP95ms: wholeP95 }));
