// The account room's commands: the API key, the model, the balance, subscriptions, usage and the
// service address.
import * as vscode from 'vscode';
import type { CreditsService } from './credits';
import type { ChatServiceClient } from '../../client';
import { originOf, serviceUrlProblem } from '../../core/account/address';
import { creditsText, subscriptionItems, totalCredits } from '../../core';
import type { BalanceService } from './balanceService';
import type { ClientProvider } from '../platform/clientProvider';
import type { ConfigService } from '../platform/config';
import type { ApiKeyStore } from './keyStore';
import type { Logger } from '../platform/log';
import type { ModelService } from './modelService';
import { REVIEW_COMMAND, type ServiceAddress } from '../platform/serviceAddress';
import { clientTimeouts } from '../platform/settings';
import { registerSafely } from '../platform/commands';

export interface AccountCommandDeps {
  config: ConfigService;
  keys: ApiKeyStore;
  models: ModelService;
  balance: BalanceService;
  clients: ClientProvider;
  address: ServiceAddress;
  logger: Logger;
  credits: CreditsService;
}

type CommandDeps = AccountCommandDeps;

export function registerAccountCommands(deps: AccountCommandDeps): vscode.Disposable[] {
  const reg = (id: string, fn: (...args: unknown[]) => unknown) => registerSafely(id, fn, deps.logger);
  return [
    reg('aiChat.setApiKey', () => setApiKey(deps)),
    reg('aiChat.clearApiKey', () => clearApiKey(deps)),
    reg('aiChat.selectModel', () => deps.models.pick()),
    reg('aiChat.showBalance', () => showBalanceMenu(deps)),
    reg('aiChat.refreshBalance', () => refreshBalance(deps)),
    reg('aiChat.showSubscriptions', () => showSubscriptions(deps)),
    reg('aiChat.showUsage', () => deps.credits.showUsage()),
    reg('aiChat.pickCheaperModel', () => deps.credits.pickCheaperModel()),
    reg(REVIEW_COMMAND, () => deps.address.review()),
  ];
}

async function setApiKey(deps: CommandDeps): Promise<void> {
  // An address that cannot be used is said before the key is typed, with the way to fix it.
  const unusable = serviceUrlProblem(deps.config.settings.baseUrl);
  if (unusable) {
    const openSettings = vscode.l10n.t('Open Settings');
    const choice = await vscode.window.showErrorMessage(vscode.l10n.t('AI Chat: {0}', unusable), openSettings);
    if (choice === openSettings) await vscode.commands.executeCommand('workbench.action.openSettings', 'aiChat.baseUrl');
    return;
  }
  const key = await vscode.window.showInputBox({
    title: vscode.l10n.t('AI Chat: Set API Key'),
    prompt: vscode.l10n.t('Your API key for the chat service. It is kept in VS Code\'s secret storage.'),
    placeHolder: vscode.l10n.t('API key'),
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a key (or press Escape to cancel)')),
  });
  if (key === undefined) return;
  const trimmed = key.trim();
  const s = deps.config.settings;
  const origin = originOf(s.baseUrl) ?? s.baseUrl;
  const ignored = deps.config.baseUrlChoice.ignoredWorkspaceUrl;
  if (ignored) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('AI Chat: the key is checked against your own address {0}, not {1} named by this workspace (run "AI Chat: Review Service Address" to allow that one).', s.baseUrl, ignored),
    );
  }
  if (!(await deps.address.confirmKeyCheck(s.baseUrl))) {
    void vscode.window.showInformationMessage(vscode.l10n.t('AI Chat: the key was not sent and not saved.'));
    return;
  }
  // Check the key at once against GET /user/balance before keeping it: the same proxy as every
  // request, and the key redacted from the log while it is being checked.
  const release = deps.keys.holdPending(trimmed);
  let probe: ChatServiceClient;
  try {
    probe = deps.clients.create({
      baseUrl: s.baseUrl,
      apiKey: () => trimmed,
      timeouts: clientTimeouts(Math.min(s.requestTimeoutSeconds, 30)),
      maxRetries: 1,
    });
  } catch (err) {
    release();
    throw err;
  }
  let verdict: { ok: true; total: number } | { ok: false; kind: string; message: string };
  try {
    verdict = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('AI Chat: checking the API key…') },
      async () => {
        try {
          const res = await probe.balance();
          return { ok: true as const, total: totalCredits(res.balance) };
        } catch (err) {
          const kind = (err as { kind?: unknown }).kind;
          return { ok: false as const, kind: typeof kind === 'string' ? kind : 'unknown', message: err instanceof Error ? err.message : String(err) };
        }
      },
    );
  } finally {
    release();
    void Promise.resolve(probe.close()).catch(() => undefined);
  }
  if (verdict.ok) {
    await deps.keys.set(trimmed, origin);
    void vscode.window.showInformationMessage(vscode.l10n.t('AI Chat: API key saved. Balance: {0}.', creditsText(verdict.total)));
    return;
  }
  if (verdict.kind === 'auth') {
    const again = await vscode.window.showErrorMessage(
      vscode.l10n.t('AI Chat: the service rejected this API key ({0}). It was not saved.', verdict.message),
      vscode.l10n.t('Try Again'),
    );
    if (again) await setApiKey(deps);
    return;
  }
  const saveAnyway = vscode.l10n.t('Save Anyway');
  const openSettings = vscode.l10n.t('Open Settings');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('AI Chat: could not check the key at {0}: {1}', s.baseUrl, verdict.message),
    { modal: false },
    saveAnyway,
    openSettings,
  );
  if (choice === saveAnyway) {
    await deps.keys.set(trimmed, origin);
    void vscode.window.showInformationMessage(vscode.l10n.t('AI Chat: API key saved (not verified).'));
  } else if (choice === openSettings) {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'aiChat.baseUrl');
  }
}

