// Project instructions: a file at the workspace root (AGENTS.md unless a setting names another)
// sent to the model as system instructions, after the user's own system prompt. The host passes
// the workspace's trust; locateInstructions finds and reads the file on disk (a regular file
// inside the folder, links followed only inside it, names of secrets refused, 32 KB at most).
import * as l10n from '@vscode/l10n';
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { readHead, resolveInsideFolder } from './workspacePath';

export const DEFAULT_INSTRUCTIONS_FILE = 'AGENTS.md';
/** Beyond this the file is cut (and the panel says so): instructions are sent with every message. */
export const INSTRUCTIONS_MAX_BYTES = 32 * 1024;

/**
 * active: sent. off: the user turned it off for this workspace. missing: no such file (or no
 * folder open). untrusted: Restricted Mode (a cloned repository's file is not sent unasked).
 * refused: never sent (see RefusedReason). binary / empty / unreadable: not sent, and said why.
 */
export type InstructionsState = 'active' | 'off' | 'missing' | 'untrusted' | 'refused' | 'binary' | 'empty' | 'unreadable';

/** secret: its name looks like a key, a login or an .env file (see secretLikeName); outside: a link out of the workspace; special: not a regular file. */
export type RefusedReason = 'secret' | 'outside' | 'special';

/** Folders whose every file is the tools' own (repository data, keys, cloud and cluster logins). */
const SECRET_FOLDERS = ['.git', '.ssh', '.gnupg', '.aws', '.azure', '.kube', '.docker', '.gcloud', '.password-store'];
/** Files of a known folder that hold logins: `.docker/config.json`, `.kube/config`, `.aws/config`. */
const SECRET_IN_FOLDER: Record<string, string[]> = { '.docker': ['config.json'], '.kube': ['config'], '.aws': ['config'] };
/** Files that hold passwords or tokens whatever folder they are in. */
const SECRET_FILES = ['.netrc', '_netrc', '.npmrc', '.pgpass', '.pypirc', '.htpasswd', '.git-credentials', '.dockercfg', '.s3cfg', '.boto', '.vault-token', '.terraformrc', 'terraform.rc'];

/**
 * Names that look like secrets: `.env*`, `*.pem` (and other key stores), anything with `key`,
 * `secret`, `credential` or `passw` in it, `id_*` (SSH keys), `.netrc`, `.npmrc`, `.pgpass`,
 * `.pypirc` and other files of logins, Terraform variables and state (`*.tfvars`, `*.tfstate`),
 * and anything inside `.git`, `.ssh`, `.aws`, `.kube`, `.docker` and similar folders. The whole
 * path is looked at (`.git/config`), its names compared as Windows and macOS do (case, trailing
 * dots and spaces ignored).
 */
export function secretLikeName(path: string): boolean {
  const names = path
    .split(/[\\/]+/)
    .map((s) => s.toLowerCase().replace(/[. ]+$/, ''))
    .filter((s) => s !== '' && s !== '.');
  const base = names.at(-1) ?? '';
  const folders = names.slice(0, -1);
  if (folders.some((f) => SECRET_FOLDERS.includes(f))) return true;
  const parent = folders.at(-1);
  if (parent && SECRET_IN_FOLDER[parent]?.includes(base)) return true;
  return (
    SECRET_FOLDERS.includes(base) ||
    base.startsWith('.env') ||
    /\.(pem|p12|pfx|key|jks|keystore|kdbx|ovpn|tfvars|tfvars\.json|tfstate|tfstate\.backup)$/.test(base) ||
    /key|secret|credential|passw/.test(base) ||
    base.startsWith('id_') ||
    SECRET_FILES.includes(base)
  );
}

export interface ProjectInstructions {
  state: InstructionsState;
  /** The file's name as the setting gives it (AGENTS.md by default). */
  name: string;
  /** The file really read, relative to the folder, when it is not `name` (a link inside the workspace). */
  resolved?: string;
  /** Why it is never sent (state refused). */
  refused?: RefusedReason;
  /** What is sent (only when active). */
  text?: string;
  /** Size of the file on disk in bytes (0 when missing). */
  bytes: number;
  /** True when the text was cut to INSTRUCTIONS_MAX_BYTES. */
  cut: boolean;
}

