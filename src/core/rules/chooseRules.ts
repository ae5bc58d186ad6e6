// Choosing the rules for a request: given the rules read (ruleFormats.ts) and the request's files
// (attached files, the selection's file, the active editor's file; workspace-relative), each rule
// with whether it is sent and why, in the order rules are sent; the text the model gets, each
// rule under its file's name (rulesText, built when the request is); and its size, counted
// without building it, for the caller to fit the context budget.
import * as l10n from '@vscode/l10n';
import { firstMatch, normalizePath } from './patterns';
import type { Rule } from './ruleFormats';

export type RuleReason =
  /**
   * root: a root file of its format (AGENTS.md, CLAUDE.md, .cursorrules, ...); alwaysApply;
   * noPattern: nothing limits it; everyFile: its pattern is every file (`**`), files or not.
   */
  | { kind: 'always'; why: 'root' | 'alwaysApply' | 'noPattern' }
  | { kind: 'always'; why: 'everyFile'; pattern: string }
  | { kind: 'matched'; file: string; pattern: string }
  /** A folder's AGENTS.md or CLAUDE.md: `file` is inside its folder (for AGENTS.md, it is the nearest). */
  | { kind: 'inFolder'; file: string; folder: string }
  /** Not sent: only a description (a tool would fetch it; this service has none). */
  | { kind: 'description'; description: string }
  /** Not sent: nothing says when (Cursor's manual rules: when named). */
  | { kind: 'manual' }
  /** Not sent: no file of the request matches (patterns, or the folder). */
  | { kind: 'noMatch'; patterns: string[] }
  | { kind: 'noFileInFolder'; folder: string }
  /** Not sent: a nearer AGENTS.md covers every file of the request in this one's folder. */
  | { kind: 'nearerWins'; nearer: string }
  | { kind: 'never' }
  | { kind: 'off' }
  | { kind: 'unreadable'; why: string }
  | { kind: 'empty' };

export interface ChosenRule {
  rule: Rule;
  sent: boolean;
  reason: RuleReason;
  /** The line above its text for the model (sent rules only): its file named and why it applies. */
  header?: string;
}

export interface RulesChoice {
  /** Every rule, in the order they are sent, with why. */
  rules: ChosenRule[];
  /** The sent ones, in order. */
  sent: ChosenRule[];
  /** Characters and UTF-8 bytes of the text the model gets (rulesText), counted without building it. */
  chars: number;
  bytes: number;
}

export interface RulesRequest {
  /** Workspace-relative paths, in the order they count: attached files, the selection's, the active editor's. */
  files: readonly string[];
  /** Ids of the rules the user turned off for this workspace. */
  off?: ReadonlySet<string>;
}

/** UTF-8 bytes of a string, without encoding it. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** The request's files, normalized, each once, in order. */
function requestFiles(files: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const f of files) {
    const p = normalizePath(f);
    if (p && !seen.has(p)) {
      seen.add(p);
      out.push(p);
    }
  }
  return out;
}

/** For each file, the deepest folder AGENTS.md holding it (rule ids). */
function nearestAgents(rules: readonly Rule[], files: readonly string[]): Map<string, string> {
  const folders = rules.filter((r) => r.state === 'ok' && r.when.kind === 'folder' && r.when.nearestWins);
  const nearest = new Map<string, string>();
  for (const file of files) {
    let best: Rule | undefined;
    for (const r of folders) {
      const folder = (r.when as { folder: string }).folder;
      if (file.startsWith(folder) && (!best || folder.length > (best.when as { folder: string }).folder.length)) best = r;
    }
    if (best) nearest.set(file, best.id);
  }
  return nearest;
}

function reasonFor(rule: Rule, files: readonly string[], nearest: Map<string, string>, off: ReadonlySet<string> | undefined): RuleReason {
  if (rule.state === 'unreadable' || rule.state === 'binary') return { kind: 'unreadable', why: rule.problem ?? '' };
  if (rule.state === 'empty') return { kind: 'empty' };
  if (off?.has(rule.id)) return { kind: 'off' };
  const when = rule.when;
  switch (when.kind) {
    case 'always':
      return { kind: 'always', why: when.why };
    case 'patterns': {
      if (when.set.everyFile) return { kind: 'always', why: 'everyFile', pattern: when.set.everyFile };
      const m = firstMatch(when.set, files);
      return m ? { kind: 'matched', file: m.file, pattern: m.pattern } : { kind: 'noMatch', patterns: when.set.patterns.map((p) => p.written) };
    }
    case 'folder': {
      const inside = files.filter((f) => f.startsWith(when.folder));
      if (!inside.length) return { kind: 'noFileInFolder', folder: when.folder };
      if (!when.nearestWins) return { kind: 'inFolder', file: inside[0], folder: when.folder };
      const own = inside.find((f) => nearest.get(f) === rule.id);
      return own ? { kind: 'inFolder', file: own, folder: when.folder } : { kind: 'nearerWins', nearer: nearest.get(inside[0])! };
    }
    case 'description':
      return { kind: 'description', description: rule.description ?? '' };
    case 'manual':
      return { kind: 'manual' };
    case 'never':
      return { kind: 'never' };
  }
}

