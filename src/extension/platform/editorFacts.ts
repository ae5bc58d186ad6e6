// What the attachment gatherers read of VS Code: the size setting, workspace-relative paths and
// the Problems' severities, and how a chip's text is cut to the protocol's maxima.
import * as vscode from 'vscode';
import type { Diagnostic, ProblemSeverity } from '../../core';

const DEFAULT_MAX_KB = 100;
/** A file of another file system (not on this disk) is read whole by VS Code: above this, refused. */
export const MAX_VIRTUAL_FILE_BYTES = 16 * 1024 * 1024;

/** Cuts a chip's text to the protocol's maxima (one overlong path must not drop the whole row). */
export function fit(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function maxKB(): number {
  const v = vscode.workspace.getConfiguration('aiChat').get<number>('context.maxFileKB', DEFAULT_MAX_KB);
  return Number.isFinite(v) && v > 0 ? Math.min(v, 4096) : DEFAULT_MAX_KB;
}

/** The globs of a `files.exclude`-like setting that are on (`when` clauses count as off). */
export function enabledGlobs(value: unknown): string[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>)
    .filter(([, on]) => on === true)
    .map(([glob]) => glob);
}

/** files.exclude and search.exclude as one glob for findFiles (a folder's glob covers what is inside it). */
export function searchExcludeGlob(): string | undefined {
  const globs = ['files.exclude', 'search.exclude'].flatMap((key) => {
    const [section, name] = key.split('.');
    return enabledGlobs(vscode.workspace.getConfiguration(section).get(name));
  });
  const all = [...new Set(globs.flatMap((g) => (g.endsWith('/**') ? [g] : [g, `${g}/**`])))];
  return all.length ? `{${all.join(',')}}` : undefined;
}

export function relPath(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

export const SEVERITY: Record<vscode.DiagnosticSeverity, Diagnostic['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** VS Code's diagnostics as the Problems chips list them. */
export function chipDiagnostics(diagnostics: readonly vscode.Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) => ({ line: d.range.start.line + 1, severity: SEVERITY[d.severity], message: d.message, ...(d.source ? { source: d.source } : {}) }));
}

/** A diagnostic's severity as the prompts name it. */
export function severityOf(s: vscode.DiagnosticSeverity): ProblemSeverity {
  switch (s) {
    case vscode.DiagnosticSeverity.Error:
      return 'error';
    case vscode.DiagnosticSeverity.Warning:
      return 'warning';
    case vscode.DiagnosticSeverity.Information:
      return 'information';
    default:
      return 'hint';
  }
}

/** The path of `uri` below `folder` with `/`, or undefined when it is not below it. */
export function relativeTo(folder: vscode.Uri, uri: vscode.Uri): string | undefined {
  const base = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
  return uri.scheme === folder.scheme && uri.authority === folder.authority && uri.path.startsWith(base) ? uri.path.slice(base.length) : undefined;
}
