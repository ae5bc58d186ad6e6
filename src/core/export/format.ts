// The lossless conversation file (`.aichat.json`): one conversation with everything the chat keeps
// of it (every message with its status, reply facts and error, the summary of earlier turns, where
// a fork came from, the title and the dates), in a versioned envelope:
//
//   { "format": "ai-chat-conversation", "version": 1, "exportedAt": …, "conversation": {…} }
//
// Written by Export Chat, read back by Import Conversation…. Its schema is this file's own, built
// from the stored schemas' parts; the stored conversation's own `version` (a storage detail) is not
// in it. A reader refuses a file of a newer version (saying which version it reads) and a file
// that fails the schema (saying what is wrong). VS Code-free.
import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import { useZodEnglish } from '../../wording/zodEnglish';
import * as l10n from '@vscode/l10n';
import { MESSAGE_ID_SPACE, type Conversation, type StoredMessage } from '../chat/conversation';
import { ConversationSchema, StoredMessageSchema } from '../chat/conversationFormat';

useZodEnglish();

export const EXPORT_FORMAT = 'ai-chat-conversation';
/** The version of the file this extension writes, and the newest it reads. */
export const EXPORT_VERSION = 1;
export const EXPORT_FILE_SUFFIX = '.aichat.json';
/** Largest file Import reads (a conversation of thousands of long turns is a few megabytes). */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

/** A message as the file keeps it: a reply still streaming when it was exported is written as stopped. */
export const ExportedMessageSchema = z.extend(StoredMessageSchema, { status: z.enum(['complete', 'stopped', 'error']) });
export type ExportedMessage = z.infer<typeof ExportedMessageSchema>;

export const ExportedConversationSchema = z.extend(z.omit(ConversationSchema, { version: true }), {
  nextSeq: z.number().check(z.int(), z.gte(0), z.lte(MESSAGE_ID_SPACE - 1)),
  messages: z.array(ExportedMessageSchema),
  variants: z.optional(z.array(ExportedMessageSchema)),
});
export type ExportedConversation = z.infer<typeof ExportedConversationSchema>;

export const ExportFileSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: z.string(),
  conversation: ExportedConversationSchema,
});
export type ExportFile = z.infer<typeof ExportFileSchema>;

/**
 * The conversation as the file keeps it, fields in a fixed, readable order: to be written or
 * hashed, not changed (it shares the conversation's messages; Export All writes thousands).
 */
export function exportedConversation(conv: Conversation): ExportedConversation {
  const exported = (m: StoredMessage): ExportedMessage => (m.status === 'streaming' ? { ...m, status: 'stopped' } : (m as ExportedMessage));
  const messages = conv.messages.map(exported);
  return {
    id: conv.id,
    title: conv.title,
    createdAt: conv.createdAt,
    updatedAt: conv.updatedAt,
    ...(conv.forkedFrom ? { forkedFrom: structuredClone(conv.forkedFrom) } : {}),
    ...(conv.importedFrom ? { importedFrom: structuredClone(conv.importedFrom) } : {}),
    ...(conv.summary ? { summary: structuredClone(conv.summary) } : {}),
    ...(conv.pins?.length ? { pins: structuredClone(conv.pins) } : {}),
    nextSeq: conv.nextSeq,
    messages,
    // The variants of replies not shown (Retry with…): `messages` holds the one shown of each.
    ...(conv.variants?.length ? { variants: conv.variants.map(exported) } : {}),
  };
}

export function exportFile(conv: Conversation, exportedAt: Date = new Date()): ExportFile {
  return { format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt: exportedAt.toISOString(), conversation: exportedConversation(conv) };
}

/** The file's text: indented JSON, one trailing newline. */
export function exportFileText(conv: Conversation, exportedAt: Date = new Date()): string {
  return JSON.stringify(exportFile(conv, exportedAt), null, 2) + '\n';
}

/** A file name for the conversation's export: its title without the characters a file system refuses. */
export function exportFileName(title: string, suffix = EXPORT_FILE_SUFFIX): string {
  const clean = title
    .replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 80)
    .trim();
  return (clean || 'conversation') + suffix; // l10n-ignore: a file name
}

/** JSON with every object's keys sorted: the same conversation gives the same text however its keys were ordered. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/** The hash of a file's conversation (SHA-256 of its canonical JSON): the same file imported twice has the same. */
export function conversationHash(conv: ExportedConversation): string {
  return createHash('sha256').update(canonicalJson(conv)).digest('hex');
}