const SENT = new Set<RuleReason['kind']>(['always', 'matched', 'inFolder']);

/** Why a sent rule went, as the model reads it (never localized: the model's text). */
function reasonForModel(reason: RuleReason): string {
  switch (reason.kind) {
    case 'matched':
      return `applies to ${reason.file} (its pattern ${reason.pattern})`; // l10n-ignore: sent to the model
    case 'inFolder':
      return `applies to files in ${reason.folder}, such as ${reason.file}; it takes precedence over rules of folders above it`; // l10n-ignore: sent to the model
    default:
      return 'applies to every request'; // l10n-ignore: sent to the model
  }
}

/** The line above a rule's text: its file named and why it applies. */
function ruleHeader(rule: Rule, reason: RuleReason): string {
  const cut = rule.cut ? ', cut' : ''; // l10n-ignore: sent to the model
  return `Project rules from ${rule.path} (${reasonForModel(reason)}${cut}):`; // l10n-ignore: sent to the model
}

/** What the model gets for one rule: its file named, why it applies, then its text. */
export function ruleBlock(rule: Rule, reason: RuleReason): string {
  return `${ruleHeader(rule, reason)}\n\n${rule.text}`;
}

/** Each rule for a request, with whether it is sent and why. Deterministic: the rules' order, the files' order. */
export function chooseRules(rules: readonly Rule[], request: RulesRequest): RulesChoice {
  const files = requestFiles(request.files);
  const nearest = nearestAgents(rules, files);
  const chosen: ChosenRule[] = [];
  const sent: ChosenRule[] = [];
  let bytes = 0;
  let chars = 0;
  for (const rule of rules) {
    const reason = reasonFor(rule, files, nearest, request.off);
    const isSent = SENT.has(reason.kind);
    if (!isSent) {
      chosen.push({ rule, sent: false, reason });
      continue;
    }
    const header = ruleHeader(rule, reason);
    const c: ChosenRule = { rule, sent: true, reason, header };
    chosen.push(c);
    sent.push(c);
    // Counted from each rule's own size (its text was measured once, when read).
    const gap = sent.length > 1 ? 2 : 0;
    bytes += gap + utf8Length(header) + 2 + rule.textBytes;
    chars += gap + header.length + 2 + rule.text.length;
  }
  return { rules: chosen, sent, chars, bytes };
}

/** The text the model gets: each sent rule under its header, in order (empty when none). */
export function rulesText(choice: Pick<RulesChoice, 'sent'>): string {
  return choice.sent.map((c) => `${c.header}\n\n${c.rule.text}`).join('\n\n');
}

/** The line a list of rules shows for one rule: why it went, or why not. */
export function reasonText(reason: RuleReason): string {
  switch (reason.kind) {
    case 'always':
      if (reason.why === 'everyFile') return l10n.t('always (`{0}`)', reason.pattern);
      return reason.why === 'alwaysApply' ? l10n.t('always (alwaysApply)') : l10n.t('always');
    case 'matched':
      return l10n.t('matched `{0}` by `{1}`', reason.file, reason.pattern);
    case 'inFolder':
      return l10n.t('`{0}` is in {1}', reason.file, reason.folder);
    case 'description':
      return l10n.t('available, not sent: only a description');
    case 'manual':
      return l10n.t('not sent: it applies only when asked for by name');
    case 'noMatch':
      return l10n.t('not sent: no file of the request matches {0}', reason.patterns.map((p) => `\`${p}\``).join(', '));
    case 'noFileInFolder':
      return l10n.t('not sent: no file of the request is in {0}', reason.folder);
    case 'nearerWins':
      return l10n.t('not sent: {0} is nearer to the request\'s files', reason.nearer);
    case 'never':
      return l10n.t('not sent: its paths are an empty list');
    case 'off':
      return l10n.t('turned off');
    case 'unreadable':
      return l10n.t('not sent: {0}', reason.why);
    case 'empty':
      return l10n.t('not sent: it is empty');
  }
}
