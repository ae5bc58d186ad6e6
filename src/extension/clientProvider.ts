// Builds the service clients: the one every feature shares (rebuilt when the address, timeouts or
// proxy settings change) and short-lived ones (the key check of Set API Key). Every client gets
// the same proxy (core/proxy.ts) and sends the key only where ServiceAddress allows it.
import * as vscode from 'vscode';
import { ChatServiceClient, type ChatServiceClientOptions } from '../client';
import { assertServiceUrl } from '../core/address';
import { resolveProxy } from '../core/proxy';
import type { ConfigService } from './config';
import type { Logger } from './log';
import type { ServiceAddress } from './serviceAddress';
import { clientTimeouts } from './settings';

export class ClientProvider implements vscode.Disposable {
  private client: ChatServiceClient | undefined;
  private signature = '';
  private disposed = false;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly config: ConfigService,
    private readonly address: ServiceAddress,
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
    const p = this.config.proxyInputs();
    return JSON.stringify([s.baseUrl, s.requestTimeoutSeconds, s.replyDeadlineMinutes, p.httpProxy ?? '', p.strictSSL, p.noProxy]);
  }

  /**
   * A client for `baseUrl` with the proxy of the settings and environment. Throws after dispose,
   * ServiceUrlError (naming aiChat.baseUrl) for an address that cannot be used, and
   * ProxyConfigError (naming the setting) for a proxy value that cannot be used.
   */
  create(opts: Pick<ChatServiceClientOptions, 'baseUrl' | 'apiKey' | 'timeouts' | 'maxRetries'>): ChatServiceClient {
    if (this.disposed) throw new Error(vscode.l10n.t('AI Chat is shutting down; no new request is made.'));
    assertServiceUrl(opts.baseUrl);
    const proxy = resolveProxy(opts.baseUrl, this.config.proxyInputs());
    this.logger.debug('Client created', {
      baseUrl: opts.baseUrl,
      proxy: proxy.proxy ? proxy.source : 'none',
      ...(proxy.bypassed ? { bypassedBy: proxy.bypassed } : {}),
      strictSSL: proxy.strictSSL,
    });
    return new ChatServiceClient({
      logger: this.logger,
      userAgent: this.userAgent,
      strictSSL: proxy.strictSSL,
      ...(proxy.proxy ? { proxy: proxy.proxy } : {}),
      ...opts,
    });
  }

  get(): ChatServiceClient {
    const sig = this.currentSignature();
    if (!this.client || sig !== this.signature) {
      this.reset();
      const s = this.config.settings;
      const baseUrl = s.baseUrl;
      this.client = this.create({
        baseUrl,
        apiKey: () => this.address.keyFor(baseUrl),
        timeouts: clientTimeouts(s.requestTimeoutSeconds, s.replyDeadlineMinutes),
      });
      this.signature = sig;
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
    this.disposed = true;
    this.subscription.dispose();
    const old = this.client;
    this.client = undefined;
    if (old) void Promise.resolve(old.close()).catch(() => undefined);
  }
}
