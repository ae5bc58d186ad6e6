// "Sent with this message": what went with a question beside its text, stored with it (History,
// reload, export) and shown under it. Each attachment as its chip named it, with the bytes of its
// block in the message; the project instructions and each rule that went in the system text, with
// the bytes of its text. The request's user message is exactly the text plus these blocks. Pure.
import { chipLabel, formatAttachment, type Attachment } from './context';
import { splitSystemPrompt } from './instructions';
import type { SentItem } from '../chat/conversationFormat';

/** Most items one record keeps (100 chips, the instructions, the rules of a request). */
export const MAX_SENT_ITEMS = 320;

// The stored shape (its schema: ../chat/conversationFormat).
export type { SentItem };

const utf8 = (text: string) => new TextEncoder().encode(text).length;
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The record of attachments as they are sent (after onceEach): one item each, in order. */
export function attachmentItems(sent: readonly Attachment[], pinned: ReadonlySet<string> = new Set()): SentItem[] {
  return sent.slice(0, MAX_SENT_ITEMS).map((a) => ({
    kind: a.kind === 'selection' ? 'range' : a.kind,
    name: cut(chipLabel(a).name, 1100),
    ...(a.kind !== 'terminal' && a.kind !== 'changes' ? { path: cut(a.path, 1000) } : {}),
    ...(a.kind === 'selection' && a.startLine !== undefined && a.endLine !== undefined ? { startLine: a.startLine, endLine: a.endLine } : {}),
    bytes: utf8(formatAttachment(a)),
    ...(pinned.has(a.id) ? { pinned: true as const } : {}),
  }));
}

/** The project instructions and the rules a system text holds, each with the bytes of its text. */
export function instructionItems(system: string): SentItem[] {
  const { project, name, rules } = splitSystemPrompt(system);
  return [
    ...(project && name ? [{ kind: 'instructions' as const, name: cut(name, 1100), path: cut(name, 1000), bytes: utf8(project) }] : []),
    ...rules.map((r) => ({ kind: 'rule' as const, name: cut(r.path, 1100), path: cut(r.path, 1000), bytes: utf8(r.text) })),
  ];
}

/** The attachments of a record (what the user attached, not what the request added). */
export function attachedPart(record: readonly SentItem[]): SentItem[] {
  return record.filter((i) => i.kind !== 'instructions' && i.kind !== 'rule');
}

/** A record with its instructions and rules as this request's system text has them (attachments kept). */
export function withInstructions(record: readonly SentItem[] | undefined, system: string): SentItem[] {
  return [...attachedPart(record ?? []), ...instructionItems(system)].slice(0, MAX_SENT_ITEMS);
}

/** What a question carries beside its text: its workspace files (the rules for them go too) and its record. */
export interface Carried {
  files?: readonly string[];
  sent?: readonly SentItem[];
}

/** Only the parts that are set (no undefined fields). */
export function carried(files?: readonly string[], sent?: readonly SentItem[]): Carried {
  return { ...(files?.length ? { files } : {}), ...(sent ? { sent } : {}) };
}
