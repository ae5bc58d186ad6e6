// A webview that speaks a typed protocol, whatever it shows: its page is set with a fresh nonce
// from crypto.randomBytes (the template puts it in the strict CSP), messages posted before the
// webview says it is ready are kept until then, what the webview sends is parsed before anyone
// sees it (anything else is logged and dropped), and what is posted is checked with the schema
// the webview parses it with (cut to its limits, or refused with the reason).
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Logger } from './log';

type Parsed<T> = { ok: true; message: T } | { ok: false; error: string };
type Checked<T> = { ok: true; message: T; cut: string[] } | { ok: false; error: string };

export interface WebviewHostOptions<In extends { type: string }, Out extends { type: string }> {
  webview: vscode.Webview;
  /** Names the webview in the log. */
  name: string;
  /** Validates a message from the webview. */
  parse: (raw: unknown) => Parsed<In>;
  /** Checks (and cuts to its limits) a message to the webview, as the webview will parse it. */
  check: (message: Out) => Checked<Out>;
  /** A message from the webview, parsed. */
  receive: (message: In) => Promise<void> | void;
  /** A message the webview would drop: not posted; the owner decides what goes instead. */
  refused?: (message: Out, error: string) => void;
  /** A message the webview did not take (postMessage said no or failed). */
  undelivered?: (message: Out) => void;
  logger: Logger;
}

/** A per-load nonce for the page's script (never Math.random). */
export function pageNonce(): string {
  return randomBytes(16).toString('base64');
}

export class WebviewHost<In extends { type: string }, Out extends { type: string }> implements vscode.Disposable {
  private ready = false;
  private waiting: Out[] = [];
  private readonly listener: vscode.Disposable;

  constructor(private readonly opts: WebviewHostOptions<In, Out>) {
    this.listener = opts.webview.onDidReceiveMessage((raw: unknown) => void this.onMessage(raw));
  }

  get webview(): vscode.Webview {
    return this.opts.webview;
  }

  /** The webview said it is ready (posts now go straight to it). */
  get isReady(): boolean {
    return this.ready;
  }

  /** Sets the page; `html` gets the webview's CSP source and a fresh nonce. Posts wait for the next `ready`. */
  setHtml(html: (cspSource: string, nonce: string) => string): void {
    this.ready = false;
    this.waiting = [];
    this.opts.webview.html = html(this.opts.webview.cspSource, pageNonce());
  }

  /** The webview is ready: what was posted before it is handed back (the owner picks what still applies). */
  markReady(): Out[] {
    this.ready = true;
    const waiting = this.waiting;
    this.waiting = [];
    return waiting;
  }

  /** Posts now when the webview is ready, else keeps the message until it is. */
  post(message: Out): void {
    const checked = this.opts.check(message);
    if (!checked.ok) {
      this.opts.logger.warn('Not posted: the webview would drop it', { webview: this.opts.name, type: message.type, error: checked.error });
      this.opts.refused?.(message, checked.error);
      return;
    }
    if (checked.cut.length) this.opts.logger.warn('Cut a message to the webview to its limits', { webview: this.opts.name, type: message.type, cut: checked.cut.slice(0, 5) });
    const out = checked.message;
    if (!this.ready) {
      this.waiting.push(out);
      return;
    }
    void this.opts.webview.postMessage(out).then(
      (delivered) => {
        if (!delivered) this.opts.undelivered?.(out);
      },
      (err: unknown) => {
        this.opts.undelivered?.(out);
        this.opts.logger.debug('postMessage failed', { webview: this.opts.name, message: String(err) });
      },
    );
  }

  private async onMessage(raw: unknown): Promise<void> {
    const parsed = this.opts.parse(raw);
    if (!parsed.ok) {
      const type = raw && typeof raw === 'object' ? String((raw as { type?: unknown }).type) : typeof raw;
      this.opts.logger.warn('Dropped an invalid message from the webview', { webview: this.opts.name, type, error: parsed.error });
      return;
    }
    try {
      await this.opts.receive(parsed.message);
    } catch (err) {
      this.opts.logger.error('Handling a webview message failed', { webview: this.opts.name, type: parsed.message.type, message: String(err) });
    }
  }

  dispose(): void {
    this.listener.dispose();
    this.ready = false;
    this.waiting = [];
  }
}
