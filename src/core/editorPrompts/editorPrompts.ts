// Editable prompts made from an editor selection: Explain, Fix (with the selection's
// problems) and Write Tests. The prompt goes into the message box, never sent on its own.
import * as l10n from '@vscode/l10n';
import { formatSelectionMessage, type SelectionInfo } from '../context/selection';

export type EditorPromptKind = 'explain' | 'fix' | 'tests';

export type ProblemSeverity = 'error' | 'warning' | 'information' | 'hint';

export interface SelectionProblem {
  severity: ProblemSeverity;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  message: string;
}

export type TestFramework = 'mocha' | 'jest' | 'vitest';

/** Problems whose lines meet the selection's lines (1-based, inclusive), in line order. */
export function problemsInSelection(problems: readonly SelectionProblem[], startLine: number, endLine: number): SelectionProblem[] {
  return problems
    .filter((p) => p.startLine <= endLine && p.endLine >= startLine)
    .sort((a, b) => a.startLine - b.startLine);
}

/** A problem's severity as a word for the prompt. */
export function severityText(s: ProblemSeverity): string {
  switch (s) {
    case 'error':
      return l10n.t('Error');
    case 'warning':
      return l10n.t('Warning');
    case 'information':
      return l10n.t('Info');
    case 'hint':
      return l10n.t('Hint');
  }
}

/** "- Error, line 4: message" — one line per problem (a message's own line breaks become spaces). */
export function formatProblems(problems: readonly SelectionProblem[]): string {
  return problems
    .map((p) => `- ${l10n.t('{0}, line {1}: {2}', severityText(p.severity), p.startLine, p.message.replace(/\s*\r?\n\s*/g, ' ').trim())}`)
    .join('\n');
}

/** The test framework a package.json names in its dependencies (vitest before jest before mocha). */
export function detectTestFramework(packageJson: string | undefined): TestFramework | undefined {
  if (!packageJson) return undefined;
  let pkg: unknown;
  try {
    pkg = JSON.parse(packageJson);
  } catch {
    return undefined;
  }
  if (!pkg || typeof pkg !== 'object') return undefined;
  const deps = new Set<string>();
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
    const d = (pkg as Record<string, unknown>)[field];
    if (d && typeof d === 'object') for (const name of Object.keys(d)) deps.add(name);
  }
  for (const fw of ['vitest', 'jest', 'mocha'] as const) if (deps.has(fw)) return fw;
  return undefined;
}

export interface EditorPromptInput {
  kind: EditorPromptKind;
  selection: SelectionInfo;
  /** The file's problems (only those meeting the selection are used); for 'fix'. */
  problems?: readonly SelectionProblem[];
  /** For 'tests'. */
  framework?: TestFramework;
}

/** The prompt text, a blank line, then the selection exactly as Send Selection builds it. */
export function buildEditorPrompt(input: EditorPromptInput): string {
  const { selection } = input;
  let question: string;
  switch (input.kind) {
    case 'explain':
      question = l10n.t('Explain this code:');
      break;
    case 'fix': {
      const inside = problemsInSelection(input.problems ?? [], selection.startLine, selection.endLine);
      question = inside.length
        ? `${l10n.t('Fix this code. Its problems:')}\n${formatProblems(inside)}`
        : l10n.t('Fix this code (VS Code reports no problems in it):');
      break;
    }
    case 'tests':
      question = input.framework ? l10n.t('Write tests for this code using {0}:', input.framework) : l10n.t('Write tests for this code:');
      break;
  }
  return formatSelectionMessage({ ...selection, question });
}
