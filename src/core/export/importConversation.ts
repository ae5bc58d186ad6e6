// Import Conversation…: a conversation file read, checked and stored as a new conversation through
// the store (listed in History at once), or found already there. Nothing half-imported stays: the
// conversation is written whole in one step, and taken out again when that step fails. VS Code-free.
import type { Conversation, ConversationSummary } from '../chat/conversation';
import { holdsFile, importedConversation, parseExportBytes, parseExportText, type ExportFileProblem } from './format';

/** What an import needs of the conversation store (ConversationStore has it). */
export interface ImportStore {
  /** A new, empty conversation with a fresh id (only its id is used). */
  create(): Conversation;
  list(): Promise<ConversationSummary[]>;
  load(id: string): Promise<Conversation | undefined>;
  /** Writes a conversation whole and lists it in History. */
  restore(conv: Conversation): Promise<void>;
  remove(id: string): Promise<void>;
  /** New conversations written together, all or none (optional: Import All else restores each). */
  restoreMany?(convs: readonly Conversation[]): Promise<void>;
  /** Conversations read one after another, the side files looked up once (optional: else load each). */
  loadEach?(ids: Iterable<string>): AsyncGenerator<{ id: string; conv: Conversation | undefined }>;
}

/** Reads the conversations `ids` in turn (through loadEach when the store has it). */
export async function* readEach(store: Pick<ImportStore, 'load' | 'loadEach'>, ids: Iterable<string>): AsyncGenerator<{ id: string; conv: Conversation | undefined }> {
  if (store.loadEach) {
    yield* store.loadEach(ids);
    return;
  }
  for (const id of ids) yield { id, conv: await store.load(id).catch(() => undefined) };
}

export type ImportResult =
  /** Stored under its own id; open it. */
  | { kind: 'imported'; conversation: Conversation }
  /** Already in History (imported before, or the conversation that was exported): nothing stored. */
  | { kind: 'duplicate'; id: string; title: string }
  /** Not imported: what is wrong with the file, worded for the user. */
  | { kind: 'refused'; problem: ExportFileProblem };

/** Finds the conversation of History that holds a file's conversation already, if one does. */
export type DuplicateFinder = (fileId: string, createdAt: string, hash: string) => Promise<Conversation | undefined>;

/**
 * A finder over History as it is listed now (listed once: Import All asks for thousands). An
 * import keeps the conversation's creation date, which nothing changes: only the conversations
 * created at the same moment (or of the same id) are read.
 */
export async function duplicateFinder(store: Pick<ImportStore, 'list' | 'load' | 'loadEach'>): Promise<DuplicateFinder> {
  const byKey = new Map<string, string[]>();
  const add = (key: string, id: string) => byKey.set(key, [...(byKey.get(key) ?? []), id]);
  for (const s of await store.list()) {
    add(`c:${s.createdAt}`, s.id);
    add(`i:${s.id}`, s.id);
  }
  return async (fileId, createdAt, hash) => {
    const ids = new Set([...(byKey.get(`c:${createdAt}`) ?? []), ...(byKey.get(`i:${fileId}`) ?? [])]);
    if (!ids.size) return undefined;
    for await (const { conv } of readEach(store, ids)) if (conv && holdsFile(conv, fileId, hash)) return conv;
    return undefined;
  };
}

/** The conversation of History that holds this file's conversation already, if one does. */
export async function findImported(store: Pick<ImportStore, 'list' | 'load' | 'loadEach'>, fileId: string, createdAt: string, hash: string): Promise<Conversation | undefined> {
  return (await duplicateFinder(store))(fileId, createdAt, hash);
}

/**
 * Imports a conversation file (its bytes or its text). A store write that fails is undone (the
 * conversation taken out again) and rethrown.
 */
export async function importConversation(store: ImportStore, content: Uint8Array | string): Promise<ImportResult> {
  const parsed = typeof content === 'string' ? parseExportText(content) : parseExportBytes(content);
  if (!parsed.ok) {
    const { ok: _ok, ...problem } = parsed;
    return { kind: 'refused', problem };
  }
  const { file, hash } = parsed;
  const existing = await findImported(store, file.conversation.id, file.conversation.createdAt, hash);
  if (existing) return { kind: 'duplicate', id: existing.id, title: existing.title };
  const conv = importedConversation(file, hash, store.create().id);
  try {
    await store.restore(conv);
  } catch (err) {
    await store.remove(conv.id).catch(() => undefined);
    throw err;
  }
  return { kind: 'imported', conversation: conv };
}
