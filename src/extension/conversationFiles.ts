// Conversations as JSON files under the extension's global storage (one file per conversation,
// written atomically so a crash never leaves half a file).
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { summarize, parseConversation, type Conversation, type ConversationStoragePort, type ConversationSummary } from '../core';
import { isSafeConversationId } from './links';

/** Names the current conversation; not a `.json` file, so list() never reads it. */
const CURRENT_FILE = 'current-conversation';

async function writeAtomically(target: string, text: string): Promise<void> {
  const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, text, 'utf8');
  await rename(tmp, target);
}

export class FileConversationStorage implements ConversationStoragePort {
  private readonly dir: string;
  private ready: Promise<void> | undefined;

  constructor(globalStoragePath: string) {
    this.dir = join(globalStoragePath, 'conversations');
  }

  private ensureDir(): Promise<void> {
    this.ready ??= mkdir(this.dir, { recursive: true }).then(() => undefined);
    return this.ready;
  }

  private file(id: string): string {
    if (!isSafeConversationId(id)) throw new Error(`Invalid conversation id: ${id}`);
    return join(this.dir, `${id}.json`);
  }

  async list(): Promise<ConversationSummary[]> {
    await this.ensureDir();
    const names = (await readdir(this.dir)).filter((n) => n.endsWith('.json'));
    const out: ConversationSummary[] = [];
    for (const name of names) {
      try {
        const conv = parseConversation(JSON.parse(await readFile(join(this.dir, name), 'utf8')), name.slice(0, -'.json'.length));
        if (conv) out.push(summarize(conv));
      } catch {
        // unreadable file: skipped
      }
    }
    return out;
  }

  async read(id: string): Promise<unknown | undefined> {
    if (!isSafeConversationId(id)) return undefined;
    try {
      return JSON.parse(await readFile(this.file(id), 'utf8'));
    } catch {
      return undefined;
    }
  }

  async write(conv: Conversation): Promise<void> {
    await this.ensureDir();
    await writeAtomically(this.file(conv.id), JSON.stringify(conv));
  }

  async readCurrentId(): Promise<string | undefined> {
    try {
      const id = (await readFile(join(this.dir, CURRENT_FILE), 'utf8')).trim();
      return isSafeConversationId(id) ? id : undefined;
    } catch {
      return undefined;
    }
  }

  async writeCurrentId(id: string): Promise<void> {
    if (!isSafeConversationId(id)) throw new Error(`Invalid conversation id: ${id}`);
    await this.ensureDir();
    await writeAtomically(join(this.dir, CURRENT_FILE), id);
  }

  async remove(id: string): Promise<void> {
    await rm(this.file(id), { force: true });
  }
}
