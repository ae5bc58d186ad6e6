// Slash commands: the prompts a user can put in the message box by typing `/` and a name.
//
// Where they come from, in the order that decides a clash of names:
//   1. built-ins (/explain, /fix, /tests, /new, /summarize);
//   2. the user's own (the aiChat.prompts setting), then the user's prompts folder (`*.prompt.md`);
//   3. the workspace's prompt files, folder by folder in the workspace's order, and in each folder
//      `.github/prompts/*.prompt.md`, then `.claude/commands/*.md`, then `.continue/prompts/*.prompt`.
// The first one keeps the name. A later one with the same name (compared without case) stays in
// the list under `name:source` (e.g. `/review:claude`), so nothing a team keeps is hidden.
//
// A file is parsed here from its bytes (the host finds and reads it under the rules of AGENTS.md:
// see instructions.ts). A file that cannot be used (too large, not text, front matter that does
// not parse, a name that cannot be typed) is listed with its error, never dropped from the list.
//
// Expansion fills `${selection}`, `${file}`, `${workspaceFolder}` (and their Copilot relatives)
// from the editor, and names what must be asked: `${input:name}` / `${input:name:placeholder}`,
// and the arguments of `$ARGUMENTS` (Claude) and `{{{ input }}}` (Continue).
import * as l10n from '@vscode/l10n';
import { modelUsability, type ModelLike } from '../account/models';
import { isBinary } from '../context/instructions';

/** A prompt file larger than this is listed with an error (as AGENTS.md is cut at the same size). */
export const PROMPT_FILE_MAX_BYTES = 32 * 1024;
/** Most prompt files read per workspace folder and kind (the rest are not looked at). */
export const PROMPT_FILES_MAX_PER_KIND = 200;

export type PromptFileKind = 'github' | 'claude' | 'continue';
/** `userFolder`: a `*.prompt.md` of the user's prompts folder (read as Copilot's format). */
export type PromptSource = 'builtin' | 'user' | 'userFolder' | PromptFileKind;

/** Where each kind of prompt file lives in a workspace folder (glob relative to the folder). */
export const PROMPT_FILE_GLOBS: Record<PromptFileKind, string> = {
  github: '.github/prompts/*.prompt.md',
  claude: '.claude/commands/*.md',
  continue: '.continue/prompts/*.prompt',
};

const KIND_ORDER: PromptFileKind[] = ['github', 'claude', 'continue'];

/** Front-matter fields each kind understands; any other field is named once as not supported. */
const SUPPORTED_FIELDS: Record<PromptFileKind, readonly string[]> = {
  github: ['name', 'description', 'argument-hint', 'model'],
  claude: ['description', 'argument-hint', 'model'],
  continue: ['name', 'description', 'version'],
};

/** A name a user can type after `/`. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface PromptEntry {
  /** What follows `/` (unique in a list built by buildPromptList). */
  name: string;
  description: string;
  /** What the prompt expects after its name (shown in the list, used as the placeholder when asked). */
  argumentHint?: string;
  /** The model the prompt names (never switched to silently: the user is told). */
  model?: string;
  /** The text put in the box, before expansion. */
  body: string;
  source: PromptSource;
  /** The file, relative to its workspace folder or the user's prompts folder (prompt files only). */
  path?: string;
  /** The workspace folder's name (prompt files only, for a workspace of several folders). */
  folder?: string;
  /** Front-matter fields that are not supported, named once in the list. */
  unsupported: string[];
  /** Why the prompt cannot be used: it is listed with this, and choosing it says it. */
  error?: string;
  /** The name this one would have had, when an earlier one of the list kept it. */
  shadowed?: string;
  /** A built-in that does something instead of putting text in the box. */
  action?: 'newChat' | 'summarize';
}

/** The kind of a prompt file from its path relative to the workspace folder (undefined: not one). */
export function promptFileKind(relativePath: string): PromptFileKind | undefined {
  const p = relativePath.replace(/\\/g, '/');
  if (/^\.github\/prompts\/[^/]+\.prompt\.md$/i.test(p)) return 'github';
  if (/^\.claude\/commands\/[^/]+\.md$/i.test(p)) return 'claude';
  if (/^\.continue\/prompts\/[^/]+\.prompt$/i.test(p)) return 'continue';
  return undefined;
}

