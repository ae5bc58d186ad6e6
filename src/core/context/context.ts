// Context attached to the next message: files, selections, Problems and terminal text,
// shown as chips and sent as fenced blocks after the user's text. VS Code-free.
import * as l10n from '@vscode/l10n';
import { isBinary } from './instructions';
import { fenceFor, fenceLanguage, lineRangeText, rangeName } from './selection';
import { isPathInside, readHead } from './workspacePath';
import { formatSize } from '../../wording/sentWith';

/** Most attachments one message takes (the chip row shows them all). */
export const MAX_ATTACHMENTS = 100;
/** Most characters the attachments of one message add together (a message is at most 10 M). */
export const MAX_ATTACHED_CHARS = 8_000_000;

/** `changes`: a Git diff (its `path` names which: "staged", "working tree", "main...HEAD"). */
export type AttachmentKind = 'file' | 'selection' | 'problems' | 'terminal' | 'changes';

export interface Attachment {
  id: string;
  kind: AttachmentKind;
  /** Workspace-relative path (or a name such as "Terminal"). */
  path: string;
  /** Fence info string, e.g. "typescript". */
  language: string;
  /** Exactly the text that is sent (already cut). */
  content: string;
  /** Size of the source before any cut, in bytes. */
  bytes: number;
  /** Set when the content was cut: the limit in KB. */
  cutToKB?: number;
  startLine?: number;
  endLine?: number;
  /** Problems: how many. */
  count?: number;
  /** A range that is a symbol (a function, a class): its name names the chip. */
  symbol?: string;
}

export interface ChipLabel {
  name: string;
  detail: string;
  icon: string;
}

export interface Diagnostic {
  /** 1-based. */
  line: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  message: string;
  source?: string;
}

export const CUT_MARKER = '[… cut: the rest of this file was not attached]'; // l10n-ignore: text sent to the model

const LANGUAGES: Record<string, string> = {
  ts: 'typescript', tsx: 'tsx', js: 'javascript', jsx: 'jsx', mjs: 'javascript', cjs: 'javascript', py: 'python', rb: 'ruby',
  go: 'go', rs: 'rust', java: 'java', kt: 'kotlin', c: 'c', h: 'c', cpp: 'cpp', cc: 'cpp', hpp: 'cpp', cs: 'csharp', php: 'php',
  swift: 'swift', sh: 'bash', bash: 'bash', zsh: 'bash', ps1: 'powershell', json: 'json', yaml: 'yaml', yml: 'yaml', toml: 'toml',
  md: 'markdown', html: 'html', css: 'css', scss: 'scss', sql: 'sql', xml: 'xml', vue: 'vue', svelte: 'svelte', lua: 'lua', r: 'r',
};

/** The fence language for a path, from its extension ("" when unknown). */
export function languageFromPath(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? '';
  if (/^dockerfile$/i.test(base)) return 'dockerfile';
  if (/^makefile$/i.test(base)) return 'makefile';
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return '';
  return LANGUAGES[base.slice(dot + 1).toLowerCase()] ?? '';
}

export { formatSize } from '../../wording/sentWith';

/** Cuts text to at most maxBytes of UTF-8 (at a line end when one is near), with the marker. */
export function cutText(text: string, maxBytes: number): { text: string; cut: boolean } {
  const encoded = new TextEncoder().encode(text);
  if (encoded.length <= maxBytes) return { text, cut: false };
  // Decoding a prefix may end inside a character: drop the replacement character it leaves.
  let head = new TextDecoder('utf-8').decode(encoded.slice(0, maxBytes)).replace(/\uFFFD$/, '');
  const nl = head.lastIndexOf('\n');
  if (nl > head.length * 0.8) head = head.slice(0, nl + 1);
  return { text: `${head.replace(/\n?$/, '\n')}${CUT_MARKER}`, cut: true };
}

export type FileResult = { ok: true; attachment: Attachment } | { ok: false; message: string };

/**
 * A file as an attachment: refused when binary, cut above maxKB. `bytes` may be only the start of
 * the file (at least maxKB * 1024 + 4 bytes of it when it is longer); `size` is the whole file's.
 */
