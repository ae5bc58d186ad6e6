// Which edit of the window a command of Edit in the editor acts on. A window can hold several: a
// reply streaming into one document, reviews open in others. A command (Stop and its Escape, Keep or
// Undo of a hunk and their keys, Keep Edit, Undo Edit) acts on the edit of the document it was given
// (a CodeLens passes its own) or, without one, of the document the user is in; never on another
// document's edit, which may be out of sight.

/** The documents a command may mean (keys as `Uri.toString()` gives them). */
export interface EditScope {
  /** The document the command was given (the CodeLens passes its own). */
  given?: string;
  /** The document of the active editor. */
  active?: string;
}

/** The edit (a streaming reply or a review) a command acts on, if that document has one. */
export function editInScope<T>(edits: ReadonlyMap<string, T>, scope: EditScope): T | undefined {
  const key = scope.given ?? scope.active;
  return key === undefined ? undefined : edits.get(key);
}

/** The context key naming the documents a reply streams into. */
export const STREAMING_DOCUMENTS = 'aiChat.inlineEditStreamingDocuments';
/** The context key naming the documents with an edit under review. */
export const REVIEWED_DOCUMENTS = 'aiChat.inlineEditReviewDocuments';

/**
 * A `when` clause that holds in the editor of a document named by the context key `key`, by its
 * path: in a remote window (code-server, SSH, a container) the workbench names the editor's
 * document with another scheme than the extension host does (`vscode-remote:` against `file:`),
 * but the path is the same on both sides; a notebook cell's document has its notebook's path,
 * which is the cell editor's `resourcePath`.
 */
export function inDocuments(key: string): string {
  return `resourcePath in ${key}`; // l10n-ignore: a when clause
}

/** The value of such a context key: the documents' paths (`Uri.path`), sorted, each once. */
export function documentsValue(keys: Iterable<string>): string[] {
  return [...new Set(keys)].sort();
}
