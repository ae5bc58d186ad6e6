// The "AI Chat Balance" status bar item.
import * as vscode from 'vscode';
import { computeStatusBarState } from '../../core';
import { lowCreditMessages } from './credits';
import type { BalanceService } from './balanceService';
import type { ConfigService } from '../platform/config';
import type { ApiKeyStore } from './keyStore';
import type { ModelService } from './modelService';

export class StatusBarController implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly balance: BalanceService,
    private readonly models: ModelService,
    private readonly config: ConfigService,
  ) {
    this.item = vscode.window.createStatusBarItem('aiChat.balance', vscode.StatusBarAlignment.Right, 100);
    this.item.name = vscode.l10n.t('AI Chat Balance');
    this.disposables.push(
      this.item,
      balance.onDidChange(() => this.update()),
      models.onDidChange(() => this.update()),
      keys.onDidChange(() => this.update()),
      config.onDidChange(() => this.update()),
    );
    void keys.get().then(() => this.update());
    this.update();
    this.item.show();
  }

  update(): void {
    const b = this.balance.state;
    const model = this.config.settings.model;
    const state = computeStatusBarState({
      hasKey: this.keys.hasKey,
      loading: b.loading,
      ...(b.balance ? { balance: b.balance } : {}),
      ...(b.error !== undefined ? { error: b.error } : {}),
      ...(b.lastUpdated ? { lastUpdated: b.lastUpdated } : {}),
      ...(b.pendingCharge ? { pendingCharge: b.pendingCharge } : {}),
      ...(model ? { selectedModel: model } : {}),
      selectedModelCost: model ? this.models.costOf(model) : null,
      serviceUrl: this.config.baseUrlChoice.url,
      ...(this.config.baseUrlChoice.ignoredWorkspaceUrl ? { ignoredWorkspaceUrl: this.config.baseUrlChoice.ignoredWorkspaceUrl } : {}),
      lowCreditMessages: lowCreditMessages(),
    });
    this.item.text = state.text;
    const tooltip = new vscode.MarkdownString(state.tooltip, true);
    tooltip.isTrusted = false;
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: state.accessibilityLabel, role: 'button' };
    this.item.backgroundColor =
      state.background === 'warning'
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : state.background === 'error'
          ? new vscode.ThemeColor('statusBarItem.errorBackground')
          : undefined;
    this.item.command = this.keys.hasKey ? 'aiChat.showBalance' : 'aiChat.setApiKey';
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
