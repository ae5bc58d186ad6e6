// The archive of Export All and Import All (`.aichat-archive.jsonl`): every conversation in one
// file, as JSON lines. Its first line is the archive's own small header, each line after it one
// conversation file of format.ts (version 1, on one line):
//
//   {"format":"ai-chat-archive","version":1,"exportedAt":"…","conversations":3000}
//   {"format":"ai-chat-conversation","version":1,"exportedAt":"…","conversation":{…}}
//   …
//
// A reader refuses an archive of a newer version, one whose header is missing or wrong, and one
// with a line that is not a valid conversation file or cut short (saying which line). VS Code-free.
import * as l10n from '@vscode/l10n';
import { exportFile, type ExportFileProblem } from './format';
import type { Conversation } from '../chat/conversation';

export const ARCHIVE_FORMAT = 'ai-chat-archive';
/** The version of the archive this extension writes, and the newest it reads. */
export const ARCHIVE_VERSION = 1;
export const ARCHIVE_FILE_SUFFIX = '.aichat-archive.jsonl';
/** Largest archive Import All reads (thousands of long conversations are a few hundred megabytes). */
export const MAX_ARCHIVE_BYTES = 1024 * 1024 * 1024;

export interface ArchiveHeader {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  exportedAt: string;
  /** How many conversation lines follow (a shorter archive was cut short). */
  conversations: number;
}

/** The archive's first line (with its newline). */
export function archiveHeaderLine(count: number, exportedAt: Date): string {
  const header: ArchiveHeader = { format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, exportedAt: exportedAt.toISOString(), conversations: count };
  return JSON.stringify(header) + '\n';
}

/** A conversation's line of the archive (with its newline). */
export function archiveLine(conv: Conversation, exportedAt: Date): string {
  return JSON.stringify(exportFile(conv, exportedAt)) + '\n';
}

/** Reads the archive's first line: its header, or what is wrong (worded for the user). */
export function parseArchiveHeader(text: string): { ok: true; header: ArchiveHeader } | ({ ok: false } & ExportFileProblem) {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    return { ok: false, kind: 'not-json', message: l10n.t('the file is not an AI Chat archive: its first line is not JSON ({0}).', err instanceof Error ? err.message : String(err)) };
  }
  const record = typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  if (record.format === 'ai-chat-conversation') {
    return { ok: false, kind: 'not-ours', message: l10n.t('it is one conversation, not an archive of them: import it with AI Chat: Import Conversation….') };
  }
  if (record.format !== ARCHIVE_FORMAT) {
    return { ok: false, kind: 'not-ours', message: l10n.t('the file is not an AI Chat archive (its "format" is not "{0}").', ARCHIVE_FORMAT) };
  }
  const { version, conversations, exportedAt } = record;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { ok: false, kind: 'broken', message: l10n.t('the archive has no valid format version (found {0}).', JSON.stringify(version) ?? 'nothing'), issues: ['version'] };
  }
  if (version > ARCHIVE_VERSION) {
    return {
      ok: false,
      kind: 'newer',
      version,
      message: l10n.t('the archive was written by a newer version of AI Chat (archive version {0}); this version reads version {1}. Update AI Chat, then import it again.', version, ARCHIVE_VERSION),
    };
  }
  if (typeof conversations !== 'number' || !Number.isInteger(conversations) || conversations < 0 || typeof exportedAt !== 'string') {
    return { ok: false, kind: 'broken', message: l10n.t('the archive is damaged: its first line does not say how many conversations it holds.'), issues: ['conversations'] };
  }
  return { ok: true, header: { format: ARCHIVE_FORMAT, version, exportedAt, conversations } };
}

/**
 * The lines of `bytes` (split at each newline; a last line without one counts), as byte ranges:
 * nothing is decoded here, so that a large archive is read a line at a time.
 */
export function* archiveLines(bytes: Uint8Array): Generator<{ start: number; end: number }> {
  let start = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl < 0 ? bytes.length : nl;
    yield { start, end: end > start && bytes[end - 1] === 0x0d ? end - 1 : end };
    start = end + 1;
  }
}