/** Whether a file of the user's prompts folder is a prompt file (`*.prompt.md`, read as Copilot's). */
export function isUserPromptFile(fileName: string): boolean {
  return /^[^/\\]+\.prompt\.md$/i.test(fileName);
}

/** The command name a file gives by its name: `review.prompt.md` → `review`. */
export function promptNameFromPath(relativePath: string, kind: PromptFileKind): string {
  const base = relativePath.replace(/\\/g, '/').split('/').pop() ?? '';
  const suffix = kind === 'github' ? /\.prompt\.md$/i : kind === 'claude' ? /\.md$/i : /\.prompt$/i;
  return base.replace(suffix, '');
}

export interface FrontMatter {
  /** Each field's value as text (lists and nested values kept as written, quotes taken off). */
  fields: Map<string, string>;
  /** Field names in the order written. */
  order: string[];
  body: string;
  error?: string;
}

function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'")))) {
    const inner = v.slice(1, -1);
    return v.startsWith('"') ? inner.replace(/\\"/g, '"').replace(/\\n/g, '\n').replace(/\\\\/g, '\\') : inner.replace(/''/g, "'");
  }
  return v;
}

/** `key: value` lines (YAML's simple form); indented lines and `- items` continue the last key. */
function parseFields(lines: readonly string[], firstLine: number): Omit<FrontMatter, 'body'> {
  const fields = new Map<string, string>();
  const order: string[] = [];
  let last: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim() || /^\s*#/.test(line)) continue;
    if (/^\s/.test(line) || /^-\s/.test(line)) {
      if (last === undefined) return { fields, order, error: l10n.t('line {0} of the front matter continues no field', firstLine + i) };
      const before = fields.get(last) ?? '';
      fields.set(last, before ? `${before}\n${line.trim()}` : line.trim());
      continue;
    }
    const m = /^([A-Za-z_][A-Za-z0-9_.-]*)\s*:(?:\s+(.*))?\s*$/.exec(line) ?? /^([A-Za-z_][A-Za-z0-9_.-]*)\s*:()$/.exec(line);
    if (!m) return { fields, order, error: l10n.t('line {0} of the front matter is not "name: value"', firstLine + i) };
    const key = m[1].toLowerCase();
    if (fields.has(key)) return { fields, order, error: l10n.t('the front matter names "{0}" twice', key) };
    fields.set(key, unquote(m[2] ?? ''));
    order.push(key);
    last = key;
  }
  return { fields, order };
}

/**
 * The front matter and body of a prompt file's text (line ends already LF). `---` on the first
 * line opens the front matter and the next `---` line closes it. `bareHeader` (Continue's
 * `.prompt`): fields may also stand before a lone `---` with no opening line.
 */
export function parseFrontMatter(text: string, bareHeader = false): FrontMatter {
  const lines = text.split('\n');
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
    if (end < 0) return { fields: new Map(), order: [], body: text, error: l10n.t('the front matter opened on line 1 is never closed with "---"') };
    const parsed = parseFields(lines.slice(1, end), 2);
    return { ...parsed, body: lines.slice(end + 1).join('\n') };
  }
  if (bareHeader) {
    const end = lines.findIndex((l) => l.trim() === '---');
    if (end > 0) {
      const parsed = parseFields(lines.slice(0, end), 1);
      // Not a header after all (prose before a rule): the whole text is the body.
      if (!parsed.error && parsed.order.length) return { ...parsed, body: lines.slice(end + 1).join('\n') };
    }
  }
  return { fields: new Map(), order: [], body: text };
}

export interface PromptFileInput {
  kind: PromptFileKind;
  /** Relative to the workspace folder, with `/`. */
  path: string;
  folder?: string;
  /** A file of the user's prompts folder (its `kind` is the format it is read in). */
  inUserFolder?: boolean;
  /** The file's first bytes (at most PROMPT_FILE_MAX_BYTES + 4 are needed), or why it could not be read. */
  content: Uint8Array | Error;
  /** Its size on disk (default: the content's length). */
  size?: number;
  /** Not read: a link out of the workspace folder, to a file named like a secret, or not a regular file. */
  refused?: 'outside' | 'secret' | 'special';
}

