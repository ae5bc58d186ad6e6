// The API key, kept only in SecretStorage, with the origin it was checked against (and the other
// origins the user agreed to send it to) kept beside it as a second secret.
import * as vscode from 'vscode';
import { approveKeyOrigin, bindKey, parseKeyBinding, unreadableKeyBinding, type KeyBinding } from '../../core/account/address';
import { holdsSecret } from '../platform/redact';

export const API_KEY_SECRET = 'aiChat.apiKey';
export const KEY_ORIGIN_SECRET = 'aiChat.apiKeyOrigins';

export type { KeyBinding };

export class ApiKeyStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the key is set or cleared, here or in another window. */
  readonly onDidChange = this.changed.event;
  private cached: string | undefined;
  private loaded = false;
  private binding: KeyBinding | undefined;
  private changing: Promise<unknown> = Promise.resolve();
  /** The key the last change event announced (undefined: none): an event for the same key again is not fired. */
  private announced: string | undefined;
  /** set()/clear() calls under way: they announce their own change, SecretStorage's echo of it is not one. */
  private ownWrites = 0;
  /** Whether the key was read (or a change seen) once: the first read is the state the window starts with. */
  private started = false;
  /** Keys being checked or written: redacted from the log before they are stored. */
  private readonly pending = new Set<string>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key === KEY_ORIGIN_SECRET) {
        this.binding = undefined;
        return;
      }
      if (e.key !== API_KEY_SECRET) return;
      // Our own set/clear announces itself (SecretStorage may echo it before or after the write
      // resolves); a change from another window has a value not announced yet.
      if (this.ownWrites > 0) return;
      this.loaded = false;
      this.started = true;
      this.binding = undefined;
      void this.get().then((now) => {
        if (this.ownWrites === 0 && now !== this.announced) this.announce();
      });
    });
  }

  private announce(): void {
    this.announced = this.cached;
    this.changed.fire();
  }

  async get(): Promise<string | undefined> {
    if (!this.loaded) {
      const first = !this.started;
      this.started = true;
      const v = await this.secrets.get(API_KEY_SECRET);
      this.cached = v && v.trim() ? v.trim() : undefined;
      this.loaded = true;
      // The key found at start-up is the one the window begins with, not a change.
      if (first) this.announced = this.cached;
    }
    return this.cached;
  }

  /** Whether a key is stored, as last read (call `get` first for a fresh answer). */
  get hasKey(): boolean {
    return this.cached !== undefined;
  }

  /** Every key this window knows of, stored or being checked: for redaction only (never logged or posted). */
  knownSecrets(): string[] {
    return [...(this.cached ? [this.cached] : []), ...this.pending];
  }

  /** Whether `text` holds one of these keys (such a text is neither sent, queued nor kept). */
  holds(text: string): boolean {
    return holdsSecret(text, this.knownSecrets());
  }

  /** Marks a key being checked (so the log redacts it); call the returned function when done. */
  holdPending(key: string): () => void {
    this.pending.add(key);
    return () => this.pending.delete(key);
  }

  /**
   * The stored binding. None stored: a binding with no bound origin (the next origin used binds
   * it). A read that failed (a keyring or D-Bus error) is not "none": unreadableKeyBinding(), not
   * kept (the next call reads again), and never written over (see change()).
   */
  async getBinding(): Promise<KeyBinding> {
    if (!this.binding) {
      let raw: string | undefined;
      try {
        raw = await this.secrets.get(KEY_ORIGIN_SECRET);
      } catch {
        return this.binding ?? unreadableKeyBinding();
      }
      this.binding ??= parseKeyBinding(raw);
    }
    return this.binding;
  }

  /** Binding changes one at a time (two requests binding a key at once keep the first origin). */
  private change(next: (b: KeyBinding) => KeyBinding): Promise<KeyBinding> {
    const run = this.changing.then(async () => {
      const b = await this.getBinding();
      // A binding that could not be read is never written over: what it holds is unknown.
      if (b.unreadable) return b;
      const n = next(b);
      if (n === b) return b;
      await this.secrets.store(KEY_ORIGIN_SECRET, JSON.stringify(n));
      this.binding = n;
      return n;
    });
    this.changing = run.catch(() => undefined);
    return run;
  }

  /** A key without a bound origin (set before binding existed) is bound to `origin`, once. */
  bind(origin: string): Promise<KeyBinding> {
    return this.change((b) => bindKey(b, origin));
  }

  /** The user agreed to send the key to `origin` (an unbound key is bound there). */
  async approve(origin: string): Promise<void> {
    await this.change((b) => approveKeyOrigin(b, origin));
  }

  /**
   * Stores the key, bound to the origin it was checked against. The key is kept in memory only
   * once SecretStorage confirmed the write; a failed write leaves the previous key in place.
   */
  async set(key: string, origin: string): Promise<void> {
    const trimmed = key.trim();
    const release = this.holdPending(trimmed);
    this.ownWrites++;
    try {
      const binding = { bound: origin, approved: [origin] };
      await this.secrets.store(KEY_ORIGIN_SECRET, JSON.stringify(binding));
      await this.secrets.store(API_KEY_SECRET, trimmed);
      this.binding = binding;
      this.cached = trimmed;
      this.loaded = true;
    } finally {
      this.ownWrites--;
      release();
    }
    this.announce();
  }

  async clear(): Promise<void> {
    this.ownWrites++;
    try {
      await this.secrets.delete(API_KEY_SECRET);
      await this.secrets.delete(KEY_ORIGIN_SECRET);
      this.cached = undefined;
      this.binding = { approved: [] };
      this.loaded = true;
    } finally {
      this.ownWrites--;
    }
    this.announce();
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
