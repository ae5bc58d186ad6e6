// A message from the chat with the chips above its box: the attachments go with it, and their
// chips go once the message is in the conversation or in the queue (else they would be sent again
// with the next message). On any refusal the chips stay. VS Code-free, unit-tested directly.
import { assembleMessage, attachmentItems, onceEach, type Attachment, type ChatSession, type SentItem } from '../../../core';
import type { SendOutcome } from './chatSends';

/** The chips of the next message (ContextAttachments satisfies it). */
export interface AttachmentList {
  readonly attachments: readonly Attachment[];
  /** Exactly these were sent: their chips go (ones added meanwhile stay). */
  sent(attachments: readonly Attachment[]): void;
  /** The conversation's pins read again now: they go with every message, before the chips. */
  pinned?(): Promise<readonly Attachment[]>;
}

/** The workspace files of the attachments (a file, a selection, a file's Problems), each once. */
export function attachedFiles(attached: readonly Attachment[]): string[] {
  return [...new Set(attached.filter((a) => a.kind !== 'terminal' && a.kind !== 'changes' && a.path).map((a) => a.path))];
}

/** The message as the request carries it: the text, then each file, range and Problems once. */
export function messageWith(text: string, attached: readonly Attachment[]): string {
  return attached.length ? assembleMessage(text, onceEach(attached)) : text;
}

/** The same thing (a file, or the same lines of one) as a record's item. */
const sameAs = (item: SentItem, a: Attachment): boolean =>
  a.kind !== 'terminal' && a.kind !== 'changes' && item.path === a.path && (a.kind === 'selection' ? item.startLine === a.startLine && item.endLine === a.endLine : item.kind === a.kind && item.startLine === undefined);

/**
 * A message that waited (queued while a reply streamed) as it goes now: the conversation's pins, read
 * now, after its text and its own attachments; a pin that is one of those attachments is not added
 * twice (the attachment goes).
 */
export function withPinsNow(
  text: string,
  files: readonly string[] | undefined,
  sent: readonly SentItem[] | undefined,
  pins: readonly Attachment[],
): { text: string; files?: readonly string[]; sent?: readonly SentItem[] } {
  const fresh = onceEach(pins.filter((p) => !(sent ?? []).some((i) => !i.pinned && sameAs(i, p))));
  if (!fresh.length) return { text, files, sent };
  const allFiles = [...new Set([...(files ?? []), ...attachedFiles(fresh)])];
  return {
    text: assembleMessage(text, fresh),
    ...(allFiles.length ? { files: allFiles } : {}),
    sent: [...(sent ?? []), ...attachmentItems(fresh, new Set(fresh.map((a) => a.id)))],
  };
}

/**
 * Sends `text` with what is attached. `sending` is told the whole message and the typed text while
 * it goes (text returned to the box is the typed text, not the attachments), then undefined.
 */
export async function sendWithAttachments(
  text: string,
  chips: AttachmentList,
  controller: { send(text: string, model?: string, files?: readonly string[], sent?: readonly SentItem[], pinsWhenSent?: boolean): Promise<SendOutcome> },
  session: ChatSession,
  sending: (message: { full: string; text: string } | undefined) => void = () => undefined,
  model?: string,
): Promise<SendOutcome> {
  const attached = [...chips.attachments];
  // While a reply streams the message waits in the queue: its pins join it when it goes, read then
  // (withPinsNow); read now only to leave out the chips they are.
  const later = !!chips.pinned && session.busy;
  const pinned = chips.pinned ? await chips.pinned() : [];
  if (!attached.length && !pinned.length) return controller.send(text, model, undefined, undefined, later || undefined);
  // Each file, range and Problems once (a chip of a pinned file goes as the pin); the record
  // under the message names exactly those.
  const pinnedIds = new Set(pinned.map((a) => a.id));
  const once = onceEach([...pinned, ...attached]).filter((a) => !later || !pinnedIds.has(a.id));
  const full = assembleMessage(text, once);
  sending({ full, text });
  let outcome: SendOutcome;
  try {
    outcome = await controller.send(full, model, attachedFiles(once), attachmentItems(once, pinnedIds), later || undefined);
  } finally {
    sending(undefined);
  }
  // Queued: the queued message holds its attachments.
  if (outcome === 'queued') {
    chips.sent(attached);
    return outcome;
  }
  // Sent when the conversation holds it as a user message.
  const last = session.conversation.messages.filter((m) => m.role === 'user').at(-1);
  if (last?.content === full && !session.sendError) chips.sent(attached);
  return outcome;
}
