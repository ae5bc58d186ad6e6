// The extension-host side of `npm run bench:edit` (bench/edit/run.ts builds it into a small
// extension, installs it into code-server and reads what it writes). In a real VS Code extension
// host, with a real editor, it runs Edit Selection… (InlineEditor, as the extension builds it) on a
// function in the middle of a 5,000-line file, `runs` times; the reply comes from the reference
// server through the service client, as the turn pipeline gets it. Measured per run:
// - for each code line of the reply: from the moment the piece of the reply that completes it
//   reaches the extension host (the client hands it on) to the moment the document holds it (the
//   extension host hears of the change back from the workbench, whose text model then has it);
// - the longest extension-host task while the reply streams: the longest stall of a 5 ms timer
//   (anything that runs in the extension host meanwhile: ours, the client's, VS Code's own), and
//   the longest of our own handling of one piece of the reply.
// Each run is undone with Undo Edit; the file must be byte for byte as before.
//
// Where a line's time goes (the bench watches the edit's own calls from outside, nothing in the
// product measures itself): how long the line waited for the edit under way, and each edit's round
// trip, from the call to the extension host hearing the change (and to the call's promise); then,
// after the runs, the round trip of a bare one-line edit in the same file, with nothing else going
// on, for comparison. With `profile`, the extension host's CPU profile of the measured runs.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { ChatServiceClient } from '../../src/client';
import type { TurnCharge, TurnResult } from '../../src/core';
import type { SurfaceTurnResult, TurnService } from '../../src/extension/pipeline/turnService';
import { InlineEditor } from '../../src/extension/inlineEdit/inlineEdit';
import { InlineEditLive } from '../../src/extension/inlineEdit/inlineEditLive';
import { OwnEdits } from '../../src/extension/inlineEdit/inlineEditUndo';
import type { Logger } from '../../src/extension/platform/log';

export interface BenchConfig {
  results: string;
  baseUrl: string;
  key: string;
  model: string;
  runs: number;
  fileLines: number;
  /** The file's extension: `ts` (default), or `txt` for the same text without language features. */
  fileType?: string;
  /** Between runs: the notifications are cleared and the window is left alone this long, ms. */
  pauseMs: number;
  /** Write the extension host's CPU profile of the measured runs here. */
  profile?: string;
}

/** One edit of the document by the edit in the editor, extension-host clock (ms). */
export interface EditTiming {
  call: number;
  /** The extension host heard the change (0: not heard). */
  heard: number;
  /** The call's promise resolved. */
  done: number;
  /** Made once the reply was complete (the code going in for the review), not by the streamed preview. */
  review: boolean;
}

export interface RunFigures {
  /** Milliseconds from each code line's arrival to its being in the document. */
  lineMs: number[];
  /** Code lines of the reply that were not measured (already there, or never shown as such). */
  unmeasured: number;
  /** Longest stall of a 5 ms timer while the reply streamed, ms. */
  stallMs: number;
  /** Longest handling of one piece of the reply by the edit (synchronous part), ms. */
  ownMs: number;
  outcome: string;
  restored: boolean;
  /** Per measured line: how long it waited for the edit under way before the edit carrying it was called, ms. */
  waitMs: number[];
  /** Per measured line: which code line of the reply it is, ms from the command to its arrival, and the index of the edit that carried it (-1: none found). */
  lineAt: Array<{ line: number; sinceStart: number; edit: number; editMs: number; review: boolean }>;
  /** Per edit of the streamed preview: call -> change heard, and call -> promise resolved, ms. */
  heardMs: number[];
  doneMs: number[];
  /** How many times the preview's decorations were set, and the longest one (synchronous part), ms. */
  decorations: number;
  decorateMs: number;
  /** The streaming, wall clock (epoch ms), to match the window's own timings. */
  window: [number, number];
}

export type BenchOutput =
  | { runs: RunFigures[]; file: string; selection: string; bare: { heardMs: number[]; doneMs: number[] } }
  | { error: string };

/** The edits and decorations of the run under way (the bench wraps the edit's own methods from outside). */
let timings: EditTiming[] | undefined;
let decorated: { count: number; longest: number } | undefined;
let converging = false;

function watchEdits(): void {
  // Wrapped, and called with the edit as `this`.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const replace = OwnEdits.prototype.replace;
  OwnEdits.prototype.replace = async function (this: OwnEdits, ...args: Parameters<OwnEdits['replace']>) {
    const t: EditTiming = { call: performance.now(), heard: 0, done: 0, review: converging };
    timings?.push(t);
    try {
      return await replace.apply(this, args);
    } finally {
      t.done = performance.now();
    }
  };
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const converge = InlineEditLive.prototype.converge;
  InlineEditLive.prototype.converge = async function (this: InlineEditLive, ...args: Parameters<InlineEditLive['converge']>) {
    converging = true;
    try {
      return await converge.apply(this, args);
    } finally {
      converging = false;
    }
  };
  const proto = InlineEditLive.prototype as unknown as { decorate: (...a: unknown[]) => void };
  const decorate = proto.decorate;
  proto.decorate = function (this: unknown, ...args: unknown[]) {
    const t = performance.now();
    try {
      decorate.apply(this, args);
    } finally {
      if (decorated) {
        decorated.count++;
        decorated.longest = Math.max(decorated.longest, performance.now() - t);
      }
    }
  };
}