/** Why a file was refused: not JSON or not ours, from a newer version, or failing the schema. */
export type ExportFileProblem =
  | { kind: 'not-json'; message: string }
  | { kind: 'not-ours'; message: string }
  | { kind: 'newer'; version: number; message: string }
  | { kind: 'broken'; message: string; issues: string[] };

export type ParsedExportFile = { ok: true; file: ExportFile; hash: string } | ({ ok: false } & ExportFileProblem);

/** Most problems named in a broken file's message (all of them are in `issues`). */
const NAMED_ISSUES = 3;

/** A zod path as a reader finds it in the file: `conversation.messages[3].status`. */
function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : (out ? '.' : '') + String(p);
  return out || '(top level)'; // l10n-ignore: a JSON path
}

/** Why a file of `size` bytes is not read (undefined: it is not too large). */
export function importSizeProblem(size: number): ExportFileProblem | undefined {
  if (size <= MAX_IMPORT_BYTES) return undefined;
  return {
    kind: 'broken',
    message: l10n.t('the file is {0} MB; the largest conversation file AI Chat imports is {1} MB.', Math.ceil(size / 1048576), MAX_IMPORT_BYTES / 1048576),
    issues: [],
  };
}

/** Reads a conversation file's bytes (UTF-8, a byte order mark allowed). */
export function parseExportBytes(bytes: Uint8Array): ParsedExportFile {
  const tooLarge = importSizeProblem(bytes.byteLength);
  if (tooLarge) return { ok: false, ...tooLarge };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, kind: 'not-json', message: l10n.t('the file is not UTF-8 text.') };
  }
  return parseExportText(text);
}

/** Reads a conversation file's text; on failure, says what is wrong (worded for the user). */
export function parseExportText(text: string): ParsedExportFile {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    return { ok: false, kind: 'not-json', message: l10n.t('the file is not JSON ({0}).', err instanceof Error ? err.message : String(err)) };
  }
  const record = typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  if (!record || record.format !== EXPORT_FORMAT) {
    return { ok: false, kind: 'not-ours', message: l10n.t('the file is not an AI Chat conversation (its "format" is not "{0}").', EXPORT_FORMAT) };
  }
  const version = record.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { ok: false, kind: 'broken', message: l10n.t('the file has no valid format version (found {0}).', JSON.stringify(version) ?? 'nothing'), issues: ['version'] };
  }
  if (version > EXPORT_VERSION) {
    return {
      ok: false,
      kind: 'newer',
      version,
      message: l10n.t(
        'the file was written by a newer version of AI Chat (conversation file version {0}); this version reads version {1}. Update AI Chat, then import it again.',
        version,
        EXPORT_VERSION,
      ),
    };
  }
  const parsed = ExportFileSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${pathText(i.path)}: ${i.message}`);
    const named = issues.slice(0, NAMED_ISSUES).join('; ');
    const more = issues.length - NAMED_ISSUES;
    return {
      ok: false,
      kind: 'broken',
      message: more > 0 ? l10n.t('the file is damaged: {0} (and {1} more problems).', named, more) : l10n.t('the file is damaged: {0}.', named),
      issues,
    };
  }
  return { ok: true, file: parsed.data, hash: conversationHash(parsed.data.conversation) };
}

/**
 * The conversation an import stores: the file's conversation whole (messages, ids, summary, title,
 * dates), under a new id, with where it came from (`importedFrom`: the file's id and hash).
 */
export function importedConversation(file: ExportFile, hash: string, newId: string): Conversation {
  const c = structuredClone(file.conversation);
  const messages: StoredMessage[] = c.messages;
  return {
    version: 1,
    id: newId,
    title: c.title,
    ...(c.forkedFrom ? { forkedFrom: c.forkedFrom } : {}),
    importedFrom: { id: c.id, hash },
    ...(c.summary ? { summary: c.summary } : {}),
    ...(c.pins?.length ? { pins: c.pins } : {}),
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    nextSeq: c.nextSeq,
    messages,
    ...(c.variants?.length ? { variants: c.variants } : {}),
  };
}

/**
 * True when `stored` is this file's conversation already: imported from it before (same id and
 * hash), or the very conversation that was exported, unchanged since.
 */
export function holdsFile(stored: Conversation, fileId: string, hash: string): boolean {
  if (stored.importedFrom?.id === fileId && stored.importedFrom.hash === hash) return true;
  return stored.id === fileId && conversationHash(exportedConversation(stored)) === hash;
}
