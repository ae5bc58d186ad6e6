// `npm run bench:activation:node`: what activation costs in plain Node, without a VS Code: each
// of `--runs=` (default 9) fresh processes loads dist/extension.js (and the shared files it
// requires) with a stand-in for the `vscode` module whose every call returns at once, then calls
// activate(). Beside it, in the same run, the same for a module that registers one command. Prints
// the medians of loading and of activate(); the stand-in makes VS Code's own work free, so what
// is left is ours: reading, compiling and running our code. A benchmark: it asserts nothing.
// Builds dist/ first unless `--skip-build`; `--node=` runs another Node (VS Code's is newer).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const runs = Number(/^--runs=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--runs=')) ?? '')?.[1] ?? 9);
const root = path.resolve(__dirname, '../..');
/** `--node=` another Node (code-server's own, say), else this one. */
const nodeBin = process.argv.find((a) => a.startsWith('--node='))?.slice('--node='.length) ?? process.execPath;

/** Loads `main` with the stand-in, calls activate(), prints {"load":ms,"activate":ms}. */
const probe = `
const Module = require('node:module');
const handler = {
  get(t, p) {
    if (p === 'then') return undefined;
    if (p === Symbol.toPrimitive) return () => '';
    if (p === 'isTrusted') return true;
    if (p === 'workspaceFolders') return [];
    return make();
  },
  apply: () => make(),
  construct: () => make(),
  set: () => true,
};
function make() { return new Proxy(function () {}, handler); }
// The API's names as @types/vscode declares them (VS Code's object has these and its proposed ones).
const vscode = { l10n: { t: (s) => (typeof s === 'string' ? s : s.message), bundle: undefined }, version: '1.99.0' };
for (const k of JSON.parse(process.argv[2])) vscode[k] = make();
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? vscode : load.call(this, request, ...rest); };
const memento = { get: (k, d) => d, update: async () => undefined, keys: () => [], setKeysForSync() {} };
const context = { subscriptions: [], secrets: make(), globalState: memento, workspaceState: memento, extension: { packageJSON: { version: '0' } }, extensionUri: make(), storageUri: undefined, globalStorageUri: make(), logUri: make(), extensionMode: 1 };
const t0 = performance.now();
const ext = require(process.argv[1]);
const t1 = performance.now();
ext.activate(context);
const t2 = performance.now();
for (const d of context.subscriptions) try { d.dispose?.(); } catch {}
console.log(JSON.stringify({ load: t1 - t0, activate: t2 - t1 }));
process.exit(0);
`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The names `vscode` exports (its classes, enums, namespaces and constants), as in @types/vscode. */
const apiNames = [...readFileSync(path.join(root, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8').matchAll(/^\texport (?:class|enum|namespace|const|let|function) (\w+)/gm)]
  .map((m) => m[1])
  .filter((name) => name !== 'l10n' && name !== 'version');

/** One fresh process: loading `main` and its activate(), in ms. */
function once(main: string): { load: number; activate: number } {
  const out = execFileSync(nodeBin, ['-e', probe, main, JSON.stringify(apiNames)], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as { load: number; activate: number };
}

function main(): void {
  if (!process.argv.includes('--skip-build')) execFileSync(process.execPath, ['esbuild.js', '--production'], { cwd: root, stdio: 'ignore' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ai-chat-bench-activation-'));
  try {
    const floor = path.join(dir, 'one-command.js');
    writeFileSync(floor, `const vscode = require('vscode');\nexports.activate = (context) => { context.subscriptions.push(vscode.commands.registerCommand('floor.hello', () => undefined)); };\n`);
    // Alternate so that both share the machine's noise.
    const ours = { load: [] as number[], activate: [] as number[] };
    const one = { load: [] as number[], activate: [] as number[] };
    for (let i = 0; i < runs; i++) {
      for (const [into, file] of [[ours, path.join(root, 'dist', 'extension.js')], [one, floor]] as const) {
        const r = once(file);
        into.load.push(r.load);
        into.activate.push(r.activate);
      }
    }
    const f1 = (n: number) => n.toFixed(1);
    const version = execFileSync(nodeBin, ['--version'], { encoding: 'utf8' }).trim();
    console.log(`Activation in plain Node ${version} (a stand-in for vscode with its ${apiNames.length + 2} names), ${runs} fresh processes each, medians (load average ${os.loadavg()[0].toFixed(1)}):`);
    console.log(`  ours:        loading ${f1(median(ours.load))} ms, activate() ${f1(median(ours.activate))} ms`);
    console.log(`  one command: loading ${f1(median(one.load))} ms, activate() ${f1(median(one.activate))} ms`);
    const diff = median(ours.load) + median(ours.activate) - median(one.load) - median(one.activate);
    console.log(`activation-node: oursLoadMs=${f1(median(ours.load))} oursActivateMs=${f1(median(ours.activate))} floorMs=${f1(median(one.load) + median(one.activate))} oursMinusFloorMs=${f1(diff)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