export function fileAttachment(id: string, path: string, bytes: Uint8Array, maxKB: number, language?: string, size = bytes.length): FileResult {
  const head = bytes.subarray(0, Math.min(bytes.length, maxKB * 1024 + 4));
  if (isBinary(head, size > head.length)) {
    return { ok: false, message: l10n.t('{0} looks like a binary file and was not attached. Attach a text file, or select the text you need and attach the selection.', path) };
  }
  const text = new TextDecoder('utf-8').decode(head);
  const { text: content, cut } = cutText(text, maxKB * 1024);
  return {
    ok: true,
    attachment: { id, kind: 'file', path, language: language ?? languageFromPath(path), content, bytes: size, ...(cut || size > head.length ? { cutToKB: maxKB } : {}) },
  };
}

/**
 * A file on disk as an attachment, reading only what is kept (maxKB and a few bytes to tell a cut
 * character from binary), never the whole file. Throws when it cannot be read or is not a
 * regular file (code ENOTFILE).
 */
export async function readFileAttachment(id: string, path: string, fsPath: string, maxKB: number, language?: string): Promise<FileResult> {
  const head = await readHead(fsPath, maxKB * 1024 + 4);
  return fileAttachment(id, path, head.bytes, maxKB, language, head.size);
}

/**
 * Whether `next` may join `items` (a chip of the same file replaces the older one): at most
 * MAX_ATTACHMENTS chips and MAX_ATTACHED_CHARS characters of content together.
 */
export function attachmentRoom(items: readonly Attachment[], next: Attachment, limits = { count: MAX_ATTACHMENTS, chars: MAX_ATTACHED_CHARS }): 'ok' | 'count' | 'size' {
  const kept = items.filter((o) => !replaces(next, o));
  if (kept.length + 1 > limits.count) return 'count';
  const chars = kept.reduce((sum, a) => sum + a.content.length, next.content.length);
  return chars > limits.chars ? 'size' : 'ok';
}

/** The same file, the same Problems or the same lines of a file attached again replace the older chip. */
export function replaces(next: Attachment, old: Attachment): boolean {
  if (old.kind !== next.kind || old.path !== next.path || old.kind === 'terminal') return false;
  return old.kind !== 'selection' || (old.startLine !== undefined && old.startLine === next.startLine && old.endLine === next.endLine);
}

/** Why attachments were left out, for one message after a batch (Open Editors, a drop, Files…). */
export function attachmentLimitMessage(reason: 'count' | 'size', leftOut: readonly string[]): string {
  const names = leftOut.slice(0, 3).join(', ') + (leftOut.length > 3 ? ', …' : '');
  return reason === 'count'
    ? l10n.t('{0} not attached ({1}): a message takes at most {2} attachments. Remove some chips, or send these in another message.', leftOut.length === 1 ? l10n.t('1 file was') : l10n.t('{0} files were', leftOut.length), names, MAX_ATTACHMENTS)
    : l10n.t('{0} not attached ({1}): the attachments of a message are limited to {2} million characters. Remove some chips, or lower aiChat.context.maxFileKB.', leftOut.length === 1 ? l10n.t('1 file was') : l10n.t('{0} files were', leftOut.length), names, MAX_ATTACHED_CHARS / 1e6);
}

/** The URIs of `tabs` that are files of a workspace folder (file scheme, inside a folder), and the others. */
export function workspaceFilesOf<T extends { scheme: string; fsPath: string }>(uris: readonly T[], folders: readonly string[]): { files: T[]; others: T[] } {
  const files: T[] = [];
  const others: T[] = [];
  for (const u of uris) (u.scheme === 'file' && folders.some((f) => isPathInside(f, u.fsPath)) ? files : others).push(u);
  return { files, others };
}

/**
 * Reads text through the clipboard (the terminal's selection has no API): the user's clipboard
 * text is put back whatever happens, the copy failing included.
 */
export async function readThroughClipboard(
  clipboard: { readText(): PromiseLike<string>; writeText(text: string): PromiseLike<void> },
  copy: () => PromiseLike<unknown>,
): Promise<string> {
  const saved = await clipboard.readText();
  try {
    await clipboard.writeText('');
    await copy();
    return await clipboard.readText();
  } finally {
    await clipboard.writeText(saved);
  }
}

/** Problems as one line each: "line 12 · error · message (source)". */
export function formatDiagnostics(diagnostics: readonly Diagnostic[]): string {
  return [...diagnostics]
    .sort((a, b) => a.line - b.line)
    .map((d) => `line ${d.line} · ${d.severity} · ${d.message.replace(/\s+/g, ' ').trim()}${d.source ? ` (${d.source})` : ''}`) // l10n-ignore: text sent to the model
    .join('\n');
}

