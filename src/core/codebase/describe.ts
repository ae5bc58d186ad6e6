// Why a file was found, in words for the pick list (and later the `#` menu).
import * as l10n from '@vscode/l10n';
import type { FileMatch } from './codebaseIndex';

/** `defines retryRequest · name: retry · mentions retry, request`. */
export function describeMatch(match: Pick<FileMatch, 'defines' | 'pathWords' | 'mentions'>): string {
  const parts: string[] = [];
  if (match.defines.length) parts.push(l10n.t('defines {0}', match.defines.join(', ')));
  if (match.pathWords.length) parts.push(l10n.t('path: {0}', match.pathWords.join(', ')));
  const mentioned = match.mentions.filter((w) => !match.pathWords.includes(w));
  if (mentioned.length) parts.push(l10n.t('mentions {0}', mentioned.slice(0, 5).join(', ')));
  return parts.join(' · ');
}

/** `src/net/retry.ts:61-120`. */
export function matchPlace(path: string, match: Pick<FileMatch, 'start' | 'end'>): string {
  return `${path}:${match.start}-${match.end}`;
}