export interface InstructionsInput {
  name: string;
  /**
   * The file's content (its first bytes: at most INSTRUCTIONS_MAX_BYTES + 4 are needed; empty
   * when it was not read), undefined when there is no such file; an Error when it could not be read.
   */
  content: Uint8Array | Error | undefined;
  /** The file's size on disk (default: the content's length). */
  size?: number;
  resolved?: string;
  refused?: RefusedReason;
  trusted: boolean;
  enabled: boolean;
  maxBytes?: number;
}

/**
 * NUL bytes or text that is not UTF-8: not instructions (nor an attachment). `truncated`: the
 * bytes are the start of a longer file, so a character cut at the end is not a sign of binary.
 */
export function isBinary(bytes: Uint8Array, truncated = false): boolean {
  if (bytes.subarray(0, 8192).includes(0)) return true;
  let end = bytes.length;
  if (truncated) {
    // Back up over a character whose bytes continue past the end (at most 3 bytes of it here).
    let i = end - 1;
    while (i >= 0 && end - i <= 4 && (bytes[i] & 0xc0) === 0x80) i--;
    if (i >= 0) {
      const lead = bytes[i];
      const len = lead >= 0xf8 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
      if (i + len > end) end = i;
    }
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end));
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
  const size = input.size ?? (content instanceof Uint8Array ? content.length : 0);
  const base = { name, bytes: size, cut: false, ...(input.resolved && input.resolved !== name ? { resolved: input.resolved } : {}) };
  if (content === undefined && !input.refused) return { ...base, state: 'missing' };
  if (input.refused) return { ...base, state: 'refused', refused: input.refused };
  if (!input.trusted) return { ...base, state: 'untrusted' };
  if (!input.enabled) return { ...base, state: 'off' };
  if (content === undefined) return { ...base, state: 'missing' };
  if (content instanceof Error) return { ...base, state: 'unreadable' };
  const max = input.maxBytes ?? INSTRUCTIONS_MAX_BYTES;
  const head = content.subarray(0, Math.min(content.length, max + 4));
  if (isBinary(head, size > head.length)) return { ...base, state: 'binary' };
  const text = cutUtf8(head, max).replace(/^\uFEFF/, '').trim();
  if (!text) return { ...base, state: 'empty' };
  return { ...base, state: 'active', text, cut: size > max };
}

/**
 * The instructions file `name` of the folder on disk: a relative path (never above the folder),
 * a regular file whose real path (links followed) is inside the folder, whose name (and the real
 * one's) does not look like a secret. Its first `maxBytes` + 4 bytes are read only when `read`
 * (trusted and turned on); otherwise only its size is looked at.
 */
export async function locateInstructions(
  folder: string,
  name: string,
  read: boolean,
  maxBytes = INSTRUCTIONS_MAX_BYTES,
): Promise<Omit<InstructionsInput, 'name' | 'trusted' | 'enabled'>> {
  const segments = name.split(/[\\/]+/).filter((p) => p && p !== '.');
  if (!segments.length || segments.includes('..') || /^([a-z]:|[\\/~])/i.test(name)) return { content: undefined };
  const given = nodePath.join(folder, ...segments);
  try {
    await fsp.lstat(given);
  } catch {
    return { content: undefined };
  }
  if (secretLikeName(name)) return { content: undefined, refused: 'secret' };
  const inside = await resolveInsideFolder(folder, segments);
  if (!inside.ok) return { content: undefined, refused: inside.reason === 'unreadable' ? 'special' : 'outside' };
  const real = inside.relative.join('/');
  if (secretLikeName(real)) return { content: undefined, refused: 'secret', resolved: real };
  // Named only when it is another file than the one the name gives.
  const resolved = real === segments.join('/') ? undefined : real;
  let size: number;
  try {
    const stat = await fsp.stat(inside.real);
    if (!stat.isFile()) return { content: undefined, refused: 'special', resolved };
    size = stat.size;
  } catch (err) {
    return { content: err as Error, resolved };
  }
  if (!read) return { content: new Uint8Array(0), size, resolved };
  try {
    const head = await readHead(inside.real, maxBytes + 4, { noFollow: true });
    return { content: head.bytes, size: head.size, resolved };
  } catch (err) {
    return { content: err as Error, resolved };
  }
}

