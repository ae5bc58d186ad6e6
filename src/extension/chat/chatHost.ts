// The chat's host in VS Code (the controller's ChatHost): what the webview asks of VS Code
// (commands, links, files, settings, the chips, History, the `/` and `#` menus), the surface whose page
// said `ready`, the draft kept in the workspace's state, and the key read when a surface starts.
// Every message of the webview reaches the controller first (common/controller.ts).
import * as vscode from 'vscode';
import type { AllowedCommand } from '../../protocol';
import type { ConfigService } from '../platform/config';
import type { ContextAttachments } from '../context/attachments';
import type { HashMenuHost } from '../context/hashMenu';
import { openSentItem } from '../context/openSent';
import type { ApiKeyStore } from '../account/keyStore';
import { safeExternalUrl } from '../platform/links';
import type { Logger } from '../platform/log';
import type { ModelService } from '../account/modelService';
import { REVIEW_COMMAND } from '../platform/serviceAddress';
import { SHOW_RULES_COMMAND } from '../rules/ruleCommandIds';
import { DRAFT_KEY } from './draft';
import type { ChatSurfaces } from './chatSurfaces';
import { runCodeAction, type CodeActionDeps } from './codeBlockActions';
import type { ChatHost, HostAction } from './common/controller';


/** Commands the webview may ask for (the protocol's allowlist), and what they run. */
function runAllowedCommand(command: AllowedCommand, extensionId: string): Thenable<unknown> {
  switch (command) {
    case 'setApiKey':
      return vscode.commands.executeCommand('aiChat.setApiKey');
    case 'showSubscriptions':
      return vscode.commands.executeCommand('aiChat.showSubscriptions');
    case 'selectModel':
      return vscode.commands.executeCommand('aiChat.selectModel');
    case 'openSettings':
      return vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${extensionId}`);
    case 'reviewServiceAddress':
      return vscode.commands.executeCommand(REVIEW_COMMAND);
    case 'openInstructions':
      return vscode.commands.executeCommand('aiChat.openInstructions');
    case 'toggleInstructions':
      return vscode.commands.executeCommand('aiChat.toggleInstructions');
    case 'openSystemPrompt':
      return vscode.commands.executeCommand('workbench.action.openSettings', 'aiChat.systemPrompt');
    case 'refreshBalance':
      return vscode.commands.executeCommand('aiChat.refreshBalance');
    case 'pickCheaperModel':
      return vscode.commands.executeCommand('aiChat.pickCheaperModel');
    case 'showRules':
      return vscode.commands.executeCommand(SHOW_RULES_COMMAND);
  }
}

export interface ChatHostDeps extends CodeActionDeps {
  context: vscode.ExtensionContext;
  surfaces: ChatSurfaces;
  attachments: ContextAttachments;
  config: ConfigService;
  keys: ApiKeyStore;
  models: ModelService;
  logger: Logger;
  restoreCurrent(): Promise<void>;
  openHistory(): Promise<void>;
  /** The slash commands: the one chosen put in the box, and the files read again. */
  prompts?: { expand(name: string, args?: string): Promise<unknown>; recheck(): Promise<void> };
  /** A reply's changes across files: Apply All, Undo, Redo. */
  changes?: { act(action: 'apply' | 'undo' | 'redo', messageId: string): Promise<unknown> };
  /** The `#` menu of the box. */
  hashMenu?: HashMenuHost;
}

export function chatHost(deps: ChatHostDeps): ChatHost {
  const { surfaces, attachments } = deps;
  const act = async (action: HostAction): Promise<void> => {
    switch (action.type) {
      case 'resync':
        surfaces.page.resync();
        return;
      case 'dropUris':
        await attachments.addDropped(action.uris, action.total, action.outsideFiles);
        return;
      case 'openHistory':
        return deps.openHistory();
      case 'selectModel':
        if (action.valueId === undefined) {
          await deps.models.pick();
        } else if (!(await deps.models.select(action.valueId))) {
          void vscode.window.showWarningMessage(vscode.l10n.t('The model "{0}" cannot be used for chat.', action.valueId));
        }
        return;
      case 'setSearch':
        await deps.config.update('search', action.value);
        return;
      case 'setTemperature':
        await deps.config.update('temperature', Math.round(action.value * 100) / 100);
        return;
      case 'codeAction':
        return runCodeAction(deps, action.action, action.code, action.language, action.path);
      case 'replyChangesAction':
        await deps.changes?.act(action.action, action.messageId);
        return;
      case 'openLink': {
        const url = safeExternalUrl(action.href);
        if (!url) {
          deps.logger.warn('Refused to open a link that is not http(s)', { href: action.href.slice(0, 200) });
          return;
        }
        await vscode.env.openExternal(vscode.Uri.parse(url, true));
        return;
      }
      case 'removeContext':
        attachments.remove(action.id);
        return;
      case 'pinContext':
        attachments.pin(action.id);
        return;
      case 'openSent':
        return openSentItem(action.path, action.startLine, action.endLine);
      case 'contextSearch':
        return deps.hashMenu?.search(action.seq, action.query);
      case 'contextChoose':
        return deps.hashMenu?.choose(action.seq, action, action.question);
      case 'expandPrompt':
        await deps.prompts?.expand(action.name, action.args);
        return;
      case 'promptsWanted':
        // A list that changes is posted by the panel's onDidChange.
        await deps.prompts?.recheck();
        return;
      case 'runCommand':
        await runAllowedCommand(action.command, deps.context.extension.id);
        return;
    }
  };
  return {
    act,
    surfaceReady: () => {
      const surface = surfaces.page.current;
      return {
        earlier: surfaces.page.markReady(surface),
        stillShown: () => {
          if (surfaces.page.current !== surface) return false;
          if (surface) surface.stale = false;
          return true;
        },
      };
    },
    restoreCurrent: () => deps.restoreCurrent(),
    draft: {
      load: () => deps.context.workspaceState.get<string>(DRAFT_KEY),
      save: async (text) => {
        await deps.context.workspaceState.update(DRAFT_KEY, text);
      },
    },
    accountRead: async () => {
      await deps.keys.get();
      if (deps.keys.hasKey && !deps.models.models) void deps.models.load();
    },
    warn: (message) => void vscode.window.showWarningMessage(message),
  };
}
