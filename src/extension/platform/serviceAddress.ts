// Asks the user before the API key goes anywhere new: a workspace's own service address, an origin
// other than the one the key was checked against, or plain http:// to another machine. The rules
// are in core/account/address.ts; this file shows the questions and stores the answers.
import * as vscode from 'vscode';
import type { AuthenticationError } from '../../client';
import { clientModule } from './clientModule';
import { BASE_URL_SETTING, KeyGate, isCleartext, keyConsentText, originOf, type BaseUrlChoice, type KeyBinding, type KeyQuestion } from '../../core/account/address';
import type { ConfigService } from './config';
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

/** Text of the notice shown while aiChat.baseUrl holds a value that is not a usable address. */
export function invalidAddressNotice(choice: BaseUrlChoice): string | undefined {
  const bad = choice.invalid;
  if (!bad) return undefined;
  return bad.level === 'user'
    ? vscode.l10n.t('AI Chat: your setting {0} ("{1}") is not a usable service address: {2}. Nothing is sent until you fix it.', BASE_URL_SETTING, bad.shown, bad.why)
    : vscode.l10n.t('AI Chat: this workspace sets {0} to "{1}", which is not a usable service address ({2}); it is ignored and {3} is used.', BASE_URL_SETTING, bad.shown, bad.why, choice.url);
}

/** What the panel says about the service address: an unusable value, or a workspace address not used. */
export function addressNotice(config: Pick<ConfigService, 'baseUrlChoice'>): string | undefined {
  const choice = config.baseUrlChoice;
  if (choice.invalid?.level === 'user') return invalidAddressNotice(choice);
  if (choice.ignoredWorkspaceUrl) return ignoredAddressNotice(choice.ignoredWorkspaceUrl, choice.url);
  return invalidAddressNotice(choice);
}

/** The key and its bound origin as this file needs them (account/keyStore.ts's ApiKeyStore). */
export interface KeyBindings {
  get(): Promise<string | undefined>;
  getBinding(): Promise<KeyBinding>;
  bind(origin: string): Promise<KeyBinding>;
  approve(origin: string): Promise<void>;
}

export class ServiceAddress implements vscode.Disposable {
  /** Binding, questions and refusals (core/account/address.ts); this class shows the questions. */
  private readonly gate: KeyGate;
  /** Workspace addresses (and unusable values) already announced in this window. */
  private readonly announced = new Set<string>();
  private disposed = false;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly config: ConfigService,
    private readonly keys: KeyBindings,
    private readonly logger: Logger,
  ) {
    this.gate = new KeyGate({
      key: () => keys.get(),
      binding: () => keys.getBinding(),
      bind: async (origin) => {
        const b = await keys.bind(origin);
        if (b.bound === origin) this.logger.info('The API key had no bound origin; it is now bound to the address it was first sent to', { origin });
        return b;
      },
      approve: (origin) => keys.approve(origin),
      ask: (question) => this.ask(question),
      closed: () => this.disposed,
    });
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
    const decision = await this.gate.keyFor(url);
    if (decision.status === 'no-key') return undefined;
    if (decision.status === 'send') return decision.key;
    throw this.notSent(decision.origin);
  }

  private notSent(origin: string): AuthenticationError {
    return new (clientModule().AuthenticationError)({
      status: undefined,
      code: 'KEY_NOT_SENT',
      message: vscode.l10n.t('Your API key was not sent to {0}, because you did not allow it. Run "AI Chat: Review Service Address" to answer again, or change aiChat.baseUrl in your user settings.', origin),
    });
  }

  /** Shows the modal question; true when the user agreed (the gate then approves the origin). */
  private async ask(question: KeyQuestion): Promise<boolean> {
    if (question.reason === 'unknown-binding') this.logger.warn('The API key\'s bound address could not be read from SecretStorage; asking before the key is sent, and leaving the stored binding as it is', { origin: question.origin });
    const text = keyConsentText(question);
    const answer = await vscode.window.showWarningMessage(text.message, { modal: true, detail: text.detail }, SEND_KEY);
    const agreed = answer === SEND_KEY;
    this.logger.info(agreed ? 'The user allowed sending the API key to a new address' : 'The user refused sending the API key to a new address', { origin: question.origin });
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

  /**
   * Tells the user once per window when aiChat.baseUrl holds a value that cannot be used (with
   * Open Settings), or when the workspace names an address that is not used.
   */
  announceIgnored(): void {
    const choice = this.config.baseUrlChoice;
    const bad = choice.invalid;
    if (bad && !this.announced.has(`invalid\u0000${bad.level}\u0000${bad.shown}`)) {
      this.announced.add(`invalid\u0000${bad.level}\u0000${bad.shown}`);
      this.logger.error('aiChat.baseUrl is not a usable service address', { level: bad.level, value: bad.shown, why: bad.why });
      const open = vscode.l10n.t('Open Settings');
      const text = invalidAddressNotice(choice) ?? '';
      const shown = bad.level === 'user' ? vscode.window.showErrorMessage(text, open) : vscode.window.showWarningMessage(text, open);
      void shown.then((picked) => {
        if (picked === open) void openBaseUrlSetting();
      });
    }
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
    this.gate.forgetRefusals();
    const choice = this.config.baseUrlChoice;
    if (choice.invalid?.level === 'user') {
      const open = vscode.l10n.t('Open Settings');
      const picked = await vscode.window.showErrorMessage(invalidAddressNotice(choice) ?? '', open);
      if (picked === open) await openBaseUrlSetting();
      return;
    }
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

/** Opens the settings editor at aiChat.baseUrl. */
function openBaseUrlSetting(): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openSettings', BASE_URL_SETTING);
}
