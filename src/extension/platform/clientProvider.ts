// Builds the service clients: the one every feature shares (rebuilt when the address, timeouts or
// proxy settings change) and short-lived ones (the key check of Set API Key). Every client gets
// the same proxy (core/account/proxy.ts) and sends the key only where ServiceAddress allows it.
// Free of `vscode` at run time (unit-tested in plain node): only its types are used.
import type * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import type * as Client from '../../client';
import type { ChatServiceClient, ChatServiceClientOptions } from '../../client';
import { assertServiceUrl } from '../../core/account/address';
import { clientBundle, type ModuleLoader } from './clientModule';
import { resolveProxy } from '../../core/account/proxy';
import type { ConfigService } from './config';
import type { Logger } from './log';
import type { ServiceAddress } from './serviceAddress';
import { clientTimeouts } from './settings';

/** How long after a settings change the replaced client is kept at least (a caller may just have taken it). */
export const RETIRE_AFTER_MS = 60_000;

export class ClientProvider implements vscode.Disposable {
  private client: ChatServiceClient | undefined;
  /** The longest any request of the current client may last (its deadlines), for retiring it. */
  private clientLifetimeMs = 0;
  /** Replaced clients not closed yet: their requests in flight finish first. */
  private readonly retiring = new Set<ChatServiceClient>();
  private signature = '';
  private disposed = false;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly config: ConfigService,
    private readonly address: ServiceAddress,
    private readonly logger: Logger,
    private readonly userAgent: string,
    private readonly options: {
      /** Default RETIRE_AFTER_MS. */
      retireAfterMs?: number;
      /** Where the client's code comes from; default the bundle (dist/client.js), see clientModule.ts. */
      client?: ModuleLoader<typeof Client>;
    } = {},
  ) {
    this.subscription = config.onDidChange(() => {
      // Rebuilt lazily on next use when something it depends on changed.
      if (this.client && this.currentSignature() !== this.signature) this.reset();
    });
  }

  private currentSignature(): string {
    const s = this.config.settings;
    const p = this.config.proxyInputs();
    return JSON.stringify([s.baseUrl, s.requestTimeoutSeconds, s.replyDeadlineMinutes, p.httpProxy ?? '', p.strictSSL, p.noProxy, p.proxySupport ?? '']);
  }

  /**
   * A client for `baseUrl` with the proxy of the settings and environment. Throws after dispose,
   * ServiceUrlError (naming aiChat.baseUrl) for an address that cannot be used,
   * ProxyConfigError (naming the setting) for a proxy value that cannot be used, and
   * ClientLoadError (AI Chat is damaged: reload or reinstall) when the client's code cannot be
   * loaded (tried once; the load error is logged once).
   */
  create(opts: Pick<ChatServiceClientOptions, 'baseUrl' | 'apiKey' | 'timeouts' | 'maxRetries'>): ChatServiceClient {
    if (this.disposed) throw new Error(l10n.t('AI Chat is shutting down; no new request is made.'));
    assertServiceUrl(opts.baseUrl);
    const proxy = resolveProxy(opts.baseUrl, this.config.proxyInputs());
    this.logger.debug('Client created', {
      baseUrl: opts.baseUrl,
      proxy: proxy.proxy ? proxy.source : 'none',
      ...(proxy.bypassed ? { bypassedBy: proxy.bypassed } : {}),
      ...(proxy.off ? { proxySupport: 'off' } : {}),
      strictSSL: proxy.strictSSL,
    });
    // The client's code is loaded here, by the first request (see clientModule.ts).
    const { ChatServiceClient } = (this.options.client ?? clientBundle).get(this.logger);
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
      const timeouts = clientTimeouts(s.requestTimeoutSeconds, s.replyDeadlineMinutes);
      this.client = this.create({ baseUrl, apiKey: () => this.address.keyFor(baseUrl), timeouts });
      // A streamed reply ends by its deadline, a non-streamed one by its own, a GET after its retries.
      this.clientLifetimeMs = Math.max(timeouts.replyDeadlineMs, timeouts.chatRequestMs, 3 * timeouts.requestMs) + 120_000;
      this.signature = sig;
    }
    return this.client;
  }

  private reset(): void {
    const old = this.client;
    this.client = undefined;
    if (!old) return;
    // Requests in flight on the old client finish (a streamed reply is read to its end, never cut
    // and shown as Stopped); it is closed once none is left, no sooner than retireAfterMs after the
    // change, and at the latest when its longest deadline has passed.
    this.retiring.add(old);
    const maxWaitMs = this.clientLifetimeMs;
    const timer = setTimeout(() => {
      void old
        .closeWhenIdle(maxWaitMs)
        .catch(() => undefined)
        .finally(() => this.retiring.delete(old));
    }, this.options.retireAfterMs ?? RETIRE_AFTER_MS);
    timer.unref?.();
  }

  dispose(): void {
    this.disposed = true;
    this.subscription.dispose();
    const old = this.client;
    this.client = undefined;
    for (const c of [old, ...this.retiring]) if (c) void Promise.resolve(c.close()).catch(() => undefined);
    this.retiring.clear();
  }
}
