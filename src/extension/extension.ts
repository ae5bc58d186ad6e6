// Composition root: creates the pieces, wires them together and registers everything into
// context.subscriptions. No logic of its own and no module-level state.
import * as vscode from 'vscode';
import { ChatSession, ConversationStore } from '../core';
import { BalanceService } from './balanceService';
import { CHAT_SIDEBAR_VIEW, CHAT_VIEW_TYPE, ChatPanelController } from './chatPanel';
import { ClientProvider } from './clientProvider';
import { registerCommands } from './commands';
import { ConfigService } from './config';
import { FileConversationStorage } from './conversationFiles';
import { EditorTracker } from './editorTracker';
import { ApiKeyStore } from './keyStore';
import { createChannelLogger } from './log';
import { ModelService } from './modelService';
import { StatusBarController } from './statusBar';

export function activate(context: vscode.ExtensionContext): void {
  const channel = vscode.window.createOutputChannel('AI Chat', { log: true });
  const keys = new ApiKeyStore(context.secrets);
  const logger = createChannelLogger(channel, () => [keys.knownSecret()]);
  const config = new ConfigService();
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0');
  const clients = new ClientProvider(config, keys, logger, `ai-chat-assistant/${version} vscode/${vscode.version}`);
  const models = new ModelService(clients, keys, config, logger);
  const balance = new BalanceService(clients, keys, config, logger);
  const status = new StatusBarController(keys, balance, models, config);
  const editors = new EditorTracker();
  const store = new ConversationStore(new FileConversationStorage(context.globalStorageUri.fsPath));
  // The session tells its events to the panel's controller, built just below (events come later).
  const session = new ChatSession({
    store,
    backend: () => clients.get(),
    settings: () => config.settings,
    modelCost: (id) => models.costOf(id),
    onEvent: (event) => chat.onSessionEvent(event),
    replyFinished: (info) => chat.replyFinished(info),
    replyStarted: (info) => balance.replyStarted(`${info.conversationId}/${info.messageId}`),
    logger,
    flushIntervalMs: 24,
  });
  const chat = new ChatPanelController({ context, session, config, keys, models, balance, clients, store, editors, logger });

  context.subscriptions.push(
    channel,
    keys,
    config,
    clients,
    models,
    balance,
    status,
    editors,
    chat,
    ...registerCommands({ config, keys, models, balance, clients, chat, logger }),
    vscode.window.registerWebviewViewProvider(CHAT_SIDEBAR_VIEW, chat, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state) => chat.restore(panel, state),
    }),
  );

  logger.info('AI Chat activated', { version, baseUrl: config.settings.baseUrl });
  // `aiChat.hasApiKey` completes the walkthrough's first step (and can guard menus).
  const publishHasKey = () => void keys.get().then((key) => vscode.commands.executeCommand('setContext', 'aiChat.hasApiKey', !!key));
  context.subscriptions.push(keys.onDidChange(publishHasKey));
  publishHasKey();
  void keys.get().then((key) => {
    status.update();
    if (key) {
      void balance.refresh();
      void models.load();
    }
  });
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
