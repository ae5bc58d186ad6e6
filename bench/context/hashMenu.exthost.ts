// The `#` menu on a TypeScript workspace of 10,000 files, in code-server's extension host (run by
// `npm run bench:context`, which runs this file alone in the extension-host harness; the normal
// `npm run test:exthost` never loads it). Goals: the menu opens (the first answer, with the files
// and folders whose paths match) in ≤ 50 ms; the symbols (the second answer, through VS Code's
// workspace symbol providers: TypeScript's here) come in ≤ 200 ms p95.
//
// A folder of the test workspace gets 100 folders × 100 files, each with an interface, a function
// and a class of unique names, and a tsconfig.json; one file is opened so that TypeScript loads the
// project, which is waited for (a symbol search finds a known name). Then HashMenuHost.search is
// timed for a fixed set of words (file names whole and in part, symbol names, folder names, two
// letters, a word nothing matches), twice over, from the call to each answer it posts; then as a
// quick typist types them, a letter every 120 ms. The cold case (a new menu, which reads the
// workspace's file list first) is timed apart, and TypeScript's own search of the same words in
// this process. Figures only: nothing here asserts a time.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as vscode from 'vscode';
import { CodebaseService } from '../../src/extension/codebase/codebaseService';
import { ContextAttachments } from '../../src/extension/context/attachments';
import { HashMenuHost } from '../../src/extension/context/hashMenu';
import { findSymbols } from '../../src/extension/context/symbols';
import type { HostMessage } from '../../src/protocol';
import { closeAllEditors, silent } from '../../test/e2e/exthost/suite/fakes';
import { report } from '../../test/e2e/exthost/suite/figures';

type Options = Extract<HostMessage, { type: 'contextOptions' }>;

const FOLDER = 'ctxbench';
const DOMAINS = ['billing', 'catalog', 'checkout', 'customer', 'delivery', 'inventory', 'invoice', 'payment', 'report', 'shipping'];
const LAYERS = ['api', 'cache', 'core', 'events', 'forms', 'jobs', 'models', 'search', 'store', 'views'];
const ENTITIES = ['Account', 'Address', 'Batch', 'Coupon', 'Ledger', 'Order', 'Profile', 'Quote', 'Refund', 'Ticket'];
const ROLES = ['Builder', 'Client', 'Handler', 'Loader', 'Mapper', 'Parser', 'Policy', 'Service', 'Tracker', 'Validator'];
/** The words timed: file names whole and in part, symbol names whole and in part, folders, two letters, a miss. */
const WORDS = [
  'billingApiOrderParser', 'shippingViewsTicketValidator', 'inventoryJobsLedgerLoader', 'customerFormsQuoteMapper', 'paymentCoreRefundPolicy',
  'catalogSearchCouponClient', 'deliveryEventsBatchTracker', 'reportStoreProfileService',
  'OrderPars', 'ledger', 'coupon', 'refundTr', 'invent', 'quoteMap', 'checkoutCache', 'AddressBuil',
  'createBillingApiOrderParser', 'CustomerJobsLedgerLoader', 'createPayment', 'AddressBuilder', 'InvoiceModelsAccountHandlerOptions',
  'DeliveryViewsCouponClient', 'createShippingStore', 'TicketValidator',
  'billing-api', 'shipping-views', 'report-jobs', 'invoice-models',
  'bi', 'or', 'zqxv',
  'ctxbench', 'Handler', 'searchBatch', 'catalogForms',
];
const ROUNDS = 2;
/** Words typed a letter at a time, and the time between two letters (a quick typist). */
const TYPED = WORDS.filter((w) => w.length >= 6 && w.length <= 15);
const TYPED_MS = 120;
/** Cold searches: each by a new menu, which reads the file list first. */
const COLD = 5;

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
function stats(what: string, values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  return `${what}: n=${s.length}, median ${ms(percentile(s, 50))}, p95 ${ms(percentile(s, 95))}, max ${ms(s[s.length - 1])}`;
}

