// What the chat shows of the settings, the models, the key, the instructions and the balance: a
// settings snapshot after each change, bursts coalesced into one; a key set settles an error about
// the key; the out-of-credits card is looked at again when the balance changes.
import type * as vscode from 'vscode';
import type { ChatSession } from '../../core';
import type { ApiKeyStore } from '../account/keyStore';
import type { BalanceService } from '../account/balanceService';
import type { ModelService } from '../account/modelService';
import type { ConfigService } from '../platform/config';
import type { InstructionsService } from '../pipeline/instructionsFile';
import type { ChatController } from './common/controller';

export interface SettingsFeedDeps {
  config: ConfigService;
  models: ModelService;
  instructions: InstructionsService;
  balance: BalanceService;
  keys: ApiKeyStore;
  session: ChatSession;
  controller: ChatController;
  /** A chat surface is open (nothing is sent to none). */
  isOpen(): boolean;
  /** Sent with each snapshot (the context meter follows the model). */
  alsoUpdate(): void;
}

export class SettingsFeed implements vscode.Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners: vscode.Disposable[];

  constructor(private readonly deps: SettingsFeedDeps) {
    this.listeners = [
      deps.config.onDidChange(() => this.schedule()),
      deps.models.onDidChange(() => this.schedule()),
      deps.instructions.onDidChange(() => this.schedule()),
      // The out-of-credits card goes once the balance pays a message again.
      deps.balance.onDidChange(() => {
        if (deps.controller.outOfCreditsOpen) this.schedule();
      }),
      deps.keys.onDidChange(() => {
        // A key was set: an error about the key is settled.
        if (deps.keys.hasKey && deps.session.sendError?.kind === 'auth') deps.session.dismissSendError();
        this.schedule();
      }),
    ];
  }

  /** Coalesces settings snapshots caused by bursts of setting/model/key events. */
  private schedule(): void {
    if (this.timer || !this.deps.isOpen()) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.deps.controller.settingsChanged();
      this.deps.alsoUpdate();
    }, 10);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.listeners) d.dispose();
  }
}
