// Apply to File: what a code block of a reply turns a file into. Pure: the host reads the
// file, shows the result as a diff, and writes it as one edit when the user accepts.
//
// How a block is applied:
// - the file does not exist: the block is the new file;
// - the block's first line (not blank) occurs once in the file, and its last line (with the
//   same indentation) occurs after it: the lines from the first to that last line are replaced,
//   taking the occurrence whose region is closest in length to the block (a block showing one
//   function of a file changes that function only);
// - otherwise the block replaces the whole file (the diff shows what that means).
import * as l10n from '@vscode/l10n';

import { resolveInsideFolder } from '../context/workspacePath';

export type ApplyMode = 'new-file' | 'region' | 'whole-file';

/**
 * The largest file Apply to File reads (its size is looked at first): a diff of a larger file is
 * of no use to review, and reading it whole would hold the editor's extension host.
 */
export const APPLY_MAX_BYTES = 4 * 1024 * 1024;

/** True when a file of `bytes` is not read for Apply to File (see APPLY_MAX_BYTES). */
export function tooLargeToApply(bytes: number): boolean {
  return !(bytes <= APPLY_MAX_BYTES);
}

export interface AppliedChange {
  mode: ApplyMode;
  /** The file's text after the change. */
  text: string;
  /** For a region: its first and last line (1-based) in the file as it was. */
  lines?: [number, number];
}

/** The segments of a relative path inside the workspace, or undefined (absolute, `..`, `:`, empty). */
export function workspacePathSegments(path: string): string[] | undefined {
  // A colon is a drive (C:x.ts) or an NTFS stream (file.txt:stream), never a plain file name.
  if (!path || /^[\\/~]/.test(path) || path.includes(':')) return undefined;
  const parts = path.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.some((p) => p === '..')) return undefined;
  return parts;
}

/**
 * What VS Code runs from, where Apply to File asks before showing a change: a `.vscode` folder
 * (tasks, launch configurations, settings), a `*.code-workspace` file (the same, for a
 * multi-root workspace), a `.devcontainer` folder or `.devcontainer.json` (the container VS Code
 * builds and the commands it runs in it).
 */
export type AskArea = 'vscode' | 'code-workspace' | 'devcontainer';

/**
 * A part of the workspace Apply to File treats with care: `git` (anything inside a `.git` folder:
 * hooks run code, the repository can be damaged) is refused; the AskArea ones ask first. Names
 * compare as Windows and macOS do (case, trailing dots and spaces ignored).
 */
export function protectedArea(segments: readonly string[]): 'git' | AskArea | undefined {
  const names = segments.map((s) => s.toLowerCase().replace(/[. ]+$/, ''));
  const base = names.at(-1) ?? '';
  if (names.some((n) => n === '.git')) return 'git';
  if (names.some((n) => n === '.vscode')) return 'vscode';
  if (names.slice(0, -1).some((n) => n === '.devcontainer') || base === '.devcontainer.json') return 'devcontainer';
  if (base.endsWith('.code-workspace')) return 'code-workspace';
  return undefined;
}

export type ApplyTarget =
  | {
      ok: true;
      /** Index of the workspace folder the file is in. */
      folder: number;
      /** Segments under that folder, as named (the URI to edit). */
      segments: string[];
      /** Where it lands on disk. */
      real: string;
      exists: boolean;
      /** `.vscode`, `*.code-workspace`, `.devcontainer`: ask before showing the change. */
      ask?: AskArea;
    }
  /** invalid: not a relative path; outside: lands outside every folder (a symbolic link); git: inside `.git`. */
  | { ok: false; reason: 'invalid' | 'no-folder' | 'outside' | 'git' | 'unreadable' };

/**
 * The file a code block names, checked on disk: a relative path inside a workspace folder (the
 * first folder where it exists, else the first folder) whose real location, symbolic links
 * followed, is inside that folder too, and not inside `.git`.
 */
export async function resolveApplyTarget(folders: readonly string[], path: string): Promise<ApplyTarget> {
  const segments = workspacePathSegments(path);
  if (!segments) return { ok: false, reason: 'invalid' };
  if (!folders.length) return { ok: false, reason: 'no-folder' };
  return checkInFolders(folders, segments);
}

/** The same checks for a file given by its folder and segments (e.g. the last active editor's). */
export async function checkApplyTarget(folders: readonly string[], folder: number, segments: readonly string[]): Promise<ApplyTarget> {
  return checkOne(folders[folder], folder, [...segments]);
}

