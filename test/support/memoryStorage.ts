// The conversation store's port in memory, for tests and benchmarks: logs as strings. (Not part
// of the extension: src never imports test/.)
import { replayLog, type Conversation, type ConversationStoragePort } from '../../src/core';

/** The port in memory, for tests: logs as strings. */
export class MemoryConversationStorage implements ConversationStoragePort {
  readonly data = new Map<string, string>();
  readonly partials = new Map<string, Map<string, string>>();
  index: string | undefined;
  searchIndex: string | undefined;
  currentId: string | undefined;
  async listLogs(): Promise<string[]> {
    return [...this.data.keys()];
  }
  async readLog(id: string): Promise<string | undefined> {
    return this.data.get(id);
  }
  async logSize(id: string): Promise<number | undefined> {
    return this.data.get(id)?.length;
  }
  async appendLog(id: string, text: string): Promise<number> {
    const before = this.data.get(id) ?? '';
    const next = before + (before && !before.endsWith('\n') ? '\n' : '') + text;
    this.data.set(id, next);
    return next.length;
  }
  async rewriteLog(id: string, text: string, expectedSize?: number): Promise<boolean> {
    if (expectedSize !== undefined && this.data.get(id)?.length !== expectedSize) return false;
    this.data.set(id, text);
    return true;
  }
  async removeLog(id: string): Promise<void> {
    this.data.delete(id);
    this.partials.delete(id);
  }
  async readPartials(id: string): Promise<string[]> {
    return [...(this.partials.get(id)?.values() ?? [])];
  }
  async writePartial(id: string, writer: string, text: string): Promise<void> {
    if (!this.partials.has(id)) this.partials.set(id, new Map());
    this.partials.get(id)?.set(writer, text);
  }
  async removePartials(id: string, writer?: string): Promise<void> {
    if (writer === undefined) this.partials.delete(id);
    else this.partials.get(id)?.delete(writer);
  }
  async readIndex(): Promise<string | undefined> {
    return this.index;
  }
  async appendIndex(text: string): Promise<void> {
    this.index = (this.index ?? '') + text;
  }
  async rewriteIndex(text: string): Promise<void> {
    this.index = text;
  }
  async readSearchIndex(): Promise<string | undefined> {
    return this.searchIndex;
  }
  async writeSearchIndex(text: string): Promise<void> {
    this.searchIndex = text;
  }
  /** The conversation as stored now (log plus side files), for tests. */
  async read(id: string): Promise<Conversation | undefined> {
    const log = this.data.get(id);
    return log === undefined ? undefined : replayLog(log, await this.readPartials(id))?.conv;
  }
  async readCurrentId(): Promise<string | undefined> {
    return this.currentId;
  }
  async writeCurrentId(id: string): Promise<void> {
    this.currentId = id;
  }
}

/** Logs read one at a time, each waiting for release() (to look at the store half way through a build). */
export class GatedStorage extends MemoryConversationStorage {
  reads: string[] = [];
  partialLookups: string[] = [];
  gated = false;
  private waiting: Array<() => void> = [];
  writeGate: Promise<void> | undefined;
  partialIds?: () => Promise<Set<string>>;
  override async readLog(id: string): Promise<string | undefined> {
    this.reads.push(id);
    if (this.gated) await new Promise<void>((resolve) => this.waiting.push(resolve));
    return super.readLog(id);
  }
  override async readPartials(id: string): Promise<string[]> {
    this.partialLookups.push(id);
    return super.readPartials(id);
  }
  searchWrites = 0;
  override async writeSearchIndex(text: string): Promise<void> {
    this.searchWrites++;
    await this.writeGate;
    return super.writeSearchIndex(text);
  }
  /** Lets the next `n` reads through, and waits until they are taken in. */
  async release(n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      while (this.waiting.length === 0) await new Promise((r) => setTimeout(r, 1));
      this.waiting.shift()?.();
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  open(): void {
    this.gated = false;
    for (const w of this.waiting.splice(0)) w();
  }
}