/** Writes the workspace's 10,000 files and its tsconfig.json; returns the files' count. */
function generate(root: string): number {
  let files = 0;
  writeFileSync(
    path.join(root, 'tsconfig.json'),
    `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', strict: true, noEmit: true, skipLibCheck: true }, include: ['**/*.ts'] }, null, 2)}\n`,
  );
  for (const domain of DOMAINS) {
    for (const layer of LAYERS) {
      const dir = path.join(root, `${domain}-${layer}`);
      mkdirSync(dir, { recursive: true });
      for (const entity of ENTITIES) {
        for (const role of ROLES) {
          const name = `${cap(domain)}${cap(layer)}${entity}${role}`;
          const text =
            `// ${entity} ${role.toLowerCase()} of ${domain} (${layer}).\n` +
            `export interface ${name}Options {\n  limit: number;\n  label?: string;\n}\n\n` +
            `export function create${name}(options: ${name}Options): ${name} {\n  return new ${name}(options.limit, options.label ?? '${name}');\n}\n\n` +
            `export class ${name} {\n  constructor(readonly limit: number, readonly label: string) {}\n\n` +
            `  run(input: readonly string[]): string[] {\n    return input.slice(0, this.limit).map((item) => \`\${this.label}:\${item}\`);\n  }\n}\n`;
          writeFileSync(path.join(dir, `${domain}${cap(layer)}${entity}${role}.ts`), text);
          files++;
        }
      }
    }
  }
  return files;
}