async function clearApiKey(deps: CommandDeps): Promise<void> {
  await deps.keys.get();
  if (!deps.keys.hasKey) {
    void vscode.window.showInformationMessage(vscode.l10n.t('AI Chat: no API key is set.'));
    return;
  }
  await deps.keys.clear();
  void vscode.window.showInformationMessage(vscode.l10n.t('AI Chat: API key cleared.'));
}

async function refreshBalance(deps: CommandDeps): Promise<void> {
  if (!(await deps.keys.get())) {
    const set = await vscode.window.showInformationMessage(vscode.l10n.t('AI Chat: set an API key to see your balance.'), vscode.l10n.t('Set API Key'));
    if (set) await vscode.commands.executeCommand('aiChat.setApiKey');
    return;
  }
  await deps.balance.refresh();
  const st = deps.balance.state;
  if (st.error) void vscode.window.showWarningMessage(vscode.l10n.t('AI Chat: could not get the balance: {0}', st.error));
}

async function showBalanceMenu(deps: CommandDeps): Promise<void> {
  if (!(await deps.keys.get())) {
    await vscode.commands.executeCommand('aiChat.setApiKey');
    return;
  }
  const st = deps.balance.state;
  const title = st.balance
    ? vscode.l10n.t('AI Chat: {0}', creditsText(totalCredits(st.balance)))
    : st.error
      ? vscode.l10n.t('AI Chat: balance unavailable ({0})', st.error)
      : vscode.l10n.t('AI Chat: balance loading…');
  const items: Array<vscode.QuickPickItem & { command: string }> = [
    { label: vscode.l10n.t('$(refresh) Refresh Balance'), command: 'aiChat.refreshBalance' },
    { label: vscode.l10n.t('$(symbol-enum) Select Model'), description: deps.config.settings.model || vscode.l10n.t('none selected'), command: 'aiChat.selectModel' },
    { label: vscode.l10n.t('$(credit-card) Show Subscriptions'), command: 'aiChat.showSubscriptions' },
    { label: vscode.l10n.t('$(graph) Show Usage'), command: 'aiChat.showUsage' },
    { label: vscode.l10n.t('$(key) Set API Key'), command: 'aiChat.setApiKey' },
    { label: vscode.l10n.t('$(comment-discussion) Open Chat'), command: 'aiChat.openChat' },
  ];
  const menu = vscode.window.createQuickPick<(typeof items)[number]>();
  menu.title = title;
  menu.placeholder = vscode.l10n.t('Choose an action');
  menu.items = items;
  await new Promise<void>((resolve) => {
    let hidden = false;
    menu.onDidAccept(() => {
      const picked = menu.selectedItems[0];
      if (!picked) return;
      // The action runs while the menu is still open: a picker it opens takes the menu's place
      // without closing the quick input in between (a closed one gives the focus back to where
      // it was, which can close the next picker at once). The menu closes when the action is done.
      menu.busy = true;
      menu.enabled = false;
      const close = () => {
        if (!hidden) menu.hide();
      };
      vscode.commands.executeCommand(picked.command).then(close, close);
    });
    menu.onDidHide(() => {
      hidden = true;
      menu.dispose();
      resolve();
    });
    menu.show();
  });
}

async function showSubscriptions(deps: CommandDeps): Promise<void> {
  type Item = vscode.QuickPickItem & { action?: 'setApiKey' | 'retry' };
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = vscode.l10n.t('AI Chat: Subscriptions');
  qp.placeholder = vscode.l10n.t('Plans offered by the service (price as given by the service)');
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  const load = async () => {
    if (!(await deps.keys.get())) {
      qp.items = [{ label: vscode.l10n.t('$(key) Set API Key'), detail: vscode.l10n.t('The plans are listed by the service and need your API key.'), action: 'setApiKey' }];
      return;
    }
    qp.busy = true;
    qp.items = [{ label: vscode.l10n.t('$(sync~spin) Loading subscriptions…') }];
    try {
      const subs = await deps.clients.get().subscriptions();
      const items = subscriptionItems(subs);
      qp.items = items.length ? items : [{ label: vscode.l10n.t('The service lists no subscriptions') }];
    } catch (err) {
      qp.items = [
        { label: vscode.l10n.t('$(error) Could not load the subscriptions'), detail: err instanceof Error ? err.message : String(err) },
        { label: vscode.l10n.t('$(refresh) Try again'), action: 'retry' },
      ];
    } finally {
      qp.busy = false;
    }
  };
  const subs = [
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0];
      if (item?.action === 'retry') void load();
      else if (item?.action === 'setApiKey') {
        qp.hide();
        void vscode.commands.executeCommand('aiChat.setApiKey');
      } else qp.hide();
    }),
    qp.onDidHide(() => {
      for (const s of subs) s.dispose();
      qp.dispose();
    }),
  ];
  qp.show();
  await load();
}