/** One prompt file as the list shows it: usable, or with the error that says why not. */
export function parsePromptFile(input: PromptFileInput): PromptEntry {
  const { kind, path } = input;
  const fileName = promptNameFromPath(path, kind);
  const source: PromptSource = input.inUserFolder ? 'userFolder' : kind;
  const entry: PromptEntry = { name: fileName, description: '', body: '', source, path, unsupported: [], ...(input.folder ? { folder: input.folder } : {}) };
  const fail = (error: string): PromptEntry => ({ ...entry, error });
  if (input.refused === 'outside') {
    return fail(input.inUserFolder ? l10n.t('{0} is not read: it leads to a file outside your prompts folder', path) : l10n.t('{0} is not read: it leads to a file outside the workspace folder', path));
  }
  if (input.refused === 'secret') return fail(l10n.t('{0} is not read: it leads to a file whose name looks like a secret', path));
  if (input.refused === 'special') return fail(l10n.t('{0} is not read: it is not a regular file', path));
  if (input.content instanceof Error) return fail(l10n.t('{0} could not be read', path));
  const size = input.size ?? input.content.length;
  if (size > PROMPT_FILE_MAX_BYTES) {
    return fail(l10n.t('{0} is {1} KB, more than the {2} KB a prompt file may hold', path, (size / 1024).toFixed(1), String(PROMPT_FILE_MAX_BYTES / 1024)));
  }
  if (isBinary(input.content)) return fail(l10n.t('{0} is not a text file', path));
  const text = new TextDecoder('utf-8').decode(input.content).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const front = parseFrontMatter(text, kind === 'continue');
  if (front.error) return fail(l10n.t('{0}: {1}', path, front.error));
  const supported = SUPPORTED_FIELDS[kind];
  const field = (k: string) => {
    const v = front.fields.get(k)?.trim();
    return v ? v : undefined;
  };
  const named = kind === 'claude' ? undefined : field('name');
  const name = named ?? fileName;
  const out: PromptEntry = {
    ...entry,
    name,
    description: field('description') ?? '',
    body: front.body.replace(/^\n+/, '').replace(/\s+$/, ''),
    unsupported: front.order.filter((k) => !supported.includes(k)),
    ...(field('argument-hint') && supported.includes('argument-hint') ? { argumentHint: field('argument-hint') } : {}),
    ...(field('model') && supported.includes('model') ? { model: field('model') } : {}),
  };
  if (!NAME.test(name)) return { ...out, error: l10n.t('{0}: "{1}" cannot be typed as a command (letters, digits, ".", "_" and "-" only)', path, name) };
  if (!out.body.trim()) return { ...out, error: l10n.t('{0} has no prompt text', path) };
  return out;
}

/** The built-in commands, in the order listed. */
export function builtinPrompts(): PromptEntry[] {
  const fenced = '```\n${selection}\n```';
  const make = (name: string, description: string, question: string): PromptEntry => ({
    name,
    description,
    body: `${question}\n\n${fenced}`,
    source: 'builtin',
    unsupported: [],
  });
  return [
    make('explain', l10n.t('Explain the selected code'), l10n.t('Explain this code from {0}:', '${file}')),
    make('fix', l10n.t('Fix the selected code'), l10n.t('Fix this code from {0}:', '${file}')),
    make('tests', l10n.t('Write tests for the selected code'), l10n.t('Write tests for this code from {0}:', '${file}')),
    { name: 'new', description: l10n.t('Start a new chat'), body: '', source: 'builtin', unsupported: [], action: 'newChat' },
    { name: 'summarize', description: l10n.t('Summarize the earlier turns (its price is shown first)'), body: '', source: 'builtin', unsupported: [], action: 'summarize' },
  ];
}

/**
 * The user's own prompts from the aiChat.prompts setting: an object of name → text, or name →
 * { prompt, description?, argumentHint?, model? }. A value of another shape is listed with its error.
 */
