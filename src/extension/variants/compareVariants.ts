// Compare: a reply's variant shown beside another of its variants (picked when there are more) as a
// text diff in VS Code's diff editor, each side named with its place, model, credits and time.
// The texts are read-only documents of our own scheme, kept while the chat is open.
import * as vscode from 'vscode';
import { variantTitle, type StoredMessage } from '../../core';

const SCHEME = 'aichat-variant';

export class VariantCompare implements vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private provider: vscode.Disposable | undefined;
  private count = 0;

  /** Opens the diff of `shown` against another of `all` (the one before it when there are two). */
  async compare(all: readonly StoredMessage[], shown: StoredMessage): Promise<void> {
    const others = all.filter((v) => v !== shown);
    if (others.length === 0) return;
    const items = others.map((v) => ({ label: variantTitle(all, v), variant: v }));
    const picked =
      items.length === 1
        ? items[0]
        : await vscode.window.showQuickPick(items, { title: vscode.l10n.t('AI Chat: Compare with…'), placeHolder: vscode.l10n.t('The variant to compare with the one shown ({0})', variantTitle(all, shown)) });
    if (!picked) return;
    this.provider ??= vscode.workspace.registerTextDocumentContentProvider(SCHEME, { provideTextDocumentContent: (uri) => this.texts.get(uri.path) ?? '' });
    const left = this.uri(picked.variant);
    const right = this.uri(shown);
    await vscode.commands.executeCommand('vscode.diff', left, right, vscode.l10n.t('{0} ↔ {1}', variantTitle(all, picked.variant), variantTitle(all, shown)), { preview: true });
  }

  private uri(v: StoredMessage): vscode.Uri {
    const path = `/${v.id}-${++this.count}.md`;
    this.texts.set(path, v.content);
    return vscode.Uri.from({ scheme: SCHEME, path });
  }

  dispose(): void {
    this.provider?.dispose();
    this.texts.clear();
  }
}