export function problemsAttachment(id: string, path: string, diagnostics: readonly Diagnostic[], maxKB: number): Attachment {
  const full = formatDiagnostics(diagnostics);
  const { text, cut } = cutText(full, maxKB * 1024);
  return { id, kind: 'problems', path, language: '', content: text, bytes: new TextEncoder().encode(full).length, count: diagnostics.length, ...(cut ? { cutToKB: maxKB } : {}) };
}

export function textAttachment(id: string, kind: 'selection' | 'terminal' | 'changes', path: string, language: string, text: string, maxKB: number, lines?: { start: number; end: number }): Attachment {
  const { text: content, cut } = cutText(text, maxKB * 1024);
  return {
    id, kind, path, language, content, bytes: new TextEncoder().encode(text).length,
    ...(cut ? { cutToKB: maxKB } : {}),
    ...(lines ? { startLine: lines.start, endLine: lines.end } : {}),
  };
}

/** What a chip shows: "utils.ts · 3.2 KB · lines 10–42". */
export function chipLabel(a: Attachment): ChipLabel {
  const range = a.kind === 'selection' && a.startLine !== undefined && a.endLine !== undefined;
  // A range is named by its path and lines ("src/a.ts:12-40"), a file by its base name.
  const lines = range ? rangeName(a.path, a.startLine ?? 1, a.endLine ?? 1) : '';
  // Git changes are named whole ("app: main...feature").
  const name = a.symbol ?? (range ? lines : a.kind === 'changes' ? a.path : a.path.split(/[\\/]/).pop() || a.path);
  // A symbol's chip says where it is.
  const parts = a.symbol && range ? [lines, formatSize(a.bytes)] : [formatSize(a.bytes)];
  if (a.kind === 'problems') parts.unshift(a.count === 1 ? l10n.t('1 problem') : l10n.t('{0} problems', a.count ?? 0));
  if (a.kind === 'terminal') parts.unshift(l10n.t('terminal selection'));
  if (a.kind === 'changes') parts.unshift(l10n.t('changes'));
  if (a.cutToKB !== undefined) parts.push(l10n.t('cut to {0} KB', a.cutToKB));
  const icon = { file: 'file', selection: 'selection', problems: 'warning', terminal: 'terminal', changes: 'git-compare' }[a.kind];
  return { name, detail: parts.join(' · '), icon };
}

function header(a: Attachment): string {
  const path = a.path.replace(/`/g, '');
  switch (a.kind) {
    case 'file':
      return `\`${path}\`${a.cutToKB !== undefined ? ` (cut to ${a.cutToKB} KB)` : ''}:`; // l10n-ignore: text sent to the model
    case 'selection':
      return `\`${path}\`, ${lineRangeText(a.startLine ?? 1, a.endLine ?? a.startLine ?? 1)}${a.symbol ? ` (${a.symbol.replace(/[`\n]/g, '')})` : ''}:`;
    case 'problems':
      return `Problems in \`${path}\`:`; // l10n-ignore: text sent to the model
    case 'terminal':
      return 'Terminal selection:'; // l10n-ignore: text sent to the model
    case 'changes':
      return `Git changes (${path}):`; // l10n-ignore: text sent to the model
  }
}

/** One attachment as sent: a header line with path, then a fenced block with the language. */
export function formatAttachment(a: Attachment): string {
  const fence = fenceFor(a.content);
  const body = a.content.replace(/\r\n/g, '\n').replace(/\n+$/, '');
  return `${header(a)}\n\n${fence}${fenceLanguage(a.language)}\n${body}\n${fence}`;
}

/** The message as sent: the user's text, then each attachment in chip order. */
export function assembleMessage(text: string, attachments: readonly Attachment[]): string {
  const user = text.replace(/\s+$/, '');
  if (!attachments.length) return user;
  return [user, ...attachments.map(formatAttachment)].join('\n\n');
}

/** Total bytes of what the attachments add to the message. */
export function attachedBytes(attachments: readonly Attachment[]): number {
  return attachments.reduce((sum, a) => sum + new TextEncoder().encode(formatAttachment(a)).length, 0);
}
