// Asks the user before the API key goes anywhere new: a workspace's own service address, an origin
// other than the one the key was checked against, or plain http:// to another machine. The rules
// are in core/address.ts; this file shows the questions and stores the answers.
import * as vscode from 'vscode';
import { AuthenticationError } from '../client';
import { isCleartext, keyConsentText, keyRoute, originOf } from '../core/address';
import type { ConfigService } from './config';
import type { ApiKeyStore } from './keyStore';
import type { Logger } from './log';

export const REVIEW_COMMAND = 'aiChat.reviewServiceAddress';
export const ALLOW = vscode.l10n.t('Allow');
export const SEND_KEY = vscode.l10n.t('Send Key');
export const REVIEW = vscode.l10n.t('Review…');
export const KEEP_MINE = vscode.l10n.t('Keep My Address');

/** Text of the notice shown while a workspace address is not used (panel, status bar, notification). */
export function ignoredAddressNotice(workspaceUrl: string, ownUrl: string): string {
  return vscode.l10n.t('AI Chat: this workspace sets the service address to {0}. It is not used until you allow it, because your API key would be sent there; your own address {1} is used instead.', workspaceUrl, ownUrl);
}

export class ServiceAddress implements vscode.Disposable {
  /** One question per origin at a time, shared by the requests waiting for it. */
  private readonly asking = new Map<string, Promise<boolean>>();
  /** Origins the user refused in this window: not asked again until Review Service Address. */
  private readonly refused = new Set<string>();
  /** Workspace addresses already announced in this window. */
  private readonly announced = new Set<string>();
  private disposed = false;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly config: ConfigService,
    private readonly keys: ApiKeyStore,
    private readonly logger: Logger,
  ) {
    this.subscriptions.push(
      config.onDidChange((e) => {
        if (e.affects('baseUrl')) this.announceIgnored();
      }),
    );
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /**
   * The key for a request to `url`, after the user agreed where needed. Undefined when no key is
   * set; throws AuthenticationError (code KEY_NOT_SENT) when the user did not agree.
   */
  async keyFor(url: string): Promise<string | undefined> {
    const key = await this.keys.get();
    if (!key) return undefined;
    const origin = originOf(url);
    let binding = await this.keys.getBinding();
    if (binding.bound === undefined && origin && !isCleartext(url)) {
      // A key stored before keys were bound: bind it to the address the user has now (their own:
      // a workspace address is used only after they allowed it).
      await this.keys.approve(origin);
      binding = await this.keys.getBinding();
    }
    const route = keyRoute(url, binding.bound, new Set(binding.approved));
    if (route.send) return key;
    if (this.disposed) throw this.notSent(route.origin);
    if (this.refused.has(route.origin)) throw this.notSent(route.origin);
    let question = this.asking.get(route.origin);
    if (!question) {
      question = this.ask(route.origin, keyConsentText(route), SEND_KEY);
      this.asking.set(route.origin, question);
      void question.finally(() => this.asking.delete(route.origin));
    }
    if (!(await question)) throw this.notSent(route.origin);
    return key;
  }

  private notSent(origin: string): AuthenticationError {
    return new AuthenticationError({
      status: undefined,
      code: 'KEY_NOT_SENT',
      message: vscode.l10n.t('Your API key was not sent to {0}, because you did not allow it. Run "AI Chat: Review Service Address" to answer again, or change aiChat.baseUrl in your user settings.', origin),
    });
  }

  /** Shows the modal question; true when the user agreed (the origin is then approved for the key). */
  private async ask(origin: string, text: { message: string; detail: string }, button: string): Promise<boolean> {
    const answer = await vscode.window.showWarningMessage(text.message, { modal: true, detail: text.detail }, button);
    const agreed = answer === button;
    this.logger.info(agreed ? 'The user allowed sending the API key to a new address' : 'The user refused sending the API key to a new address', { origin });
    if (agreed) {
      this.refused.delete(origin);
      await this.keys.approve(origin);
    } else {
      this.refused.add(origin);
    }
    return agreed;
  }

  /**
   * Asks before a key is checked at `url` (Set API Key): true when it may be sent. Only plain http to
   * another machine needs a question: the user chose the address, but may not know it is clear text.
   */
  async confirmKeyCheck(url: string): Promise<boolean> {
    const origin = originOf(url);
    if (!origin || !isCleartext(url)) return true;
    const text = keyConsentText({ send: false, reason: 'cleartext', origin });
    const answer = await vscode.window.showWarningMessage(text.message, { modal: true, detail: text.detail }, SEND_KEY);
    return answer === SEND_KEY;
  }

  /** Tells the user once per window when the workspace names an address that is not used. */
  announceIgnored(): void {
    const choice = this.config.baseUrlChoice;
    const ws = choice.ignoredWorkspaceUrl;
    if (!ws || this.announced.has(ws) || this.config.decision(ws) === 'declined') return;
    this.announced.add(ws);
    this.logger.warn('The workspace names another service address; it is not used until the user allows it', { workspaceUrl: ws, inUse: choice.url });
    void vscode.window.showWarningMessage(ignoredAddressNotice(ws, choice.url), REVIEW, KEEP_MINE).then(async (picked) => {
      if (picked === REVIEW) await this.review();
      else if (picked === KEEP_MINE) await this.config.decide(ws, 'declined');
    });
  }

  /**
   * AI Chat: Review Service Address. With a workspace address not in use: the modal that allows it.
   * Otherwise: says which address is in use and forgets this window's refusals.
   */
  async review(): Promise<void> {
    this.refused.clear();
    const choice = this.config.baseUrlChoice;
    const ws = choice.ignoredWorkspaceUrl ?? (choice.source === 'workspace' ? choice.url : undefined);
    if (!ws) {
      void vscode.window.showInformationMessage(
        choice.source === 'default'
          ? vscode.l10n.t('AI Chat: the service address in use is {0} (the default).', choice.url)
          : vscode.l10n.t('AI Chat: the service address in use is {0} (from your user settings).', choice.url),
      );
      return;
    }
    if (choice.source === 'workspace') {
      const stop = vscode.l10n.t('Stop Using It');
      const picked = await vscode.window.showInformationMessage(
        vscode.l10n.t('AI Chat: this workspace\'s service address {0} is in use, as you allowed.', ws),
        stop,
      );
      if (picked === stop) await this.config.decide(ws, 'declined');
      return;
    }
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(vscode.l10n.t('AI Chat: this workspace is in Restricted Mode; its service address {0} cannot be used. Trust the workspace first.', ws));
      return;
    }
    const origin = originOf(ws) ?? ws;
    const text = keyConsentText({ send: false, reason: isCleartext(ws) ? 'cleartext' : 'new-origin', origin }, ws);
    const answer = await vscode.window.showWarningMessage(text.message, { modal: true, detail: text.detail }, ALLOW);
    if (answer === ALLOW) {
      await this.keys.approve(origin);
      await this.config.decide(ws, 'allowed');
      this.logger.info('The user allowed the workspace service address', { origin });
    } else {
      await this.config.decide(ws, 'declined');
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
  }
}
