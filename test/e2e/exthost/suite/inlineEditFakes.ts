// The stand-ins of the Edit in the editor tests: a file's text, and a turn pipeline that streams a
// given reply (the pipeline itself is tested with the reference server elsewhere).
import * as vscode from 'vscode';
import type { TurnCharge, TurnResult } from '../../../../src/core';
import type { SurfaceTurnRequest, SurfaceTurnResult, TurnService } from '../../../../src/extension/pipeline/turnService';

export const SOURCE = [
  "import { readFile } from 'node:fs/promises';",
  '',
  'export async function load(path) {',
  "  const text = await readFile(path, 'utf8');",
  '  return JSON.parse(text);',
  '}',
  '',
  'export const VERSION = 2;',
  '',
].join('\n');

export interface Sent {
  req: SurfaceTurnRequest;
}

/** A pipeline that streams `reply` in chunks of a few characters (or waits for Stop when `hold`). */
export function fakeTurns(reply: string, sent: Sent[], hold = false): Pick<TurnService, 'run' | 'quote'> {
  return {
    quote: () => ({ model: 'swift-chat', name: 'Swift Chat', cost: 2 }),
    run: async (req, sink, signal): Promise<SurfaceTurnResult> => {
      sent.push({ req });
      let text = '';
      for (let i = 0; i < reply.length && !signal.aborted; i += 7) {
        const chunk = reply.slice(i, i + 7);
        text += chunk;
        sink.text(chunk);
        await new Promise((r) => setTimeout(r, 1));
      }
      if (hold) await new Promise<void>((r) => (signal.aborted ? r() : signal.addEventListener('abort', () => r())));
      const result = { ending: signal.aborted ? 'stopped' : 'complete', text, answered: true, started: true, meta: {}, sources: [], files: [] } as unknown as TurnResult;
      return { kind: 'ran', result, charge: Promise.resolve({} as TurnCharge) };
    },
  };
}

/** A pipeline that sends each piece in turn; a function in the list runs (and is awaited) at that point of the reply. */
export function scriptedTurns(script: Array<string | (() => Promise<void>)>): Pick<TurnService, 'run' | 'quote'> {
  return {
    quote: () => ({ model: 'swift-chat', name: 'Swift Chat', cost: 2 }),
    run: async (_req, sink, signal): Promise<SurfaceTurnResult> => {
      let text = '';
      for (const step of script) {
        if (signal.aborted) break;
        if (typeof step === 'string') {
          text += step;
          sink.text(step);
        } else await step();
      }
      const result = { ending: signal.aborted ? 'stopped' : 'complete', text, answered: true, started: true, meta: {}, sources: [], files: [] } as unknown as TurnResult;
      return { kind: 'ran', result, charge: Promise.resolve({} as TurnCharge) };
    },
  };
}

/** Resolves once `doc`'s text passes `test` (checked at each change), or fails after 10 s. */
export async function until(doc: vscode.TextDocument, test: (text: string) => boolean, what: string): Promise<void> {
  if (test(doc.getText())) return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`not within 10 s: ${what}`));
    }, 10_000);
    const sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document !== doc || !test(doc.getText())) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}
