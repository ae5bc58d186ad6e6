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
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { ChatServiceClient } from '../../src/client';
import type { TurnCharge, TurnResult } from '../../src/core';
import type { SurfaceTurnResult, TurnService } from '../../src/extension/chat/turnService';
import { InlineEditor } from '../../src/extension/editor/inlineEdit';
import type { Logger } from '../../src/extension/platform/log';

export interface BenchConfig {
  results: string;
  baseUrl: string;
  key: string;
  model: string;
  runs: number;
  fileLines: number;
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
}

export type BenchOutput = { runs: RunFigures[]; file: string; selection: string } | { error: string };

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
  const watch = vscode.workspace.onDidChangeTextDocument((e) => {
    if (e.document !== doc) return;
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
  try {
    outcome = await inline.edit(editor);
  } finally {
    clearInterval(probe);
    watch.dispose();
  }
  const lineMs: number[] = [];
  let unmeasured = 0;
  codeLines(reply).forEach((line, i) => {
    const arrived = arrivals.find((a) => a.end > line.end);
    const shown = arrived && changes.find((c) => c.at >= arrived.at && c.lines[i] === line.text);
    const already = arrived && changes.filter((c) => c.at < arrived.at).at(-1)?.lines[i] === line.text;
    if (!arrived || !shown || already) unmeasured++;
    else lineMs.push(shown.at - arrived.at);
  });
  if (outcome === 'reviewing') await inline.finish(inline.reviewOf(doc.uri), false);
  inline.dispose();
  await client.close();
  return { lineMs, unmeasured, stallMs, ownMs, outcome, restored: doc.getText() === before };
}

async function bench(config: BenchConfig): Promise<BenchOutput> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return { error: 'no workspace folder' };
  const uri = vscode.Uri.joinPath(folder.uri, 'bench-edit.ts');
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(bigFile(config.fileLines)));
  const editor = await vscode.window.showTextDocument(uri, { preview: false });
  // The function in the middle of the file.
  const start = Math.floor(config.fileLines / 12) * 6;
  editor.revealRange(new vscode.Range(start, 0, start + 5, 0), vscode.TextEditorRevealType.InCenter);
  const runs: RunFigures[] = [];
  // One run first to warm up (code loaded, first connection), not counted.
  await runOnce(config, editor, start, 0);
  for (let run = 1; run <= config.runs; run++) runs.push(await runOnce(config, editor, start, run));
  return { runs, file: `${editor.document.lineCount - 1}-line`, selection: `lines ${start + 1}-${start + 5}` };
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