export function userPrompts(value: unknown): PromptEntry[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  const out: PromptEntry[] = [];
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    const base: PromptEntry = { name, description: '', body: '', source: 'user', unsupported: [] };
    const str = (x: unknown) => (typeof x === 'string' && x.trim() ? x.trim() : undefined);
    let entry: PromptEntry;
    if (typeof v === 'string') entry = { ...base, body: v.replace(/\r\n?/g, '\n').trim() };
    else if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as Record<string, unknown>).prompt === 'string') {
      const o = v as Record<string, unknown>;
      const known = ['prompt', 'description', 'argumentHint', 'model'];
      entry = {
        ...base,
        body: (o.prompt as string).replace(/\r\n?/g, '\n').trim(),
        description: str(o.description) ?? '',
        ...(str(o.argumentHint) ? { argumentHint: str(o.argumentHint) } : {}),
        ...(str(o.model) ? { model: str(o.model) } : {}),
        unsupported: Object.keys(o).filter((k) => !known.includes(k)),
      };
    } else {
      out.push({ ...base, error: l10n.t('aiChat.prompts: "{0}" must be a text or an object with "prompt"', name) });
      continue;
    }
    if (!NAME.test(name)) entry.error = l10n.t('aiChat.prompts: "{0}" cannot be typed as a command (letters, digits, ".", "_" and "-" only)', name);
    else if (!entry.body) entry.error = l10n.t('aiChat.prompts: "{0}" has no prompt text', name);
    out.push(entry);
  }
  return out;
}

/** Workspace prompt files in list order: folders as given, and in each .github, .claude, .continue, then by path. */
export function sortPromptFiles(files: readonly PromptEntry[], folderOrder: readonly string[]): PromptEntry[] {
  const folderIndex = (e: PromptEntry) => {
    const i = folderOrder.indexOf(e.folder ?? '');
    return i < 0 ? folderOrder.length : i;
  };
  const kindIndex = (e: PromptEntry) => KIND_ORDER.indexOf(e.source as PromptFileKind);
  return [...files].sort((a, b) => folderIndex(a) - folderIndex(b) || kindIndex(a) - kindIndex(b) || (a.path ?? '').localeCompare(b.path ?? ''));
}

/**
 * The list the `/` menu shows: built-ins, the user's own, then the workspace's files (already in
 * their order). The first of a name keeps it; a later one is listed as `name:source` (and, if that
 * too is taken, `name:source:2`…), with `shadowed` naming the name it lost.
 */
