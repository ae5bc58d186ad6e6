// The model list (GET /ai-model), the model quick pick, and the model a workspace names.
import * as vscode from 'vscode';
import { buildModelPickItems, modelCost, type ModelLike } from '../../core';
import { checkModelSelection } from '../../core/account/modelChoice';
import type { ClientProvider } from '../platform/clientProvider';
import type { ConfigService } from '../platform/config';
import type { ApiKeyStore } from './keyStore';
import type { Logger } from '../platform/log';

export class ModelService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private list: ModelLike[] | undefined;
  private loadingNow = false;
  private lastError: string | undefined;
  private inFlight: Promise<ModelLike[] | undefined> | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** Workspace models already announced in this window. */
  private readonly announced = new Set<string>();

  constructor(
    private readonly clients: ClientProvider,
    private readonly keys: ApiKeyStore,
    private readonly config: ConfigService,
    private readonly logger: Logger,
  ) {
    this.disposables.push(
      keys.onDidChange(() => {
        this.list = undefined;
        this.lastError = undefined;
        this.changed.fire();
        void this.load();
      }),
      config.onDidChange((e) => {
        if (e.affects('baseUrl')) {
          this.list = undefined;
          void this.load();
        }
        if (e.affects('model')) {
          this.changed.fire();
          this.announceWorkspaceModel();
        }
      }),
    );
    this.announceWorkspaceModel();
  }

  /** What the panel says when the workspace's settings name a model: used (allowed) or ignored. */
  workspaceNotice(): string | undefined {
    const c = this.config.modelChoice;
    if (c.source === 'workspace') {
      return vscode.l10n.t('The model {0} was chosen by this workspace\'s settings (you allowed it). Pick another model to use your own.', c.model);
    }
    const ws = c.ignoredWorkspaceModel;
    if (!ws) return undefined;
    return c.model
      ? vscode.l10n.t('This workspace\'s settings choose the model {0}; it is ignored unless you pick it for this workspace. Your model {1} is used.', ws, c.model)
      : vscode.l10n.t('This workspace\'s settings choose the model {0}; it is ignored unless you pick it for this workspace. You choose the model on your first message.', ws);
  }

  /** Tells the user once per window that the workspace names a model that is not used. */
  announceWorkspaceModel(): void {
    const c = this.config.modelChoice;
    const ws = c.ignoredWorkspaceModel;
    if (!ws || this.announced.has(ws) || this.config.modelDecision(ws) === 'declined') return;
    this.announced.add(ws);
    const trusted = vscode.workspace.isTrusted;
    this.logger.warn('The workspace names another model; it is not used until the user allows it', { workspaceModel: ws, inUse: c.model, trusted });
    const cost = this.costOf(ws);
    const price = cost !== null ? vscode.l10n.t(' ({0} credits per message)', String(cost)) : '';
    const own = c.model ? vscode.l10n.t('your model {0} is used', c.model) : vscode.l10n.t('you choose the model on your first message');
    const text = trusted
      ? vscode.l10n.t('AI Chat: this workspace\'s settings choose the model {0}{1}. It is not used unless you allow it; {2}.', ws, price, own)
      : vscode.l10n.t('AI Chat: this workspace\'s settings choose the model {0}{1}. It is ignored in Restricted Mode; {2}.', ws, price, own);
    const use = vscode.l10n.t('Use It in This Workspace');
    const keep = vscode.l10n.t('Keep Mine');
    const buttons = trusted ? [use, keep] : [keep];
    void vscode.window.showWarningMessage(text, ...buttons).then(async (picked) => {
      if (picked === use) await this.config.decideModel(ws, 'allowed');
      else if (picked === keep) await this.config.decideModel(ws, 'declined');
    });
  }

  get models(): ModelLike[] | undefined {
    return this.list;
  }
  get loading(): boolean {
    return this.loadingNow;
  }
  get error(): string | undefined {
    return this.lastError;
  }

  costOf(valueId: string): number | null {
    return modelCost(this.list, valueId);
  }

  /** Loads the list (again when `force`); resolves to undefined on error. */
  load(force = false): Promise<ModelLike[] | undefined> {
    if (this.inFlight) return this.inFlight;
    if (this.list && !force) return Promise.resolve(this.list);
    const run = (async () => {
      if (!(await this.keys.get())) {
        this.lastError = undefined;
        return undefined;
      }
      this.loadingNow = true;
      this.changed.fire();
      try {
        const models = await this.clients.get().models();
        this.list = models;
        this.lastError = undefined;
        return models;
      } catch (err) {
        this.lastError = err instanceof Error ? err.message : String(err);
        this.logger.warn('Loading models failed', { kind: (err as { kind?: string }).kind, message: this.lastError });
        return undefined;
      } finally {
        this.loadingNow = false;
        this.changed.fire();
      }
    })().finally(() => {
      if (this.inFlight === run) this.inFlight = undefined;
    });
    this.inFlight = run;
    return run;
  }

  /**
   * Makes `valueId` the chat model (the user's pick: see ConfigService.pickModel). Only a model of
   * the service's list that can be used for chat; anything else is refused, logged, never saved.
   */
  async select(valueId: string): Promise<boolean> {
    if (!this.list) await this.load();
    const check = checkModelSelection(this.list, valueId);
    if (!check.ok) {
      this.logger.warn('A model choice was refused', { reason: check.reason, valueId: valueId.slice(0, 100), ...(check.detail ? { detail: check.detail } : {}) });
      return false;
    }
    await this.config.pickModel(check.model.valueId);
    this.changed.fire();
    return true;
  }

  /**
   * Shows the model quick pick: busy while loading, errors inside the pick, unusable models
   * shown with their reason and not selectable. Resolves to the chosen valueId.
   */
  pick(): Promise<string | undefined> {
    type Item = vscode.QuickPickItem & { valueId?: string; retry?: boolean; setKey?: boolean; selectable: boolean };
    const qp = vscode.window.createQuickPick<Item>();
    qp.title = vscode.l10n.t('AI Chat: Select Model');
    qp.placeholder = vscode.l10n.t('Choose the model for chat (cost per message shown)');
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;

    const render = () => {
      const items = buildModelPickItems({
        ...(this.list ? { models: this.list } : {}),
        current: this.config.settings.model,
        loading: this.loadingNow || !!this.inFlight,
        ...(this.lastError !== undefined && !this.list ? { error: this.lastError } : {}),
      });
      qp.busy = this.loadingNow || !!this.inFlight;
      const out: Item[] = items.map((i): Item => {
        switch (i.kind) {
          case 'separator':
            return { label: i.label, kind: vscode.QuickPickItemKind.Separator, selectable: false };
          case 'model':
            return { label: i.label, description: i.description, ...(i.detail ? { detail: i.detail } : {}), valueId: i.valueId, selectable: true };
          case 'unavailable':
            return { label: i.label, description: i.description, detail: i.detail, valueId: i.valueId, selectable: false };
          case 'retry':
            return { label: i.label, retry: true, selectable: true, alwaysShow: true };
          case 'info':
            return { label: i.label, ...(i.detail ? { detail: i.detail } : {}), selectable: false, alwaysShow: true };
        }
      });
      qp.items = out;
      const current = out.find((o) => o.valueId === this.config.settings.model && o.selectable);
      if (current) qp.activeItems = [current];
    };

    return new Promise<string | undefined>((resolve) => {
      let done = false;
      const finish = (v: string | undefined) => {
        if (done) return;
        done = true;
        resolve(v);
        qp.hide();
      };
      const subs: vscode.Disposable[] = [
        this.onDidChange(render),
        qp.onDidAccept(() => {
          const item = qp.selectedItems[0] ?? qp.activeItems[0];
          if (!item) return;
          if (item.retry) {
            void this.load(true);
            return;
          }
          if (item.setKey) {
            qp.hide();
            void vscode.commands.executeCommand('aiChat.setApiKey');
            return;
          }
          if (!item.selectable || !item.valueId) {
            // Not selectable: say why and keep the pick open.
            if (item.detail) qp.placeholder = vscode.l10n.t('{0} cannot be used: {1}', item.label.replace(/\$\([^)]+\)\s*/g, ''), item.detail);
            qp.selectedItems = [];
            return;
          }
          const id = item.valueId;
          done = true;
          qp.hide();
          this.select(id).then(
            () => resolve(id),
            (err) => {
              this.logger.error('Saving the model setting failed', { message: String(err) });
              resolve(undefined);
            },
          );
        }),
        qp.onDidHide(() => {
          for (const s of subs) s.dispose();
          qp.dispose();
          finish(undefined);
        }),
      ];
      render();
      qp.show();
      void this.keys.get().then((key) => {
        if (!key) {
          qp.items = [{ label: vscode.l10n.t('$(key) Set API Key'), detail: vscode.l10n.t('The model list comes from the service and needs your API key first.'), setKey: true, selectable: false, alwaysShow: true }];
          qp.busy = false;
          return;
        }
        void this.load(true);
      });
    });
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
  }
}
