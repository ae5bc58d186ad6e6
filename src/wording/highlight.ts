// Syntax highlighting of fenced code: highlight.js core with a fixed set of languages (the full
// bundle is ~1 MB). The common ones are registered here; the others (moreLanguages.ts, LATER
// below) are registered by the exported web page at once and by the chat panel when a block first
// names one (src/webview/render/languages.ts loads them as a chunk of their own). Unknown
// languages are shown as escaped plain text, never guessed.
import hljs from 'highlight.js/lib/core';
import type { LanguageFn } from 'highlight.js';
import bash from 'highlight.js/lib/languages/bash';
import diff from 'highlight.js/lib/languages/diff';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import shell from 'highlight.js/lib/languages/shell';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/** Registers highlight.js languages by name (their aliases come with them). */
export function registerLanguages(languages: Readonly<Record<string, LanguageFn>>): void {
  for (const [name, language] of Object.entries(languages)) if (!hljs.getLanguage(name)) hljs.registerLanguage(name, language);
}

registerLanguages({ bash, diff, javascript, json, markdown, plaintext, python, shell, typescript, xml, yaml });

/** The languages of moreLanguages.ts, each with its aliases (a test holds this to their definitions). */
export const LATER: Readonly<Record<string, readonly string[]>> = {
  c: ['h'],
  cpp: ['cc', 'c++', 'h++', 'hpp', 'hh', 'hxx', 'cxx'],
  csharp: ['cs', 'c#'],
  css: [],
  dockerfile: ['docker'],
  go: ['golang'],
  ini: ['toml'],
  java: ['jsp'],
  kotlin: ['kt', 'kts', 'ktm', 'ktx'],
  php: [],
  powershell: ['pwsh', 'ps', 'ps1'],
  ruby: ['rb', 'gemspec', 'podspec', 'thor', 'irb'],
  rust: ['rs'],
  scss: [],
  sql: [],
  swift: [],
};
const later = new Set(Object.entries(LATER).flatMap(([name, aliases]) => [name, ...aliases]));

let onLater: ((language: string) => void) | undefined;

/** `fn` is told of a block's language that is one of LATER's and not registered yet (it is shown plain meanwhile). */
export function whenLaterLanguage(fn: ((language: string) => void) | undefined): void {
  onLater = fn;
}

/** A fence info string's language if it is a plain identifier (`ts`, `c++`, `objective-c`), else ''. */
export function languageOf(info: string): string {
  const word = info.trim().split(/\s+/, 1)[0] ?? '';
  return /^[A-Za-z0-9_+#.-]{1,32}$/.test(word) ? word.toLowerCase() : '';
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) =>
    ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : ch === '"' ? '&quot;' : '&#39;',
  );
}

/** HTML of `code` highlighted as `language` (escaped plain text when the language is unknown). */
export function highlightCode(code: string, language: string): string {
  if (language && hljs.getLanguage(language)) {
    try {
      return hljs.highlight(code, { language, ignoreIllegals: true }).value;
    } catch {
      // fall through to plain text
    }
  }
  if (language && later.has(language)) onLater?.(language);
  return escapeHtml(code);
}

export function isKnownLanguage(language: string): boolean {
  return !!language && !!hljs.getLanguage(language);
}
