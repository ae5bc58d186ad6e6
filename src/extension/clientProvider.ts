// Builds the service client from the settings and rebuilds it when the base URL, timeout or proxy change.
import * as vscode from 'vscode';
import { ChatServiceClient } from '../client';
import type { ConfigService } from './config';
import type { ApiKeyStore } from './keyStore';
import type { Logger } from './log';
import { clientTimeouts } from './settings';

export class ClientProvider implements vscode.Disposable {
  private client: ChatServiceClient | undefined;
  private signature = '';
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly config: ConfigService,
    private readonly keys: ApiKeyStore,
    private readonly logger: Logger,
    private readonly userAgent: string,
  ) {
    this.subscription = config.onDidChange(() => {
      // Rebuilt lazily on next use when something it depends on changed.
      if (this.client && this.currentSignature() !== this.signature) this.reset();
    });
  }

  private currentSignature(): string {
    const s = this.config.settings;
    return JSON.stringify([s.baseUrl, s.requestTimeoutSeconds, s.replyDeadlineMinutes, this.config.proxy ?? '']);
  }

  get(): ChatServiceClient {
    const sig = this.currentSignature();
    if (!this.client || sig !== this.signature) {
      this.reset();
      const s = this.config.settings;
      const proxy = this.config.proxy;
      this.client = new ChatServiceClient({
        baseUrl: s.baseUrl,
        apiKey: () => this.keys.get(),
        logger: this.logger,
        timeouts: clientTimeouts(s.requestTimeoutSeconds, s.replyDeadlineMinutes),
        userAgent: this.userAgent,
        ...(proxy ? { proxy } : {}),
      });
      this.signature = sig;
      this.logger.debug('Client created', { baseUrl: s.baseUrl, timeoutSeconds: s.requestTimeoutSeconds, proxy: proxy ? 'yes' : 'no' });
    }
    return this.client;
  }

  private reset(): void {
    const old = this.client;
    this.client = undefined;
    // Let requests in flight on the old client finish; close it afterwards.
    if (old) setTimeout(() => void Promise.resolve(old.close()).catch(() => undefined), 60_000).unref?.();
  }

  dispose(): void {
    this.subscription.dispose();
    const old = this.client;
    this.client = undefined;
    if (old) void Promise.resolve(old.close()).catch(() => undefined);
  }
}
