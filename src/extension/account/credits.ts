// Credits a user can plan with: the warning below N messages, the out-of-credits choices, and
// the usage report from the replies' own charges (kept in globalState, bounded).
import * as vscode from 'vscode';
import {
  DEFAULT_LOW_CREDIT_MESSAGES, affordableChatModels, appendUsage, checkLowCredit, formatNumber, readUsage, summarizeUsage, totalCredits,
  type LowCreditState, type UsageRecord,
} from '../../core';
import type { BalanceService } from './balanceService';
import type { ConfigService } from '../platform/config';
import type { ModelService } from './modelService';

const USAGE_KEY = 'aiChat.usage';
const USAGE_SCHEME = 'ai-chat-usage';

/** `aiChat.lowCreditWarningMessages`: below this many messages of the selected model, credits are low. */
export function lowCreditMessages(): number {
  const n = vscode.workspace.getConfiguration('aiChat').get<number>('lowCreditWarningMessages', DEFAULT_LOW_CREDIT_MESSAGES);
  return typeof n === 'number' && Number.isFinite(n) ? n : DEFAULT_LOW_CREDIT_MESSAGES;
}

export class CreditsService implements vscode.Disposable {
  private low: LowCreditState = { below: false };
  private readonly disposables: vscode.Disposable[] = [];

  private usageSeq = 0;
  /** The reports shown in this window (a few KB each), by URI. */
  private readonly usageTexts = new Map<string, string>();