const epoch = () => performance.timeOrigin + performance.now();

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;

/** A TypeScript file of `lines` lines: small functions, six lines each. */
function bigFile(lines: number): string {
  const out: string[] = [];
  for (let k = 0; out.length < lines; k++) {
    out.push(`export function total${k}(values: number[]): number {`, '  let sum = 0;', `  for (const v of values) sum += v * ${k};`, '  return sum;', '}', '');
  }
  return `${out.slice(0, lines).join('\n')}\n`;
}

/** The lines of the reply's first fenced block, and where each ends in the reply. */
function codeLines(reply: string): Array<{ text: string; end: number }> {
  const out: Array<{ text: string; end: number }> = [];
  let at = 0;
  let inside = false;
  for (const line of reply.split('\n')) {
    const end = at + line.length;
    at = end + 1;
    if (/^```/.test(line)) {
      if (inside) break;
      inside = true;
      continue;
    }
    if (inside) out.push({ text: line, end });
  }
  return out;
}

async function runOnce(config: BenchConfig, editor: vscode.TextEditor, start: number, run: number): Promise<RunFigures> {
  const doc = editor.document;
  const before = doc.getText();
  const client = new ChatServiceClient({ baseUrl: config.baseUrl, apiKey: () => config.key, maxRetries: 0 });
  const arrivals: Array<{ at: number; end: number }> = [];
  const changes: Array<{ at: number; lines: string[] }> = [];
  let ownMs = 0;
  let reply = '';
  const turns: Pick<TurnService, 'run' | 'quote'> = {
    quote: () => ({ model: config.model, name: config.model, cost: 1 }),
    run: async (req, sink, signal): Promise<SurfaceTurnResult> => {
      let ending = 'complete';
      try {
        const stream = await client.chatStream({ model: config.model, messages: [{ role: 'user', content: req.prompt }] } as never, { signal });
        for await (const ev of stream) {
          if (ev.event !== '0') continue;
          const data = (ev as { data: string }).data;
          const t = performance.now();
          reply += data;
          arrivals.push({ at: t, end: reply.length });
          sink.text(data);
          ownMs = Math.max(ownMs, performance.now() - t);
        }
      } catch {
        ending = signal.aborted ? 'stopped' : 'failed';
      }
      const result = { ending, text: reply, answered: true, started: true, meta: { model: config.model }, sources: [], files: [] } as unknown as TurnResult;
      return { kind: 'ran', result, charge: Promise.resolve({} as TurnCharge) };
    },
  };
  const edits: EditTiming[] = [];
  timings = edits;
  decorated = { count: 0, longest: 0 };
  const watch = vscode.workspace.onDidChangeTextDocument((e) => {
    if (e.document !== doc) return;
    const t = performance.now();
    for (const edit of edits) if (!edit.heard && edit.call <= t) edit.heard = t;
    const lines: string[] = [];
    for (let i = 0; i < 20 && start + i < doc.lineCount; i++) lines.push(doc.lineAt(start + i).text);
    changes.push({ at: performance.now(), lines });
  });
  let stallMs = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last - 5);
    last = now;
  }, 5);
  const inline = new InlineEditor({ turns, logger: silent, ask: async () => `Use reduce (bench run ${run})` });
  editor.selection = new vscode.Selection(start, 0, start + 5, 0);
  let outcome: string;
  const from = epoch();
  const started = performance.now();
  let streamed = 0;
  try {
    outcome = await inline.edit(editor);
  } finally {
    streamed = epoch();
    clearInterval(probe);
    watch.dispose();
    timings = undefined;
  }
  const decorations = decorated;
  decorated = undefined;
  const lineMs: number[] = [];
  const waitMs: number[] = [];
  const lineAt: RunFigures['lineAt'] = [];
  let unmeasured = 0;
  codeLines(reply).forEach((line, i) => {
    const arrived = arrivals.find((a) => a.end > line.end);
    const shown = arrived && changes.find((c) => c.at >= arrived.at && c.lines[i] === line.text);
    const already = arrived && changes.filter((c) => c.at < arrived.at).at(-1)?.lines[i] === line.text;
    if (!arrived || !shown || already) unmeasured++;
    else {
      lineMs.push(shown.at - arrived.at);
      // The edit that carried it: the last one called before the change was heard.
      const carrier = edits.filter((e) => e.call <= shown.at).at(-1);
      waitMs.push(carrier ? Math.max(0, carrier.call - arrived.at) : NaN);
      lineAt.push({
        line: i,
        sinceStart: arrived.at - started,
        edit: carrier ? edits.indexOf(carrier) : -1,
        editMs: carrier?.heard ? carrier.heard - carrier.call : NaN,
        review: carrier?.review ?? false,
      });
    }
  });
  // The preview's edits (the review's is left out: it is not a streamed line).
  const preview = edits.filter((e) => !e.review);
  if (outcome === 'reviewing') await inline.finish(inline.reviewOf(doc.uri), false);
  inline.dispose();
  await client.close();
  return {
    lineMs,
    unmeasured,
    stallMs,
    ownMs,
    outcome,
    restored: doc.getText() === before,
    waitMs,
    heardMs: preview.filter((e) => e.heard).map((e) => e.heard - e.call),
    doneMs: preview.map((e) => e.done - e.call),
    decorations: decorations?.count ?? 0,
    decorateMs: decorations?.longest ?? 0,
    window: [from, streamed],
    lineAt,
  };
}

/** The round trip of a bare one-line edit in `editor` (a comment line put in and taken out again), `n` times each way. */
async function bareEdits(editor: vscode.TextEditor, line: number, n: number): Promise<{ heardMs: number[]; doneMs: number[] }> {
  const doc = editor.document;
  const heardMs: number[] = [];
  const doneMs: number[] = [];
  for (let i = 0; i < 2 * n; i++) {
    const t = performance.now();
    let heard = 0;
    const sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === doc && !heard) heard = performance.now();
    });
    const ok = await editor.edit((b) => (i % 2 === 0 ? b.insert(new vscode.Position(line, 0), '// probe\n') : b.delete(new vscode.Range(line, 0, line + 1, 0))), {
      undoStopBefore: false,
      undoStopAfter: false,
    });
    const done = performance.now();
    while (!heard) await new Promise((r) => setTimeout(r, 1));
    sub.dispose();
    if (!ok) throw new Error('a bare edit was refused');
    heardMs.push(heard - t);
    doneMs.push(done - t);
  }
  return { heardMs, doneMs };
}

class ExtHostProfile {
  private readonly session = new Session();
  constructor() {
    this.session.connect();
  }
  private post(method: string, params?: object): Promise<unknown> {
    return new Promise((resolve, reject) => this.session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))));
  }
  async start(): Promise<void> {
    await this.post('Profiler.enable');
    await this.post('Profiler.setSamplingInterval', { interval: 200 });
    await this.post('Profiler.start');
  }
  async stop(file: string): Promise<void> {
    const { profile } = (await this.post('Profiler.stop')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(profile));
    this.session.disconnect();
  }
}

async function bench(config: BenchConfig): Promise<BenchOutput> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return { error: 'no workspace folder' };
  const uri = vscode.Uri.joinPath(folder.uri, `bench-edit.${config.fileType ?? 'ts'}`);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(bigFile(config.fileLines)));
  const editor = await vscode.window.showTextDocument(uri, { preview: false });
  // The function in the middle of the file.
  const start = Math.floor(config.fileLines / 12) * 6;
  editor.revealRange(new vscode.Range(start, 0, start + 5, 0), vscode.TextEditorRevealType.InCenter);
  const runs: RunFigures[] = [];
  watchEdits();
  // One run first to warm up (code loaded, first connection), not counted.
  await runOnce(config, editor, start, 0);
  // The window's side may profile from here (bench/edit/run.ts).
  writeFileSync(`${config.results}.measuring`, '');
  const profile = config.profile ? new ExtHostProfile() : undefined;
  await profile?.start();
  for (let run = 1; run <= config.runs; run++) {
    // Each run starts as a user's next edit would: the last one's "changes proposed" notification
    // gone, the editor done with the text given back (its tokens, outline, problems).
    await vscode.commands.executeCommand('notifications.clearAll');
    await new Promise((r) => setTimeout(r, config.pauseMs));
    runs.push(await runOnce(config, editor, start, run));
  }
  if (profile && config.profile) await profile.stop(config.profile);
  const before = editor.document.getText();
  const bare = await bareEdits(editor, start, config.runs);
  if (editor.document.getText() !== before) return { error: 'the bare edits did not leave the file as it was' };
  return { runs, file: `${editor.document.lineCount - 1}-line ${editor.document.languageId}`, selection: `lines ${start + 1}-${start + 5}`, bare };
}

function write(file: string, out: BenchOutput): void {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(out)}\n`);
  renameSync(`${file}.tmp`, file);
}

export function activate(context: vscode.ExtensionContext): void {
  const config = JSON.parse(readFileSync(path.join(context.extensionPath, 'bench.json'), 'utf8')) as BenchConfig;
  bench(config).then(
    (out) => write(config.results, out),
    (err: unknown) => write(config.results, { error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
  );
}

export function deactivate(): void {}
