// The front matter of a rule file: the `---` block at its top, in the small part of YAML that
// rule files use (key: value lines; plain, 'single' and "double" quoted scalars; true/false;
// lists as [a, b] or as "- item" lines; | and > blocks for long descriptions; comments). Keys
// it does not know are kept. Anything else is an error with its line, never a throw.
//
// Plain scalars are taken as written, `*` included: Cursor's own rules write `globs: **/*.ts`
// unquoted, which a full YAML parser refuses (an alias). A value that starts with a quote and
// goes on after it (`globs: "a/**", "b/**"`, common in the public collections) is kept whole, as
// a plain string, for the pattern list to split.

import * as l10n from '@vscode/l10n';

export type FrontMatterValue = string | number | boolean | null | FrontMatterValue[];

export interface FrontMatter {
  /** Keys in the order written. */
  data: Record<string, FrontMatterValue>;
  /** The text after the front matter (the whole text when there is none). */
  body: string;
  /** False when the file has no front matter (it does not start with a `---` line). */
  present: boolean;
}

export type FrontMatterResult = ({ ok: true } & FrontMatter) | { ok: false; error: string; body: string };

const KEY = /^([A-Za-z_][\w.-]*)\s*:(?:\s+(.*))?$/;

/** Splits the front matter from the text and reads it. */
export function parseFrontMatter(text: string): FrontMatterResult {
  const src = text.replace(/^\uFEFF/, '');
  const lines = src.split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') return { ok: true, data: {}, body: src, present: false };
  let end = -1;
  for (let i = 1; i < lines.length; i++) {
    if (/^(---|\.\.\.)\s*$/.test(lines[i])) {
      end = i;
      break;
    }
  }
  if (end < 0) return { ok: false, error: l10n.t('the front matter has no closing --- line'), body: src };
  const body = lines.slice(end + 1).join('\n');
  const read = readBlock(lines.slice(1, end));
  if (typeof read === 'string') return { ok: false, error: read, body };
  return { ok: true, data: read, body, present: true };
}