export function buildPromptList(builtins: readonly PromptEntry[], user: readonly PromptEntry[], files: readonly PromptEntry[]): PromptEntry[] {
  const taken = new Set<string>();
  const out: PromptEntry[] = [];
  for (const e of [...builtins, ...user, ...files]) {
    let name = e.name;
    if (taken.has(name.toLowerCase())) {
      const qualified = `${e.name}:${e.source}`;
      name = qualified;
      for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${qualified}:${n}`;
      out.push({ ...e, name, shadowed: e.name });
    } else out.push(e);
    taken.add(name.toLowerCase());
  }
  return out;
}

/** A value the prompt asks the user for before it goes into the box. */
export interface PromptInput {
  /** `${input:name}`'s name; `arguments` for `$ARGUMENTS` / `{{{ input }}}`. */
  name: string;
  placeholder?: string;
}

const INPUT = /\$\{input:([A-Za-z0-9_.-]+)(?::([^}]*))?\}/g;
const ARGUMENTS = /\$ARGUMENTS\b|\{\{\{\s*input\s*\}\}\}/;
const VARIABLE = /\$\{input:([A-Za-z0-9_.-]+)(?::([^}]*))?\}|\$ARGUMENTS\b|\{\{\{\s*input\s*\}\}\}|\$\{([A-Za-z]+)\}/g;

/** What must be asked for, once each, in the order the body names it. */
export function promptInputs(entry: Pick<PromptEntry, 'body' | 'argumentHint'>): PromptInput[] {
  const out: PromptInput[] = [];
  const seen = new Set<string>();
  for (const m of entry.body.matchAll(INPUT)) {
    if (seen.has(m[1])) continue;
    seen.add(m[1]);
    out.push({ name: m[1], ...(m[2]?.trim() ? { placeholder: m[2].trim() } : {}) });
  }
  if (ARGUMENTS.test(entry.body) && !seen.has('arguments')) out.push({ name: 'arguments', ...(entry.argumentHint ? { placeholder: entry.argumentHint } : {}) });
  return out;
}

export interface PromptContext {
  /** The editor's selected text (undefined: no editor or an empty selection). */
  selection?: string;
  /** The editor's file, relative to its workspace folder when inside one. */
  file?: string;
  /** The workspace folder's path. */
  workspaceFolder?: string;
  /** What the user gave for each input (by PromptInput.name). */
  inputs?: Record<string, string>;
}

export interface ExpandedPrompt {
  text: string;
  /** Variables the body names that had no value (left empty): `selection`, `file`, `workspaceFolder`, or an input's name. */
  missing: string[];
}

/** The prompt's body with its variables filled (those without a value left empty and named in `missing`). */
export function expandPrompt(entry: Pick<PromptEntry, 'body'>, ctx: PromptContext): ExpandedPrompt {
  const missing = new Set<string>();
  const file = ctx.file?.replace(/\\/g, '/');
  const base = file?.split('/').pop();
  const dir = file && file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : file ? '.' : undefined;
  const folderBase = ctx.workspaceFolder?.replace(/[\\/]+$/, '').split(/[\\/]/).pop();
  const values: Record<string, [string, string | undefined]> = {
    selection: ['selection', ctx.selection],
    selectedText: ['selection', ctx.selection],
    file: ['file', file],
    fileBasename: ['file', base],
    fileDirname: ['file', dir],
    fileBasenameNoExtension: ['file', base?.replace(/\.[^.]*$/, '')],
    workspaceFolder: ['workspaceFolder', ctx.workspaceFolder],
    workspaceFolderBasename: ['workspaceFolder', folderBase],
  };
  const inputs = ctx.inputs ?? {};
  // One pass: a value that holds "${…}" itself is put in as it is, never filled again.
  const text = entry.body.replace(VARIABLE, (all, input: string | undefined, _placeholder: string | undefined, name: string | undefined) => {
    if (input !== undefined || name === undefined) {
      const key = input ?? 'arguments';
      const v = inputs[key];
      if (v === undefined) missing.add(key);
      return v ?? '';
    }
    const known = values[name];
    if (!known) return all;
    if (known[1] === undefined || known[1] === '') missing.add(known[0]);
    return known[1] ?? '';
  });
  return { text, missing: [...missing] };
}

/** "/name" with what the list says about it, for a screen reader and a tooltip. */
export function promptSourceLabel(e: Pick<PromptEntry, 'source' | 'path' | 'folder'>): string {
  switch (e.source) {
    case 'builtin':
      return l10n.t('built-in');
    case 'user':
      return l10n.t('your prompts (aiChat.prompts)');
    case 'userFolder':
      return l10n.t('your prompts folder: {0}', e.path ?? '');
    default:
      return e.folder ? `${e.folder}: ${e.path ?? ''}` : (e.path ?? '');
  }
}

/** What a prompt's `model` means for its send. */
export type PromptModel =
  /** No model named, or the one named is the selected one. */
  | { kind: 'selected' }
  /** The model named is listed and usable: the send uses it, at its price. */
  | { kind: 'use'; model: ModelLike }
  /** The model named cannot be used now (not listed, the list not loaded, or unusable): the selected one answers. */
  | { kind: 'unusable'; named: string; reason?: string };

/** The model a prompt names, matched by id or name (without case) among the service's models. */
export function promptModel(named: string | undefined, models: readonly ModelLike[] | undefined, selected: string): PromptModel {
  const wanted = named?.trim().toLowerCase();
  if (!wanted || wanted === selected.toLowerCase()) return { kind: 'selected' };
  const model = models?.find((m) => m.valueId.toLowerCase() === wanted) ?? models?.find((m) => m.name.toLowerCase() === wanted);
  if (!model) return { kind: 'unusable', named: named!.trim() };
  if (model.valueId === selected) return { kind: 'selected' };
  const usability = modelUsability(model);
  return usability.usable ? { kind: 'use', model } : { kind: 'unusable', named: model.name || model.valueId, ...(usability.reason ? { reason: usability.reason } : {}) };
}

/**
 * What @aichat was asked for: the command VS Code passed (`/explain`, or `/prompt` with the name as
 * the first word of the text), or a text that starts with `/name` (a prompt file's command, which
 * the Chat view does not know by name). `name` is empty for `/prompt` alone (list them).
 */
export function slashRequest(command: string | undefined, prompt: string): { name: string; args: string } | undefined {
  const text = prompt.trim();
  if (command === 'prompt') {
    const m = /^\/?(\S*)\s*([\s\S]*)$/.exec(text);
    return { name: m?.[1] ?? '', args: m?.[2]?.trim() ?? '' };
  }
  if (command) return { name: command, args: text };
  const m = /^\/([A-Za-z0-9][A-Za-z0-9._:-]*)(?:\s+([\s\S]*))?$/.exec(text);
  return m ? { name: m[1], args: m[2]?.trim() ?? '' } : undefined;
}