  constructor(
    private readonly state: vscode.Memento,
    private readonly balance: BalanceService,
    private readonly models: ModelService,
    private readonly config: ConfigService,
  ) {
    this.disposables.push(
      balance.onDidChange(() => this.checkLow()),
      models.onDidChange(() => this.checkLow()),
      vscode.workspace.registerTextDocumentContentProvider(USAGE_SCHEME, {
        provideTextDocumentContent: (uri) => this.usageTexts.get(uri.toString()) ?? '',
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => this.usageTexts.delete(doc.uri.toString())),
    );
  }


  private total(): number | undefined {
    const s = this.balance.state;
    // The balance shown: the last reply's price taken off while the service has not shown it yet.
    return s.balance && !s.error ? Math.max(0, totalCredits(s.balance) - (s.pendingCharge ?? 0)) : undefined;
  }

  /** Warns once when the balance goes below the cost of N messages of the current model. */
  private checkLow(): void {
    const model = this.config.settings.model;
    const r = checkLowCredit(this.low, this.total(), model ? this.models.costOf(model) : undefined, lowCreditMessages());
    this.low = r.state;
    if (!r.warn) return;
    const subs = vscode.l10n.t('Show Subscriptions');
    const refresh = vscode.l10n.t('Refresh Balance');
    void vscode.window
      .showWarningMessage(vscode.l10n.t('AI Chat credits are low: {0} messages of {1} left.', String(r.messagesLeft ?? 0), model), subs, refresh)
      .then((picked) => {
        if (picked === subs) void vscode.commands.executeCommand('aiChat.showSubscriptions');
        if (picked === refresh) void vscode.commands.executeCommand('aiChat.refreshBalance');
      });
  }

  /** Keeps the charge of a finished reply for the usage report. */
  async record(rec: UsageRecord): Promise<void> {
    await this.state.update(USAGE_KEY, appendUsage(readUsage(this.state.get(USAGE_KEY)), rec));
  }

  /** AI Chat: Show Usage — a Markdown report per day and model, from the replies' own charges. */
  async showUsage(): Promise<void> {
    const report = summarizeUsage(readUsage(this.state.get(USAGE_KEY)), (at) => new Date(at).getTimezoneOffset());
    const lines = [
      `# ${vscode.l10n.t('AI Chat usage')}`,
      '',
      vscode.l10n.t('{0} credits for {1} replies, from the charges of the replies made on this machine.', formatNumber(report.total), String(report.replies)),
    ];
    if (report.unknown > 0) lines.push('', vscode.l10n.t('{0} replies have no known charge and are not in the total.', String(report.unknown)));
    if (report.approximate > 0) {
      lines.push('', vscode.l10n.t('{0} replies are counted at their price (~): the balance change during them was not theirs alone (another reply, window or machine spent meanwhile).', String(report.approximate)));
    }
    lines.push('', `| ${vscode.l10n.t('Day')} | ${vscode.l10n.t('Model')} | ${vscode.l10n.t('Replies')} | ${vscode.l10n.t('Credits')} |`, '|---|---|---:|---:|');
    const cell = (s: string) => s.replace(/[|\\`*_<>[\]]/g, (c) => `\\${c}`);
    for (const r of report.rows) lines.push(`| ${r.day} | ${cell(r.model)} | ${r.replies} | ${r.approximate ? '~' : ''}${formatNumber(r.credits)}${r.unknown ? ` (+${r.unknown} ?)` : ''} |`);
    if (report.rows.length === 0) lines.push('', vscode.l10n.t('No replies yet.'));
    if (report.surfaces.length > 0) {
      lines.push('', `| ${vscode.l10n.t('Asked from')} | ${vscode.l10n.t('Replies')} | ${vscode.l10n.t('Credits')} |`, '|---|---:|---:|');
      for (const p of report.surfaces) lines.push(`| ${surfaceName(p.surface)} | ${p.replies} | ${formatNumber(p.credits)} |`);
    }
    // A read-only document (nothing to save when it is closed), a new one for each report.
    const uri = vscode.Uri.from({ scheme: USAGE_SCHEME, path: `/${vscode.l10n.t('AI Chat Usage')}.md`, query: String(++this.usageSeq) });
    this.usageTexts.set(uri.toString(), lines.join('\n') + '\n');
    await vscode.commands.executeCommand('markdown.showPreview', uri);
  }

  /** Out of credits: Show Subscriptions, Refresh Balance, or a model the balance pays. */
  async outOfCredits(): Promise<void> {
    const subs = vscode.l10n.t('Show Subscriptions');
    const refresh = vscode.l10n.t('Refresh Balance');
    const cheaper = vscode.l10n.t('Pick a Cheaper Model');
    const picked = await vscode.window.showWarningMessage(vscode.l10n.t('Not enough AI Chat credits for this message.'), subs, refresh, cheaper);
    if (picked === subs) await vscode.commands.executeCommand('aiChat.showSubscriptions');
    if (picked === refresh) await vscode.commands.executeCommand('aiChat.refreshBalance');
    if (picked === cheaper) await this.pickCheaperModel();
  }

  /** Lists only the models the balance pays for, with their cost. */
  async pickCheaperModel(): Promise<void> {
    const total = this.total() ?? 0;
    const list = affordableChatModels(this.models.models ?? [], total);
    if (list.length === 0) {
      void vscode.window.showWarningMessage(vscode.l10n.t('The balance ({0} credits) pays for no model. Top up in Subscriptions.', formatNumber(total)));
      return;
    }
    const picked = await vscode.window.showQuickPick(
      list.map((m) => ({ label: m.name, description: vscode.l10n.t('{0} credits per message', formatNumber(m.cost)), id: m.id })),
      { title: vscode.l10n.t('Models your balance of {0} credits pays for', formatNumber(total)) },
    );
    if (picked) await this.models.select(picked.id);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** Where a turn was asked, as Show Usage names it. */
function surfaceName(surface: string): string {
  switch (surface) {
    case 'panel':
      return vscode.l10n.t('the chat');
    case 'aichat':
      return vscode.l10n.t('@aichat in the Chat view');
    case 'lm':
      return vscode.l10n.t('VS Code chat, AI Chat models');
    case 'edit':
      return vscode.l10n.t('Edit in the editor');
    case 'fix':
    case 'explain':
      return vscode.l10n.t('the lightbulb');
    case 'terminal':
      return vscode.l10n.t('a terminal failure');
    case 'commit':
      return vscode.l10n.t('commit messages');
    case 'summary':
      return vscode.l10n.t('summaries');
    default:
      return surface;
  }
}
