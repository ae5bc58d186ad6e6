// The API key, kept only in SecretStorage.
import * as vscode from 'vscode';

export const API_KEY_SECRET = 'aiChat.apiKey';

export class ApiKeyStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the key is set or cleared, here or in another window. */
  readonly onDidChange = this.changed.event;
  private cached: string | undefined;
  private loaded = false;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key !== API_KEY_SECRET) return;
      // Our own set/clear already fired; a change from another window has a different value.
      const before = this.cached;
      this.loaded = false;
      void this.get().then((now) => {
        if (now !== before) this.changed.fire();
      });
    });
  }

  async get(): Promise<string | undefined> {
    if (!this.loaded) {
      const v = await this.secrets.get(API_KEY_SECRET);
      this.cached = v && v.trim() ? v.trim() : undefined;
      this.loaded = true;
    }
    return this.cached;
  }

  /** Whether a key is stored, as last read (call `get` first for a fresh answer). */
  get hasKey(): boolean {
    return this.cached !== undefined;
  }

  /** The current key for redaction only (never logged or posted). */
  knownSecret(): string | undefined {
    return this.cached;
  }

  async set(key: string): Promise<void> {
    this.cached = key.trim();
    this.loaded = true;
    await this.secrets.store(API_KEY_SECRET, this.cached);
    this.changed.fire();
  }

  async clear(): Promise<void> {
    this.cached = undefined;
    this.loaded = true;
    await this.secrets.delete(API_KEY_SECRET);
    this.changed.fire();
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
