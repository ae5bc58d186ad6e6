// Explain Last Terminal Failure: the failed command's output kept to its end within a bound (the
// error is at the end), terminal escape sequences taken out, and the prompt made of the command
// line, its exit code and that output. Pure.
import * as l10n from '@vscode/l10n';
import { fenceFor } from '../context/selection';

/** The most characters of output a prompt carries (its end). */
export const MAX_OUTPUT_CHARS = 16_000;
/** The most lines of output a prompt carries (its end). */
export const MAX_OUTPUT_LINES = 200;
/** The most characters of a command line. */
export const MAX_COMMAND_CHARS = 2_000;

/** Terminal escape sequences (colours, cursor moves, titles, shell integration marks). */
const ESCAPES = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/** The output as text: escapes removed, \r\n as \n, a line overwritten with \r keeps its last state. */
export function plainOutput(raw: string): string {
  return raw
    .replace(ESCAPES, (m) => (m === '\r' ? m : ''))
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => {
      const parts = line.split('\r');
      return parts[parts.length - 1];
    })
    .join('\n');
}

/** A tail buffer of streamed output: keeps at most `max` characters, the newest. */
export class OutputTail {
  private chunks: string[] = [];
  private size = 0;
  /** Characters dropped from the start. */
  dropped = 0;
  constructor(private readonly max = MAX_OUTPUT_CHARS * 4) {}

  push(chunk: string): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.max && this.chunks.length > 1) {
      const first = this.chunks.shift() ?? '';
      this.size -= first.length;
      this.dropped += first.length;
    }
    if (this.size > this.max) {
      const only = this.chunks[0];
      this.chunks[0] = only.slice(only.length - this.max);
      this.dropped += only.length - this.max;
      this.size = this.max;
    }
  }

  text(): string {
    return this.chunks.join('');
  }
}

/** The end of the output within MAX_OUTPUT_LINES lines and MAX_OUTPUT_CHARS characters, and whether its start was left out. */
export function outputTail(output: string, earlierDropped = false): { text: string; cut: boolean } {
  let text = output.replace(/\s+$/, '');
  let cut = earlierDropped;
  const lines = text.split('\n');
  if (lines.length > MAX_OUTPUT_LINES) {
    text = lines.slice(lines.length - MAX_OUTPUT_LINES).join('\n');
    cut = true;
  }
  if (text.length > MAX_OUTPUT_CHARS) {
    text = text.slice(text.length - MAX_OUTPUT_CHARS);
    const nl = text.indexOf('\n');
    // Start at a line start unless that loses more than a quarter of the room.
    if (nl >= 0 && nl < MAX_OUTPUT_CHARS / 4) text = text.slice(nl + 1);
    cut = true;
  }
  return { text, cut };
}

export interface TerminalFailure {
  commandLine: string;
  exitCode: number;
  /** The raw output as the terminal wrote it (escapes included). */
  output: string;
  /** Output dropped before what `output` holds. */
  outputDropped?: boolean;
  /** The working folder, when known. */
  cwd?: string;
  /** The terminal's name ("bash", "npm test"). */
  terminal?: string;
}

/** The prompt put in the chat's box: the question, the command, its exit code and the end of its output. */
export function buildTerminalPrompt(f: TerminalFailure): string {
  const command = f.commandLine.trim().slice(0, MAX_COMMAND_CHARS);
  const { text, cut } = outputTail(plainOutput(f.output), !!f.outputDropped);
  const where = f.cwd ? l10n.t('This command failed in the terminal (in {0}) with exit code {1}. Explain why, and how to fix it:', f.cwd, f.exitCode) : l10n.t('This command failed in the terminal with exit code {0}. Explain why, and how to fix it:', f.exitCode);
  const cmdFence = fenceFor(command);
  const parts = [where, `${cmdFence}sh\n${command}\n${cmdFence}`]; // l10n-ignore: a code fence
  if (text.trim()) {
    const outFence = fenceFor(text);
    parts.push(cut ? l10n.t('The end of its output (the start is left out):') : l10n.t('Its output:'));
    parts.push(`${outFence}text\n${text}\n${outFence}`); // l10n-ignore: a code fence
  } else {
    parts.push(l10n.t('It wrote no output.'));
  }
  return parts.join('\n\n');
}
