// Typed access to the aiChat.* settings; changes take effect without reload.
// The service address is the user's own (see core/address.ts): a workspace value is used only after
// the user allowed it for that workspace, and never in a restricted (untrusted) workspace.
import * as vscode from 'vscode';
import { chooseBaseUrl, workspaceDecisionKey, type BaseUrlChoice } from '../core/address';
import type { ProxyInputs } from '../core/proxy';
import { CONFIG_SECTION, DEFAULT_BASE_URL, readSettings, type AiChatSettings, type SettingKey } from './settings';

/** globalState key of the user's answers about workspace addresses (workspace + URL -> answer). */
const DECISIONS_KEY = 'aiChat.workspaceAddressDecisions';
type Decision = 'allowed' | 'declined';

export interface ConfigChange {
  affects(key: SettingKey): boolean;
}

/** The proxy-related settings read by every client (http.proxy, http.proxyStrictSSL, http.noProxy). */
const PROXY_SETTINGS = ['http.proxy', 'http.proxyStrictSSL', 'http.noProxy'];

export class ConfigService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ConfigChange>();
  readonly onDidChange = this.changed.event;
  private current: AiChatSettings;
  private choice: BaseUrlChoice;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly state: vscode.Memento) {
    [this.current, this.choice] = this.read();
    this.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        const proxy = PROXY_SETTINGS.some((s) => e.affectsConfiguration(s));
        if (!e.affectsConfiguration(CONFIG_SECTION) && !proxy) return;
        this.reload((key) => e.affectsConfiguration(`${CONFIG_SECTION}.${key}`) || (proxy && key === 'baseUrl'));
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.reload((key) => key === 'baseUrl')),
    );
  }

  private reload(affects: (key: SettingKey) => boolean): void {
    [this.current, this.choice] = this.read();
    this.changed.fire({ affects });
  }

  private read(): [AiChatSettings, BaseUrlChoice] {
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
    return [{ ...settings, baseUrl: choice.url }, choice];
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

  /** VS Code's proxy settings and the process environment, for core/proxy.ts. */
  proxyInputs(): ProxyInputs {
    const http = vscode.workspace.getConfiguration('http');
    const noProxy = http.get<unknown>('noProxy');
    return {
      httpProxy: http.get<string>('proxy') || undefined,
      strictSSL: http.get<boolean>('proxyStrictSSL') !== false,
      noProxy: Array.isArray(noProxy) ? noProxy.filter((x): x is string => typeof x === 'string') : [],
      env: process.env,
    };
  }

  /** Saves a setting to the user (global) settings. */
  async update<K extends SettingKey>(key: K, value: AiChatSettings[K]): Promise<void> {
    await vscode.workspace.getConfiguration(CONFIG_SECTION).update(key, value, vscode.ConfigurationTarget.Global);
    [this.current, this.choice] = this.read();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
