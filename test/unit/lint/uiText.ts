// Finds user-visible English text in the TypeScript sources that does not go through
// localization (`vscode.l10n.t` in the host, `l10n.t` of @vscode/l10n in pure code and the
// webview). Shared by the localization test and `npm run l10n:check`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface Finding {
  file: string;
  line: number;
  text: string;
  /** Offsets of the literal in the source. */
  start: number;
  end: number;
}

/** The folders whose strings can reach the user (the client's errors are shown only as details). */
export const UI_FOLDERS = ['src/extension', 'src/core', 'src/protocol', 'src/wording', 'src/webview'];

/** A trailing comment that marks a line's text as not shown to users (log lines, ids, formats). */
export const NOT_UI_MARK = 'l10n-ignore';

/** Words with a space between them, or one capitalised word ("Retry"), read as text for people. */
export function looksLikeUiText(text: string): boolean {
  const s = text.trim();
  if (!/[A-Za-z]{2,}/.test(s)) return false;
  if (/^[a-z0-9_.:/@$*-]+$/i.test(s) && !/^[A-Z][a-z]+[.…!?]?$/.test(s)) return false; // ids, paths, keys
  if (/^[.#[:]/.test(s) || /^[a-z-]+\s*:/.test(s) || s.includes('=>') || /^<\/?[a-z]/.test(s)) return false; // CSS, headers, HTML
  return /[A-Za-z]{2,}\s+\S/.test(s) || /^[A-Z][a-z]+[.…!?]?$/.test(s);
}

function calleeText(call: ts.CallExpression | ts.NewExpression, sf: ts.SourceFile): string {
  return call.expression.getText(sf);
}

/** Where a string is not text for people: keys, types, comparisons, imports, logs, l10n itself. */
function exempt(node: ts.Node, sf: ts.SourceFile): boolean {
  const parent = node.parent;
  if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isExternalModuleReference(parent)) return true;
  if (ts.isLiteralTypeNode(parent) || (ts.isPropertyAssignment(parent) && parent.name === node)) return true;
  // Class names, CSS and layout values.
  if (ts.isPropertyAssignment(parent) && /^(class|className|rootMargin)$/.test(parent.name.getText(sf).replace(/['"]/g, ''))) return true;
  if (ts.isBinaryExpression(parent) && ts.isPropertyAccessExpression(parent.left) && /^(className|cssText)$/.test(parent.left.name.text)) return true;
  if (ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent) && parent.argumentExpression === node) return true;
  if (ts.isCaseClause(parent)) return true;
  if (ts.isBinaryExpression(parent) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.InKeyword].includes(parent.operatorToken.kind)) {
    // The answer of a message or pick is the localized label: comparing it with English fails
    // in every other language.
    const other = parent.left === node ? parent.right : parent.left;
    return !/^(choice|answer|picked|pick|selected|action)$/i.test(other.getText(sf));
  }
  for (let n: ts.Node = node; !ts.isSourceFile(n); n = n.parent) {
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      const callee = calleeText(n, sf);
      if (/(^|\.)l10n\.t$/.test(callee)) return true;
      if (/(^|\.)(log|logger|console)\??\.(trace|debug|info|warn|error|log|append|appendLine)$/.test(callee)) return true;
      if (/(^|\.)log$/.test(callee)) return true;
      if (/\.(querySelector|querySelectorAll|closest|matches)$/.test(callee) || /\.classList\.\w+$/.test(callee)) return true;
    }
    if (ts.isTypeNode(n)) return true;
  }
  // On the literal's line, or alone on the line before it (a mark inside a template would be text).
  const lines = sf.text.split('\n');
  const at = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
  return lines[at].includes(NOT_UI_MARK) || (at > 0 && /^\s*\/\/.*l10n-ignore/.test(lines[at - 1]));
}

function textOf(node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression): string {
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => `{}${s.literal.text}`)].join('');
  return node.text;
}

/** Every user-visible literal of one source text that bypasses localization. */
export function findUnlocalized(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Finding[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) && !ts.isTaggedTemplateExpression(node.parent)) {
      const text = textOf(node);
      if (looksLikeUiText(text) && !exempt(node, sf)) {
        found.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text, start: node.getStart(sf), end: node.getEnd() });
      }
      if (!ts.isTemplateExpression(node)) return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Every finding under the UI folders of `root`. */
export function scanProject(root: string): Finding[] {
  return UI_FOLDERS.flatMap((folder) =>
    sources(path.join(root, folder)).flatMap((f) => findUnlocalized(path.relative(root, f), readFileSync(f, 'utf8'))),
  );
}

if (require.main === module) {
  const found = scanProject(path.resolve(__dirname, '..', '..', '..'));
  for (const f of found) console.log(`${f.file}:${f.line}  ${JSON.stringify(f.text)}`);
  console.log(`${found.length} user-visible literals bypass localization`);
  process.exitCode = found.length ? 1 : 0;
}
