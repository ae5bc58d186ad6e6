// The wording of sizes and of "Sent with this message" under a question, shared by the chips
// (src/core/context), the panel (src/webview) and the exports. A leaf: imports no other folder of src.
import * as l10n from '@vscode/l10n';

/** "3.2 KB", "512 B", "2.0 MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return l10n.t('{0} B', bytes);
  if (bytes < 1024 * 1024) return l10n.t('{0} KB', (bytes / 1024).toFixed(1));
  return l10n.t('{0} MB', (bytes / (1024 * 1024)).toFixed(1));
}

/** One item of the record as the panel and the exports list it. */
export interface SentLine {
  kind: 'file' | 'range' | 'problems' | 'terminal' | 'changes' | 'instructions' | 'rule';
  name: string;
  bytes: number;
  pinned?: true;
}

/** "Sent with this message: 3 · 4.1 KB". */
export function sentSummaryText(items: readonly SentLine[]): string {
  const bytes = items.reduce((n, i) => n + i.bytes, 0);
  return l10n.t('Sent with this message: {0} · {1}', items.length, formatSize(bytes));
}

/** What an item is, beside its name: "file", "lines", "project instructions", "rule"… */
export function sentKindText(item: SentLine): string {
  const kind = {
    file: l10n.t('file'),
    range: l10n.t('lines'),
    problems: l10n.t('Problems'),
    terminal: l10n.t('terminal selection'),
    changes: l10n.t('Git changes'),
    instructions: l10n.t('project instructions'),
    rule: l10n.t('rule'),
  }[item.kind];
  return item.pinned ? l10n.t('{0}, pinned', kind) : kind;
}

/** "src/a.ts:12-40 · lines · 1.2 KB". */
export function sentLineText(item: SentLine): string {
  return `${item.name} · ${sentKindText(item)} · ${formatSize(item.bytes)}`;
}
