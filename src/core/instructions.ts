// Project instructions: a file at the workspace root (AGENTS.md unless a setting names another)
// sent to the model as system instructions, after the user's own system prompt. Pure: the host
// reads the file and the workspace's trust and passes them in.
import * as l10n from '@vscode/l10n';

export const DEFAULT_INSTRUCTIONS_FILE = 'AGENTS.md';
/** Beyond this the file is cut (and the panel says so): instructions are sent with every message. */
export const INSTRUCTIONS_MAX_BYTES = 32 * 1024;

/**
 * active: sent. off: the user turned it off for this workspace. missing: no such file (or no
 * folder open). untrusted: Restricted Mode (a cloned repository's file is not sent unasked).
 * binary / empty / unreadable: not sent, and said why.
 */
export type InstructionsState = 'active' | 'off' | 'missing' | 'untrusted' | 'binary' | 'empty' | 'unreadable';

export interface ProjectInstructions {
  state: InstructionsState;
  /** The file's name as the setting gives it (AGENTS.md by default). */
  name: string;
  /** What is sent (only when active). */
  text?: string;
  /** Size of the file in bytes (0 when missing). */
  bytes: number;
  /** True when the text was cut to INSTRUCTIONS_MAX_BYTES. */
  cut: boolean;
}

export interface InstructionsInput {
  name: string;
  /** The file's content, undefined when there is no such file; an Error when it could not be read. */
  content: Uint8Array | Error | undefined;
  trusted: boolean;
  enabled: boolean;
  maxBytes?: number;
}

/** NUL bytes or text that is not UTF-8: not instructions. */
export function isBinary(bytes: Uint8Array): boolean {
  if (bytes.subarray(0, 8192).includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/** The UTF-8 text of at most `max` bytes, never ending inside a character. */
function cutUtf8(bytes: Uint8Array, max: number): string {
  if (bytes.length <= max) return new TextDecoder('utf-8').decode(bytes);
  let end = max;
  // Back up over continuation bytes (10xxxxxx) to the start of a character.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return new TextDecoder('utf-8').decode(bytes.subarray(0, end));
}

export function readInstructions(input: InstructionsInput): ProjectInstructions {
  const { name, content } = input;
  const base = { name, bytes: content instanceof Uint8Array ? content.length : 0, cut: false };
  if (content === undefined) return { ...base, state: 'missing' };
  if (!input.trusted) return { ...base, state: 'untrusted' };
  if (!input.enabled) return { ...base, state: 'off' };
  if (content instanceof Error) return { ...base, state: 'unreadable' };
  if (isBinary(content)) return { ...base, state: 'binary' };
  const max = input.maxBytes ?? INSTRUCTIONS_MAX_BYTES;
  const text = cutUtf8(content.subarray(0, content.length > max ? max + 4 : content.length), max).replace(/^\uFEFF/, '').trim();
  if (!text) return { ...base, state: 'empty' };
  return { ...base, state: 'active', text, cut: content.length > max };
}

/** The system prompt sent: the user's own (setting), then the project's instructions when active. */
export function systemPromptWith(own: string, instructions: ProjectInstructions | undefined): string {
  const parts = [own.trim()];
  if (instructions?.state === 'active' && instructions.text) {
    // l10n-ignore: sent to the model
    parts.push(`Project instructions (${instructions.name}${instructions.cut ? ', cut' : ''}):\n\n${instructions.text}`);
  }
  return parts.filter(Boolean).join('\n\n');
}

/** The line the panel shows about the instructions file, or undefined when there is none. */
export function instructionsStatusText(i: ProjectInstructions): string | undefined {
  const kb = (i.bytes / 1024).toFixed(1);
  switch (i.state) {
    case 'active':
      return i.cut
        ? l10n.t('{0} is sent as instructions (cut to {1} KB of {2} KB)', i.name, String(INSTRUCTIONS_MAX_BYTES / 1024), kb)
        : l10n.t('{0} is sent as instructions ({1} KB)', i.name, kb);
    case 'off':
      return l10n.t('{0} is turned off for this workspace', i.name);
    case 'untrusted':
      return l10n.t('{0} is not sent: the workspace is in Restricted Mode', i.name);
    case 'binary':
      return l10n.t('{0} is not sent: it is not a text file', i.name);
    case 'empty':
      return l10n.t('{0} is empty', i.name);
    case 'unreadable':
      return l10n.t('{0} could not be read', i.name);
    case 'missing':
      return undefined;
  }
}