/** The key: value lines of the block; a string is the error (line numbers count the file's lines). */
function readBlock(lines: string[]): Record<string, FrontMatterValue> | string {
  const data: Record<string, FrontMatterValue> = Object.create(null) as Record<string, FrontMatterValue>;
  const at = (i: number) => l10n.t('line {0}', i + 2);
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (/^\s*(#.*)?$/.test(line)) {
      i++;
      continue;
    }
    if (/^\s/.test(line)) return l10n.t('{0}: indented line without a key above it', at(i));
    const m = KEY.exec(line.trimEnd());
    if (!m) return l10n.t('{0}: expected "key: value", found "{1}"', at(i), clip(line));
    const key = m[1];
    if (Object.prototype.hasOwnProperty.call(data, key)) return l10n.t('{0}: the key "{1}" is written twice', at(i), key);
    const raw = stripComment(m[2] ?? '').trim();
    // The lines indented under the key belong to it.
    let j = i + 1;
    while (j < lines.length && (/^\s/.test(lines[j]) || /^-(\s|$)/.test(lines[j]) || (lines[j].trim() === '' && nextIsIndented(lines, j)))) j++;
    const under = lines.slice(i + 1, j);
    if (/^[|>][+-]?$/.test(raw)) {
      data[key] = blockScalar(raw, under);
    } else if (raw === '') {
      const items = under.filter((l) => !/^\s*(#.*)?$/.test(l));
      if (!items.length) data[key] = null;
      else if (items.every((l) => /^\s*-(\s|$)/.test(l))) {
        const list: FrontMatterValue[] = [];
        for (const item of items) {
          const v = scalar(stripComment(item.replace(/^\s*-\s?/, '')).trim());
          if (typeof v === 'object' && v !== null && 'error' in v) return `${at(i + 1 + under.indexOf(item))}: ${v.error}`;
          list.push(v);
        }
        data[key] = list;
      } else {
        // A nested map or other YAML this reader does not take apart: kept as its text.
        data[key] = under.join('\n');
      }
    } else {
      if (under.some((l) => l.trim() !== '' && !/^\s*#/.test(l))) {
        // A plain scalar folded over more lines.
        if (/^["'[]/.test(raw)) return l10n.t('{0}: a quoted value or list that goes on over lines is not supported', at(i));
        data[key] = [raw, ...under.map((l) => l.trim())].filter(Boolean).join(' ');
      } else {
        const v = scalar(raw);
        if (typeof v === 'object' && v !== null && 'error' in v) return `${at(i)}: ${v.error}`;
        data[key] = v;
      }
    }
    i = j;
  }
  return data;
}

function nextIsIndented(lines: string[], j: number): boolean {
  for (let k = j + 1; k < lines.length; k++) {
    if (lines[k].trim() === '') continue;
    return /^\s/.test(lines[k]);
  }
  return false;
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
}

/** A `#` comment at the end of a line (after a space, outside quotes). */
function stripComment(s: string): string {
  let quote = '';
  for (let k = 0; k < s.length; k++) {
    const c = s[k];
    if (quote) {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"') k++;
    } else if (c === '"' || c === "'") {
      if (k === 0 || /[\s[,]/.test(s[k - 1])) quote = c;
    } else if (c === '#' && (k === 0 || /\s/.test(s[k - 1]))) {
      return s.slice(0, k);
    }
  }
  return s;
}

function blockScalar(head: string, lines: string[]): string {
  const indents = lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  const parts = lines.map((l) => l.slice(cut).trimEnd());
  while (parts.length && parts.at(-1) === '') parts.pop();
  const text = head.startsWith('|') ? parts.join('\n') : parts.join('\n').replace(/([^\n])\n(?=[^\n])/g, '$1 ');
  return head.endsWith('-') ? text : `${text}\n`;
}

type Scalar = FrontMatterValue | { error: string };

/** One value written on one line. */
function scalar(raw: string): Scalar {
  if (raw === '') return null;
  if (raw.startsWith('[')) return flowList(raw);
  if (raw.startsWith('"') || raw.startsWith("'")) {
    const q = quoted(raw, 0);
    if ('error' in q) return q;
    const rest = raw.slice(q.end).trim();
    if (rest === '') return q.value;
    // `"a/**", "b/**"`: a list written without brackets, kept whole for the pattern list.
    if (rest.startsWith(',')) return raw;
    return { error: l10n.t('unexpected text after a quoted value: "{0}"', clip(rest)) };
  }
  if (/^(true|True|TRUE)$/.test(raw)) return true;
  if (/^(false|False|FALSE)$/.test(raw)) return false;
  if (/^(null|Null|NULL|~)$/.test(raw)) return null;
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (/^[{&!|>%@`]/.test(raw)) return { error: l10n.t('a value may not start with "{0}" unless quoted', raw[0]) };
  return raw;
}

function quoted(s: string, from: number): { value: string; end: number } | { error: string } {
  const q = s[from];
  let out = '';
  for (let k = from + 1; k < s.length; k++) {
    const c = s[k];
    if (q === "'") {
      if (c === "'") {
        if (s[k + 1] === "'") {
          out += "'";
          k++;
          continue;
        }
        return { value: out, end: k + 1 };
      }
      out += c;
    } else {
      if (c === '"') return { value: out, end: k + 1 };
      if (c === '\\') {
        const e = s[++k];
        const map: Record<string, string> = { n: '\n', t: '\t', '"': '"', '\\': '\\', '/': '/', r: '\r', '0': '\0' };
        if (e === undefined || !(e in map)) return { error: l10n.t('unknown escape "\\{0}" in a quoted value', e ?? '') };
        out += map[e];
        continue;
      }
      out += c;
    }
  }
  return { error: l10n.t('a quoted value is not closed') };
}

/** `[a, "b", 'c']`: strings, quoted or plain (plain items keep `*` and `/`); `{...}` inside is a glob's braces. */
function flowList(s: string): Scalar {
  const items: FrontMatterValue[] = [];
  let k = 1;
  const skip = () => {
    while (k < s.length && /\s/.test(s[k])) k++;
  };
  skip();
  if (s[k] === ']') return s.slice(k + 1).trim() ? { error: l10n.t('unexpected text after a list') } : items;
  for (;;) {
    skip();
    if (k >= s.length) return { error: l10n.t('a list is not closed with ]') };
    if (s[k] === '"' || s[k] === "'") {
      const q = quoted(s, k);
      if ('error' in q) return q;
      items.push(q.value);
      k = q.end;
    } else {
      let depth = 0;
      const start = k;
      while (k < s.length && !(depth === 0 && (s[k] === ',' || s[k] === ']'))) {
        if (s[k] === '{') depth++;
        else if (s[k] === '}') depth--;
        k++;
      }
      const item = s.slice(start, k).trim();
      if (!item) return { error: l10n.t('an empty item in a list') };
      const v = scalar(item);
      if (typeof v === 'object' && v !== null && 'error' in v) return v;
      items.push(v);
    }
    skip();
    if (s[k] === ',') {
      k++;
      continue;
    }
    if (s[k] === ']') {
      if (s.slice(k + 1).trim()) return { error: l10n.t('unexpected text after a list') };
      return items;
    }
    return { error: l10n.t('a list is not closed with ]') };
  }
}
