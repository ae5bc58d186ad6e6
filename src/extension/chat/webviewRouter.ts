// The one router of what the chat's webview asks for: each message, parsed by the surface's
// host, goes to the controller, the session or the VS Code service that does it.
import * as vscode from 'vscode';
import type { ChatSession } from '../../core';
import type { AllowedCommand, HostMessage, WebviewMessage } from '../../protocol';
import type { ConfigService } from '../platform/config';
import type { ContextAttachments } from '../editor/attachments';
import type { ApiKeyStore } from '../account/keyStore';
import { isSafeConversationId, safeExternalUrl } from '../platform/links';
import type { Logger } from '../platform/log';
import type { ModelService } from '../account/modelService';
import { REVIEW_COMMAND } from '../platform/serviceAddress';
import type { ChatSurfaces } from './chatSurfaces';
import { runCodeAction, type CodeActionDeps } from './codeActions';
import type { ContextMeterFeed } from './common/contextMeter';
import { box, chipsMessageOf, promptListMessageOf, type PromptListView } from './common/presenter';
import type { ChatController } from './common/controller';
import type { Summarizer } from './common/summarize';

export const DRAFT_KEY = 'aiChat.draft';

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
  }
}

export interface WebviewRouterDeps extends CodeActionDeps {
  context: vscode.ExtensionContext;
  session: ChatSession;
  controller: ChatController;
  surfaces: ChatSurfaces;
  attachments: ContextAttachments;
  meter: ContextMeterFeed;
  /** Summaries of earlier turns. */
  summaries: Summarizer;
  config: ConfigService;
  keys: ApiKeyStore;
  models: ModelService;
  logger: Logger;
  /** The whole conversation as the webview shows it (with why it is not shown, if so). */
  conversationMessage(): HostMessage;
  restoreCurrent(): Promise<void>;
  sendText(text: string, model?: string): Promise<void>;
  openHistory(): Promise<void>;
  /** Whether a text holds the user's API key. */
  holdsKey(text: string): Promise<boolean>;
  /** The slash commands: their list for the `/` menu, and the one chosen put in the box. */
  prompts?: { view(): PromptListView; expand(name: string, args?: string): Promise<unknown>; recheck(): Promise<void> };
}

export function webviewRouter(deps: WebviewRouterDeps): (msg: WebviewMessage) => Promise<void> {
  const { session, controller, surfaces, attachments, meter } = deps;
  const post = (m: HostMessage) => surfaces.page.post(m);
  return async (msg) => {
    switch (msg.type) {
      case 'ready': {
        const surface = surfaces.page.current;
        // The conversation sent now holds everything of the running turn so far: of what was
        // queued before, only what is not part of it stays.
        const queued = surfaces.page.markReady(surface).filter((m) => m.type === 'restoreInput' || m.type === 'focusInput' || m.type === 'insertPrompt');
        post(controller.settingsMessage());
        // The conversation of the last window first (a view resolved after a reload): the webview
        // shows "Opening…" meanwhile, never an empty chat for it.
        await deps.restoreCurrent();
        if (surfaces.page.current !== surface) return;
        if (surface) surface.stale = false;
        post(deps.conversationMessage());
        post(controller.queueMessage());
        post(chipsMessageOf(attachments.chips()));
        if (deps.prompts) post(promptListMessageOf(deps.prompts.view()));
        // The webview keeps its draft in its own state; the host's copy covers a reload that lost it.
        const draft = deps.context.workspaceState.get<string>(DRAFT_KEY);
        if (draft) post(box.restore(draft));
        for (const m of queued) post(m);
        meter.setDraft(draft ?? '', false);
        meter.update(true);
        void deps.keys.get().then(() => {
          controller.settingsChanged();
          if (deps.keys.hasKey && !deps.models.models) void deps.models.load();
        });
        return;
      }
      case 'resync':
        surfaces.page.resync();
        return;
      case 'send':
        return deps.sendText(msg.text, msg.model);
      case 'stop':
        session.stop();
        return;
      case 'retry':
        return controller.retry();
      case 'continue':
        return controller.continueReply();
      case 'queueRemove':
        return controller.queued.remove(msg.id);
      case 'queueEdit':
        return controller.queueEdit(msg.id, msg.text);
      case 'queueResume':
        return controller.queueResume();
      case 'queueClear':
        return controller.queued.clear();
      case 'dropUris':
        await attachments.addDropped(msg.uris, msg.total, msg.outsideFiles);
        return;
      case 'dismissOutOfCredits':
        return controller.dismissOutOfCredits();
      case 'editLast':
        await session.editLast(msg.messageId);
        return;
      case 'fork':
        if (!(await controller.fork(msg.messageId)) && !session.busy) {
          void vscode.window.showWarningMessage(vscode.l10n.t('That message could not be forked: it is not in the conversation any more.'));
        }
        return;
      case 'newChat':
        return session.newChat();
      case 'openHistory':
        return deps.openHistory();
      case 'loadConversation':
        if (!isSafeConversationId(msg.id) || !(await session.open(msg.id))) {
          void vscode.window.showWarningMessage(vscode.l10n.t('That conversation could not be opened.'));
        }
        return;
      case 'selectModel':
        if (msg.valueId === undefined) {
          await deps.models.pick();
        } else if (!(await deps.models.select(msg.valueId))) {
          void vscode.window.showWarningMessage(vscode.l10n.t('The model "{0}" cannot be used for chat.', msg.valueId));
        }
        controller.settingsChanged();
        return;
      case 'setSearch':
        await deps.config.update('search', msg.value);
        return;
      case 'setTemperature':
        await deps.config.update('temperature', Math.round(msg.value * 100) / 100);
        return;
      case 'codeAction':
        return runCodeAction(deps, msg.action, msg.code, msg.language, msg.path);
      case 'openLink': {
        const url = safeExternalUrl(msg.href);
        if (!url) {
          deps.logger.warn('Refused to open a link that is not http(s)', { href: msg.href.slice(0, 200) });
          return;
        }
        await vscode.env.openExternal(vscode.Uri.parse(url, true));
        return;
      }
      case 'draft': {
        meter.setDraft(msg.text);
        // A draft with the API key in it is not kept (the workspace state is a file on disk), and
        // the webview is told, so that it neither keeps it in its own state nor lets it go unsaid.
        const holds = !!msg.text && (await deps.holdsKey(msg.text));
        await deps.context.workspaceState.update(DRAFT_KEY, holds ? undefined : msg.text || undefined);
        post(box.draftHoldsKey(holds));
        return;
      }
      case 'sendFewer':
        // The service said the input is too long: half the earlier turns, the same text.
        session.fewerEarlierTurns();
        if (msg.text !== undefined) return deps.sendText(msg.text);
        return controller.retry();
      case 'addContext':
        await attachments.pick();
        return;
      case 'removeContext':
        attachments.remove(msg.id);
        return;
      case 'summarize':
        // The meter's button showed the price.
        await deps.summaries.start(false);
        return;
      case 'summaryStop':
        return deps.summaries.stop();
      case 'summaryEdit':
        return deps.summaries.edit(msg.text);
      case 'summaryRemove':
        return deps.summaries.remove();
      case 'expandPrompt':
        await deps.prompts?.expand(msg.name, msg.args);
        return;
      case 'promptsWanted':
        // A list that changes is posted by the panel's onDidChange.
        await deps.prompts?.recheck();
        return;
      case 'runCommand':
        await runAllowedCommand(msg.command, deps.context.extension.id);
        return;
    }
  };
}