/** Polls `check` (a state, not a time) until it holds; fails after `bound` ms. */
async function until(check: () => Promise<boolean>, what: string, bound: number): Promise<void> {
  const end = Date.now() + bound;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** One search, timed from the call to each answer posted. */
async function timed(menu: HashMenuHost, posted: Array<{ at: number; message: Options }>, seq: number, word: string) {
  posted.length = 0;
  const start = performance.now();
  await menu.search(seq, word);
  const answers = posted.map((p) => ({ ms: p.at - start, message: p.message }));
  const paths = answers.find((a) => a.message.options.some((o) => o.kind === 'file' || o.kind === 'folder'));
  const last = answers.at(-1);
  assert.ok(last && !last.message.pending, `the search for ${word} ended with a complete answer`);
  return {
    first: answers[0].ms,
    paths: paths?.ms,
    symbols: word.length >= 2 ? last.ms : undefined,
    /** The first answer holding a symbol (the codebase index's names come with the paths). */
    firstSymbol: answers.find((a) => a.message.options.some((o) => o.kind === 'symbol'))?.ms,
    symbolCount: last.message.options.filter((o) => o.kind === 'symbol').length,
    fileCount: last.message.options.filter((o) => o.kind === 'file').length,
  };
}

/**
 * TypeScript's own search for each word: getNavigateToItems (what tsserver runs for `navto`, which
 * VS Code's TypeScript symbol provider asks) on a program of the same files, in this process, with
 * the TypeScript VS Code runs. Tells the language server's share of the symbols' time from ours.
 */
function typescriptOwn(root: string, words: readonly string[]): { load: number; times: number[] } {
  const ext = vscode.extensions.getExtension('vscode.typescript-language-features');
  assert.ok(ext, 'VS Code\'s TypeScript extension');
  const ts = createRequire(__filename)(path.join(ext.extensionPath, '..', 'node_modules', 'typescript')) as typeof import('typescript');
  const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  assert.ok(config, 'the tsconfig.json is read');
  const service = ts.createLanguageService({
    // One version of the project: each search checks nothing again (as tsserver's project between edits).
    getProjectVersion: () => '1',
    getScriptFileNames: () => config.fileNames,
    getScriptVersion: () => '1',
    getScriptSnapshot: (file) => {
      const text = ts.sys.readFile(file);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => config.options,
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: (file) => ts.sys.fileExists(file),
    readFile: (file) => ts.sys.readFile(file),
    readDirectory: (dir, extensions, exclude, include, depth) => ts.sys.readDirectory(dir, extensions, exclude, include, depth),
    directoryExists: (dir) => ts.sys.directoryExists(dir),
    getDirectories: (dir) => ts.sys.getDirectories(dir),
  });
  try {
    let t = performance.now();
    service.getProgram();
    // The first search reads every file's declarations once (kept for the next ones, as tsserver keeps them).
    service.getNavigateToItems('warm', 256, undefined, true);
    const load = performance.now() - t;
    const times = words.map((word) => {
      t = performance.now();
      // As the TypeScript extension asks: at most 256 results, declaration files left out.
      service.getNavigateToItems(word, 256, undefined, true);
      return performance.now() - t;
    });
    return { load, times };
  } finally {
    service.dispose();
  }
}

describe('Benchmark: the # menu on a TypeScript workspace of 10,000 files', function () {
  this.timeout(20 * 60_000);
  const workspace = () => {
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'the window has a workspace folder');
    return f.uri;
  };
  const root = () => path.join(workspace().fsPath, FOLDER);

  let index: CodebaseService | undefined;
  after(async () => {
    index?.dispose();
    await closeAllEditors();
    rmSync(root(), { recursive: true, force: true });
  });

  it('prints the time to the first answer and to the symbols', async () => {
    rmSync(root(), { recursive: true, force: true });
    mkdirSync(root(), { recursive: true });
    let t = performance.now();
    const files = generate(root());
    report(`context bench: ${files} TypeScript files written in ${ms(performance.now() - t)} (${DOMAINS.length * LAYERS.length} folders)`);

    // TypeScript loads the configured project of an open file; a search finds a known name once it has.
    t = performance.now();
    const opened = vscode.Uri.file(path.join(root(), 'billing-api', 'billingApiAccountBuilder.ts'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(opened));
    const known = 'ShippingViewsTicketValidator';
    await until(async () => (await findSymbols(known)).some((s) => s.name === known), `TypeScript to load the project (a search finding ${known})`, 10 * 60_000);
    report(`context bench: TypeScript's project of ${files} files loaded (a workspace symbol search finds a name in it) ${ms(performance.now() - t)} after the file was opened`);

    // The codebase index over the same files (the extension's worker), whose names the menu lists at once.
    const ext = vscode.extensions.getExtension('ai-chat-assistant.ai-chat-assistant');
    assert.ok(ext, 'the extension is installed');
    t = performance.now();
    index = new CodebaseService({ workerFile: path.join(ext.extensionPath, 'dist', 'codebaseWorker.js'), storage: undefined, logger: silent });
    const built = index;
    await until(async () => built.state === 'ready', 'the codebase index to be built', 10 * 60_000);
    report(`context bench: the codebase index built over the workspace in ${ms(performance.now() - t)}`);
    const names = (q: string) => built.names(q);

    const chips = new ContextAttachments(() => vscode.window.activeTextEditor);
    const posted: Array<{ at: number; message: Options }> = [];
    const post = (message: Options) => posted.push({ at: performance.now(), message });
    let seq = 0;

    const cold = { first: [] as number[], paths: [] as number[], symbols: [] as number[] };
    for (let k = 0; k < COLD; k++) {
      const menu = new HashMenuHost({ attachments: chips, editor: () => vscode.window.activeTextEditor, post, names });
      try {
        const r = await timed(menu, posted, ++seq, WORDS[k]);
        cold.first.push(r.first);
        if (r.paths !== undefined) cold.paths.push(r.paths);
        if (r.symbols !== undefined) cold.symbols.push(r.symbols);
      } finally {
        menu.dispose();
      }
    }

    // Cold as typed: a bare # (the box asks at once), then the word a letter's time later.
    const coldTyped: number[] = [];
    for (let k = 0; k < COLD; k++) {
      const menu = new HashMenuHost({ attachments: chips, editor: () => vscode.window.activeTextEditor, post, names });
      try {
        await menu.search(++seq, '');
        await new Promise((r) => setTimeout(r, TYPED_MS));
        const r = await timed(menu, posted, ++seq, WORDS[COLD + k]);
        if (r.paths !== undefined) coldTyped.push(r.paths);
      } finally {
        menu.dispose();
      }
    }

    const menu = new HashMenuHost({ attachments: chips, editor: () => vscode.window.activeTextEditor, post, names });
    const warm = { first: [] as number[], symbols: [] as number[], provider: [] as number[], firstSymbol: [] as number[] };
    let withSymbols = 0;
    let withFiles = 0;
    try {
      await timed(menu, posted, ++seq, 'warm'); // reads the file list: the cold case, timed above
      for (let round = 0; round < ROUNDS; round++) {
        for (const word of WORDS) {
          const r = await timed(menu, posted, ++seq, word);
          warm.first.push(r.first);
          if (r.firstSymbol !== undefined) warm.firstSymbol.push(r.firstSymbol);
          if (r.symbols !== undefined) {
            warm.symbols.push(r.symbols);
            warm.provider.push(r.symbols - r.first);
          }
          if (round === 0 && r.symbolCount) withSymbols++;
          if (round === 0 && r.fileCount) withFiles++;
        }
      }
    } finally {
      menu.dispose();
    }

    // As typed: a letter every TYPED_MS, each a search (as the box sends them); from the last letter to its symbols.
    const typed: number[] = [];
    const typer = new HashMenuHost({ attachments: chips, editor: () => vscode.window.activeTextEditor, post, names });
    try {
      await timed(typer, posted, ++seq, 'warm');
      for (const word of TYPED) {
        posted.length = 0;
        const searches: Promise<void>[] = [];
        let lastStart = 0;
        for (let n = 1; n <= word.length; n++) {
          if (n > 1) await new Promise((r) => setTimeout(r, TYPED_MS));
          lastStart = performance.now();
          searches.push(typer.search(++seq, word.slice(0, n)));
        }
        await Promise.all(searches);
        const done = posted.find((p) => p.message.seq === seq && !p.message.pending);
        assert.ok(done, `the last letter of ${word} got a complete answer`);
        typed.push(done.at - lastStart);
      }
    } finally {
      typer.dispose();
    }
    chips.dispose();
    // The figures mean something only if the words found what they name.
    assert.ok(withFiles >= WORDS.length / 2 && withSymbols >= WORDS.length / 2, `${withFiles} words found files, ${withSymbols} found symbols`);

    report(`context bench: ${WORDS.length} words × ${ROUNDS} rounds (${withFiles} words found files, ${withSymbols} found symbols); HashMenuHost.search, from the call to each answer:`);
    report(`  ${stats('menu opens (first answer: actions, files, folders; goal ≤ 50 ms)', warm.first)}`);
    report(`  ${stats('the first symbols come in (the codebase index\'s names, with the paths; goal p95 ≤ 200 ms)', warm.firstSymbol)}`);
    report(`  ${stats('the language servers\' symbols come in (the last answer)', warm.symbols)}`);
    report(`  ${stats('of which the symbol providers (executeWorkspaceSymbolProvider)', warm.provider)}`);
    report(`  ${stats(`as typed, a letter every ${TYPED_MS} ms (${TYPED.length} words of ${Math.min(...TYPED.map((w) => w.length))} to ${Math.max(...TYPED.map((w) => w.length))} letters): from the last letter to the symbols`, typed)}`);
    report(`  cold, a new menu reading the file list (${COLD} menus): ${stats('first answer (actions)', cold.first)}; ${stats('files and folders', cold.paths)}; ${stats('symbols', cold.symbols)}`);
    report(`  ${stats(`cold as typed, # then the word ${TYPED_MS} ms later (${COLD} menus): from the word to the files and folders`, coldTyped)}`);
    const own = typescriptOwn(root(), WORDS);
    report(`  ${stats(`TypeScript's own search of the same words (getNavigateToItems, behind tsserver's navto, in this process; its program built and the declarations read in ${ms(own.load)})`, own.times)}`);
  });
});
