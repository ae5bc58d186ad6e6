// Composition root: creates the pieces, wires them together and registers everything into
// context.subscriptions. No logic of its own; its only module-level state is the save that
// deactivate() waits for.
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { watchSaving } from './platform/saveWarning';
import { budgetForModel, ChatSession, ConversationStore } from '../core';
import { BalanceService } from './account/balanceService';
import { CHAT_VIEWS, CHAT_VIEW_TYPE, ChatPanelController } from './chat/chatPanel';
import { ClientProvider } from './platform/clientProvider';
import { registerCommands } from './commands';
import { registerContextCommands } from './editor/contextCommands';
import { CreditsService } from './account/credits';
import { registerEditorPromptCommands } from './editor/editorPromptCommands';
import { ConfigService } from './platform/config';
import { FileConversationStorage } from './platform/conversationFiles';
import { ApplyToFile } from './editor/applyToFile';
import { InstructionsService } from './editor/instructions';
import { registerParticipant } from './chat/native/participant';
import { registerLmProvider } from './chat/native/lmProvider';
import { EditorTracker } from './editor/editorTracker';
import { ApiKeyStore } from './account/keyStore';
import { createChannelLogger } from './platform/log';
import { ModelService } from './account/modelService';
import { ServiceAddress } from './platform/serviceAddress';
import { StatusBarController } from './account/statusBar';
import { TurnAccounting, panelTurnKey } from './account/turnAccounting';

export function activate(context: vscode.ExtensionContext): void {
  // The pure modules (src/core, src/protocol) translate with @vscode/l10n: same bundle.
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  const channel = vscode.window.createOutputChannel(vscode.l10n.t('AI Chat'), { log: true });
  const keys = new ApiKeyStore(context.secrets);
  const logger = createChannelLogger(channel, () => keys.knownSecrets());
  const config = new ConfigService(context.globalState);
  const address = new ServiceAddress(config, keys, logger);
  const declared = (context.extension.packageJSON as { version?: unknown }).version;
  const version = typeof declared === 'string' ? declared : '0';
  const clients = new ClientProvider(config, address, logger, `ai-chat-assistant/${version} vscode/${vscode.version}`);
  const models = new ModelService(clients, keys, config, logger);
  const balance = new BalanceService(clients, keys, config, logger);
  const status = new StatusBarController(keys, balance, models, config);
  const credits = new CreditsService(context.globalState, balance, models, config);
  // Every turn of every surface: charge from the balance at turn start, pending price, usage record.
  const turns = new TurnAccounting({ balance, record: (rec) => credits.record(rec), logger });
  const editors = new EditorTracker();
  // Conversations are shared by every window; which one is current belongs to the window's workspace.
  const store = new ConversationStore(
    new FileConversationStorage(context.globalStorageUri.fsPath, (context.storageUri ?? context.globalStorageUri).fsPath),
  );
  lastSave = () => store.flush();
  const instructions = new InstructionsService(context.workspaceState, logger);
  // The session tells its events to the panel's controller, built just below (events come later).
  const session = new ChatSession({
    store,
    // A reply's request waits (briefly) for the balance its charge is measured from.
    backend: () => turns.gate(clients.get()),
    // The project's instructions file (AGENTS.md) follows the user's own system prompt.
    settings: () => {
      const s = config.settings;
      return { ...s, systemPrompt: instructions.systemPrompt(s.systemPrompt) };
    },
    modelCost: (id) => models.costOf(id),
    // Each request fits the model's stated max_tokens (or aiChat.context.maxTokens), estimated.
    contextBudget: (id) => budgetForModel(models.models, id, config.settings.contextMaxTokens).inputTokens,
    onEvent: (event) => chat.onSessionEvent(event),
    replyFinished: (info) => chat.replyFinished(info),
    replyStarted: (info) => turns.begin(panelTurnKey(info)),
    logger,
    flushIntervalMs: 24,
  });
  // A save that fails is said once, with Retry; the conversation stays in memory meanwhile.
  context.subscriptions.push(watchSaving(store, () => store.save(session.conversation), logger));
  const apply = new ApplyToFile(editors, logger);
  const chat = new ChatPanelController({
    context, session, config, keys, models, balance, turns, clients, store, editors, instructions, apply, logger,
    onReplyCharged: (_charged, kind) => {
      // The chat shows its out-of-credits card; a notification when it is not on screen.
      if (kind === 'credits' && !chat.isVisible) void credits.outOfCredits();
    },
    onCannotPay: () => void credits.outOfCredits(),
  });

  context.subscriptions.push(
    channel,
    keys,
    config,
    address,
    clients,
    models,
    balance,
    status,
    turns,
    editors,
    chat,
    credits,
    ...registerCommands({ config, keys, models, balance, clients, chat, address, logger, credits }),
    ...registerEditorPromptCommands(chat),
    instructions,
    apply,
    ...[
      registerParticipant({ extensionUri: context.extensionUri, clients, keys, config, models, turns, instructions, logger }),
      registerLmProvider({ clients, keys, config, models, turns, logger }),
    ].filter(
      (d): d is vscode.Disposable => d !== undefined,
    ),
    ...registerContextCommands(chat.attachments, () => chat.show(true)),
    vscode.commands.registerCommand('aiChat.openInstructions', () => instructions.open()),
    vscode.commands.registerCommand('aiChat.toggleInstructions', () => instructions.toggle()),
    ...CHAT_VIEWS.map((id) => vscode.window.registerWebviewViewProvider(id, chat.surfaces, { webviewOptions: { retainContextWhenHidden: true } })),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('aiChat.chatLocation')) void chat.surfaces.locationChanged();
    }),
    vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state) => chat.restore(panel, state),
    }),
  );

  logger.info('AI Chat activated', { version, baseUrl: config.settings.baseUrl, baseUrlSource: config.baseUrlChoice.source });
  address.announceIgnored();
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

/** Set by activate(): resolves once the last save is on disk (the one thing deactivate waits for). */
let lastSave: (() => Promise<void>) | undefined;

export function deactivate(): Promise<void> | undefined {
  // Everything else is disposed through context.subscriptions.
  return lastSave?.();
}