async function checkInFolders(folders: readonly string[], segments: string[]): Promise<ApplyTarget> {
  let first: ApplyTarget | undefined;
  for (let i = 0; i < folders.length; i++) {
    const result = await checkOne(folders[i], i, segments);
    if (result.ok && result.exists) return result;
    first ??= result;
  }
  return first ?? { ok: false, reason: 'no-folder' };
}

async function checkOne(folder: string | undefined, index: number, segments: string[]): Promise<ApplyTarget> {
  if (folder === undefined) return { ok: false, reason: 'no-folder' };
  if (protectedArea(segments) === 'git') return { ok: false, reason: 'git' };
  const inside = await resolveInsideFolder(folder, segments);
  if (!inside.ok) return { ok: false, reason: inside.reason === 'unreadable' ? 'unreadable' : 'outside' };
  // A link inside the folder may lead into .git or .vscode: the real place decides too.
  const named = protectedArea(segments);
  const real = protectedArea(inside.relative);
  if (named === 'git' || real === 'git') return { ok: false, reason: 'git' };
  const area = real ?? named;
  return { ok: true, folder: index, segments, real: inside.real, exists: inside.exists, ...(area ? { ask: area } : {}) };
}

function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** Indexes of the lines equal to `line` (ignoring trailing spaces). */
function occurrences(lines: readonly string[], line: string): number[] {
  const want = line.trimEnd();
  const out: number[] = [];
  lines.forEach((l, i) => {
    if (l.trimEnd() === want) out.push(i);
  });
  return out;
}

export function applyBlock(original: string | undefined, block: string): AppliedChange {
  const body = block.replace(/\r\n/g, '\n').replace(/\n$/, '');
  if (original === undefined) return { mode: 'new-file', text: body + '\n' };
  const eol = eolOf(original);
  const fileLines = original.replace(/\r\n/g, '\n').split('\n');
  const blockLines = body.split('\n');
  const first = blockLines.findIndex((l) => l.trim() !== '');
  let last = blockLines.length - 1;
  while (last >= 0 && blockLines[last].trim() === '') last--;
  const trailingNewline = /\r?\n$/.test(original);
  const whole = (): AppliedChange => ({ mode: 'whole-file', text: blockLines.join(eol) + (trailingNewline ? eol : '') });
  if (first < 0 || last - first < 2) return whole();
  const starts = occurrences(fileLines, blockLines[first]);
  if (starts.length !== 1) return whole();
  const from = starts[0];
  const span = last - first + 1;
  let to: number | undefined;
  for (const i of occurrences(fileLines, blockLines[last])) {
    if (i > from && (to === undefined || Math.abs(i - from + 1 - span) < Math.abs(to - from + 1 - span))) to = i;
  }
  if (to === undefined) return whole();
  if (from === 0 && to >= fileLines.length - (trailingNewline ? 2 : 1)) return whole();
  const replaced = [...fileLines.slice(0, from), ...blockLines.slice(first, last + 1), ...fileLines.slice(to + 1)];
  return { mode: 'region', text: replaced.join(eol), lines: [from + 1, to + 1] };
}

/** The question asked before a change to what VS Code runs from is shown. */
export function askBeforeShowing(area: AskArea, name: string): string {
  switch (area) {
    case 'vscode':
      return l10n.t('{0} is in the .vscode folder: its tasks, launch configurations and settings change what VS Code runs in this workspace. Show the change to it?', name);
    case 'code-workspace':
      return l10n.t('{0} is a VS Code workspace file: its settings, tasks and launch configurations change what VS Code runs when it is opened. Show the change to it?', name);
    case 'devcontainer':
      return l10n.t('{0} is a dev container configuration: it says what VS Code builds and runs when the folder is reopened in a container. Show the change to it?', name);
  }
}

/** Why a file a code block names is not changed, told to the user. */
export function refusedTargetText(reason: 'invalid' | 'no-folder' | 'outside' | 'git' | 'unreadable', name: string): string {
  switch (reason) {
    case 'outside':
      return l10n.t('"{0}" leads outside this workspace (through a symbolic link); the change was not applied.', name);
    case 'git':
      return l10n.t('"{0}" is inside a .git folder, where a change can run code or damage the repository; the change was not applied.', name);
    case 'unreadable':
      return l10n.t('"{0}" could not be checked on disk; the change was not applied.', name);
    default:
      return l10n.t('"{0}" is not a path inside this workspace; the change was not applied. Open the file and use Apply to File without a path, or Insert at Cursor.', name);
  }
}
