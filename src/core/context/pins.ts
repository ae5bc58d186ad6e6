// Pins: files and ranges kept with a conversation and sent with each of its messages, read again
// at every send (never a stale copy). Stored with the conversation (History, reload, Fork); the
// service charges per message, so a pin costs no extra credits, only room in the model's context.
// VS Code-free.
import { textAttachment, type Attachment } from './context';
import type { Pin } from '../chat/conversationFormat';

/** Most pins one conversation keeps. */
export const MAX_PINS = 50;

// The stored shape (its schema: ../chat/conversationFormat).
export type { Pin };

/** One key per pin: the same file, or the same lines of a file. */
export function pinKey(p: Pin): string {
  return p.kind === 'file' ? `file\0${p.path}` : `range\0${p.path}\0${p.startLine ?? 0}\0${p.endLine ?? 0}`;
}

/** The pin an attachment becomes: a file, or a range with its lines (Problems and the terminal are not pinned). */
export function pinOf(a: Attachment): Pin | undefined {
  if (a.kind === 'file') return { kind: 'file', path: a.path };
  if (a.kind === 'selection' && a.startLine !== undefined && a.endLine !== undefined) {
    return { kind: 'range', path: a.path, startLine: a.startLine, endLine: a.endLine, ...(a.symbol ? { symbol: a.symbol.slice(0, 300) } : {}) };
  }
  return undefined;
}

/** `pins` with `pin` added once (the oldest first), at most MAX_PINS. */
export function addPin(pins: readonly Pin[], pin: Pin): Pin[] {
  const key = pinKey(pin);
  return pins.some((p) => pinKey(p) === key) ? [...pins] : [...pins, pin].slice(-MAX_PINS);
}

export function removePin(pins: readonly Pin[], pin: Pin): Pin[] {
  const key = pinKey(pin);
  return pins.filter((p) => pinKey(p) !== key);
}

/** A pinned range read again from the file's text as it is now (lines past its end are gone). */
export function rangeFromText(id: string, pin: Pin, language: string, text: string, maxKB: number): Attachment | undefined {
  const lines = text.split(/(?<=\n)/);
  const start = pin.startLine ?? 1;
  const end = Math.min(pin.endLine ?? start, lines.length);
  if (start > lines.length || end < start) return undefined;
  const a = textAttachment(id, 'selection', pin.path, language, lines.slice(start - 1, end).join(''), maxKB, { start, end });
  return pin.symbol ? { ...a, symbol: pin.symbol } : a;
}
