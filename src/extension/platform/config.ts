// Typed access to the aiChat.* settings; changes take effect without reload.
// The service address and the model are the user's own (see core/account/address.ts, core/account/modelChoice.ts):
// a workspace value is used only after the user allowed it for that workspace, and never in a
// restricted (untrusted) workspace.
import * as vscode from 'vscode';
import { chooseBaseUrl, workspaceDecisionKey, type BaseUrlChoice } from '../../core/account/address';
import { chooseModel, modelPickEffect, type ModelChoice } from '../../core/account/modelChoice';
import { PROXY_SETTINGS, proxyInputsFrom, type ProxyInputs } from '../../core/account/proxy';
import { CONFIG_SECTION, DEFAULT_BASE_URL, readSettings, type AiChatSettings, type SettingKey } from './settings';

/** globalState key of the user's answers about workspace addresses (workspace + URL -> answer). */
const DECISIONS_KEY = 'aiChat.workspaceAddressDecisions';
/** globalState key of the user's answers about workspace models (workspace + model id -> answer). */
const MODEL_DECISIONS_KEY = 'aiChat.workspaceModelDecisions';
export type Decision = 'allowed' | 'declined';

export interface ConfigChange {
  affects(key: SettingKey): boolean;
}

export class ConfigService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ConfigChange>();
  readonly onDidChange = this.changed.event;
  private current: AiChatSettings;
  private choice: BaseUrlChoice;
  private modelPick: ModelChoice;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly state: vscode.Memento) {
    [this.current, this.choice, this.modelPick] = this.read();
    this.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        const proxy = PROXY_SETTINGS.some((s) => e.affectsConfiguration(s));
        if (!e.affectsConfiguration(CONFIG_SECTION) && !proxy) return;
        this.reload((key) => e.affectsConfiguration(`${CONFIG_SECTION}.${key}`) || (proxy && key === 'baseUrl'));
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.reload((key) => key === 'baseUrl' || key === 'model')),
    );
  }

  private reload(affects: (key: SettingKey) => boolean): void {
    [this.current, this.choice, this.modelPick] = this.read();
    this.changed.fire({ affects });
  }

  private read(): [AiChatSettings, BaseUrlChoice, ModelChoice] {
    const cfg = vscode.workspace.getConfiguration(CONFIG_SECTION);
    const settings = readSettings((key) => cfg.get(key));
    const levels = cfg.inspect<string>('baseUrl');
    const choice = chooseBaseUrl(
      {
        defaultValue: levels?.defaultValue ?? DEFAULT_BASE_URL,
        userValue: levels?.globalValue,
        workspaceValue: levels?.workspaceValue,
        workspaceFolderValue: levels?.workspaceFolderValue,
      },
      (url) => vscode.workspace.isTrusted && this.decision(url) === 'allowed',
    );
    const models = cfg.inspect<string>('model');
    const model = chooseModel(
      {
        defaultValue: models?.defaultValue,
        userValue: models?.globalValue,
        workspaceValue: models?.workspaceValue,
        workspaceFolderValue: models?.workspaceFolderValue,
      },
      (id) => vscode.workspace.isTrusted && this.modelDecision(id) === 'allowed',
    );
    return [{ ...settings, baseUrl: choice.url, model: model.model }, choice, model];
  }

  /** Where the model comes from, and a workspace model that is not used. */
  get modelChoice(): ModelChoice {
    return this.modelPick;
  }

  get settings(): AiChatSettings {
    return this.current;
  }

  /** Where the service address comes from, and a workspace address that is not used. */
  get baseUrlChoice(): BaseUrlChoice {
    return this.choice;
  }

  /** Identifies the open workspace (its file, or its folders) for remembered answers. */
  private workspaceId(): string {
    const file = vscode.workspace.workspaceFile?.toString();
    if (file) return file;
    return (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()).join('|') || 'no-workspace';
  }

  private decisions(): Record<string, Decision> {
    const v = this.state.get<Record<string, Decision>>(DECISIONS_KEY);
    return v && typeof v === 'object' ? v : {};
  }

  /** The user's answer about this workspace's address `url`, if any. */
  decision(url: string): Decision | undefined {
    return this.decisions()[workspaceDecisionKey(this.workspaceId(), url)];
  }

  /** Records the answer about this workspace's address and applies it. */
  async decide(url: string, answer: Decision): Promise<void> {
    await this.state.update(DECISIONS_KEY, { ...this.decisions(), [workspaceDecisionKey(this.workspaceId(), url)]: answer });
    this.reload((key) => key === 'baseUrl');
  }

  private modelDecisions(): Record<string, Decision> {
    const v = this.state.get<Record<string, Decision>>(MODEL_DECISIONS_KEY);
    return v && typeof v === 'object' ? v : {};
  }

  /** The user's answer about this workspace's model `id`, if any. */
  modelDecision(id: string): Decision | undefined {
    return this.modelDecisions()[workspaceDecisionKey(this.workspaceId(), id)];
  }

  /** Records the answer about this workspace's model and applies it. */
  async decideModel(id: string, answer: Decision): Promise<void> {
    await this.state.update(MODEL_DECISIONS_KEY, { ...this.modelDecisions(), [workspaceDecisionKey(this.workspaceId(), id)]: answer });
    this.reload((key) => key === 'model');
  }

  /**
   * The user picked `id` (panel, quick pick): it is the model from now on. The workspace's own
   * model picked in a trusted workspace is allowed for this workspace (user settings untouched);
   * any other pick is saved to the user settings, and declines a workspace model in use.
   */
  async pickModel(id: string): Promise<void> {
    const effect = modelPickEffect(this.modelPick, id, vscode.workspace.isTrusted);
    if (effect.allowWorkspaceModel !== undefined) {
      await this.decideModel(effect.allowWorkspaceModel, 'allowed');
      return;
    }
    if (effect.declineWorkspaceModel !== undefined) {
      await this.state.update(MODEL_DECISIONS_KEY, { ...this.modelDecisions(), [workspaceDecisionKey(this.workspaceId(), effect.declineWorkspaceModel)]: 'declined' });
    }
    if (effect.saveUserModel !== undefined) await this.update('model', effect.saveUserModel);
    if (effect.declineWorkspaceModel !== undefined) this.reload((key) => key === 'model');
  }

  /** VS Code's proxy settings (PROXY_SETTINGS) and the process environment, for core/account/proxy.ts. */
  proxyInputs(): ProxyInputs {
    const http = vscode.workspace.getConfiguration('http');
    return proxyInputsFrom((key) => http.get<unknown>(key), process.env);
  }

  /** Saves a setting to the user (global) settings. */
  async update<K extends SettingKey>(key: K, value: AiChatSettings[K]): Promise<void> {
    await vscode.workspace.getConfiguration(CONFIG_SECTION).update(key, value, vscode.ConfigurationTarget.Global);
    [this.current, this.choice, this.modelPick] = this.read();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
