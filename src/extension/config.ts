// Typed access to the aiChat.* settings; changes take effect without reload.
import * as vscode from 'vscode';
import { CONFIG_SECTION, readSettings, type AiChatSettings, type SettingKey } from './settings';

export class ConfigService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<{ affects(key: SettingKey): boolean }>();
  readonly onDidChange = this.changed.event;
  private current: AiChatSettings;
  private readonly subscription: vscode.Disposable;

  constructor() {
    this.current = this.read();
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(CONFIG_SECTION) && !e.affectsConfiguration('http.proxy')) return;
      this.current = this.read();
      this.changed.fire({
        affects: (key) => e.affectsConfiguration(`${CONFIG_SECTION}.${key}`),
      });
    });
  }

  private read(): AiChatSettings {
    const cfg = vscode.workspace.getConfiguration(CONFIG_SECTION);
    return readSettings((key) => cfg.get(key));
  }

  get settings(): AiChatSettings {
    return this.current;
  }

  /** VS Code's http.proxy, when set. */
  get proxy(): string | undefined {
    const p = vscode.workspace.getConfiguration('http').get<string>('proxy');
    return p && p.trim() ? p.trim() : undefined;
  }

  /** Saves a setting to the user (global) settings. */
  async update<K extends SettingKey>(key: K, value: AiChatSettings[K]): Promise<void> {
    await vscode.workspace.getConfiguration(CONFIG_SECTION).update(key, value, vscode.ConfigurationTarget.Global);
    this.current = this.read();
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