/**
 * Another file of the folder read as rules (a repository's commit rules), under the rules of
 * AGENTS.md: locateInstructions's checks (inside the folder, links followed only inside it, names
 * of secrets refused, a regular text file), read only when `trusted`, cut to `maxBytes`.
 */
export async function readRulesFile(folder: string, name: string, trusted: boolean, maxBytes: number): Promise<ProjectInstructions> {
  const found = await locateInstructions(folder, name, trusted, maxBytes).catch((err: unknown) => ({ content: err instanceof Error ? err : new Error(String(err)) }));
  return readInstructions({ name, trusted, enabled: true, maxBytes, ...found });
}

/** How the panel names the file: its name, and the file it leads to when that is another one. */
export function instructionsLabel(i: Pick<ProjectInstructions, 'name' | 'resolved'>): string {
  return i.resolved && i.resolved !== i.name ? `${i.name} → ${i.resolved}` : i.name;
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

/**
 * A system prompt as systemPromptWith made it: the user's own part (the aiChat.systemPrompt
 * setting) and the project instructions part, with the file's name (undefined when there is none).
 */
export function splitSystemPrompt(prompt: string): { own: string; project: string; name?: string; rules: Array<{ path: string; text: string }> } {
  // The repository's rules follow, each under its header (core/rules/chooseRules.ts, ruleHeader).
  const ruleHeader = /(?:^|\n\n)Project rules from (.+?) \(applies [^\n]*\):\n\n/g;
  const headers = [...prompt.matchAll(ruleHeader)];
  const rules = headers.map((h, i) => ({ path: h[1], text: prompt.slice(h.index + h[0].length, i + 1 < headers.length ? headers[i + 1].index : prompt.length).trim() }));
  const before = headers.length ? prompt.slice(0, headers[0].index) : prompt;
  const found = /(?:^|\n\n)Project instructions \(([^\n]*?)(?:, cut)?\):\n\n/.exec(before);
  if (!found) return { own: before.trim(), project: '', rules };
  const at = found.index + (found[0].startsWith('\n\n') ? 2 : 0);
  return { own: before.slice(0, at).trim(), project: before.slice(at).trim(), name: found[1], rules };
}

/** The line the panel shows about the instructions file, or undefined when there is none. */
export function instructionsStatusText(i: ProjectInstructions): string | undefined {
  const kb = (i.bytes / 1024).toFixed(1);
  const name = instructionsLabel(i);
  switch (i.state) {
    case 'active':
      return i.cut
        ? l10n.t('{0} is sent as instructions (cut to {1} KB of {2} KB)', name, String(INSTRUCTIONS_MAX_BYTES / 1024), kb)
        : l10n.t('{0} is sent as instructions ({1} KB)', name, kb);
    case 'off':
      return l10n.t('{0} is turned off for this workspace', name);
    case 'untrusted':
      return l10n.t('{0} is not sent: the workspace is in Restricted Mode', name);
    case 'refused':
      return i.refused === 'secret'
        ? l10n.t('{0} is not sent: its name looks like a secret (a key, a login or an .env file)', name)
        : i.refused === 'outside'
          ? l10n.t('{0} is not sent: it leads to a file outside the workspace', name)
          : l10n.t('{0} is not sent: it is not a regular file', name);
    case 'binary':
      return l10n.t('{0} is not sent: it is not a text file', name);
    case 'empty':
      return l10n.t('{0} is empty', name);
    case 'unreadable':
      return l10n.t('{0} could not be read', name);
    case 'missing':
      return undefined;
  }
}
