// AI Chat: Rules: every rule file of the workspace with whether it goes with a request now (for the
// active editor's file) and why, or why not; unchecking one turns it off for this workspace.
import * as vscode from 'vscode';
import { reasonText } from '../../core';
import type { RulesService } from './rulesService';

import { SHOW_RULES_COMMAND } from './ruleCommandIds';

export { SHOW_RULES_COMMAND };

interface RuleItem extends vscode.QuickPickItem {
  id: string;
}

export async function showRules(rules: RulesService): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Rule files are not read in Restricted Mode: trust this workspace to send its rules.'));
    return;
  }
  // Found and read again first: a watcher can miss a change (a file system that reports nothing).
  await rules.refresh();
  const choice = rules.choice();
  if (!choice.rules.length) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('This workspace has no rule files (AGENTS.md in a subfolder, CLAUDE.md, .github/copilot-instructions.md, .github/instructions, .cursor/rules, .continue/rules, .clinerules, .windsurfrules).'),
    );
    return;
  }
  const items: RuleItem[] = choice.rules.map((c) => ({
    id: c.rule.id,
    label: c.rule.path,
    description: reasonText(c.reason),
    ...(c.rule.problem || c.rule.notes.length ? { detail: [c.rule.problem, ...c.rule.notes].filter(Boolean).join(' · ') } : c.rule.description ? { detail: c.rule.description } : {}),
    picked: c.reason.kind !== 'off',
  }));
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: vscode.l10n.t('AI Chat: Rules of this workspace'),
    placeHolder: vscode.l10n.t('Checked rules go with requests when they apply (for the active editor\'s file, as shown); uncheck one to turn it off for this workspace'),
    matchOnDescription: true,
  });
  if (!picked) return;
  const on = new Set(picked.map((p) => p.id));
  await rules.setOff(
    items.map((i) => i.id),
    new Set(items.filter((i) => !on.has(i.id)).map((i) => i.id)),
  );
}

export function registerRulesCommands(rules: () => Promise<RulesService>): vscode.Disposable[] {
  return [vscode.commands.registerCommand(SHOW_RULES_COMMAND, async () => showRules(await rules()))];
}
