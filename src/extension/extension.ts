// Composition root: creates the pieces, wires them together and registers everything into
// context.subscriptions. No logic of its own; its only module-level state is the save that
// deactivate() waits for.
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { instructionsLabel } from '../core';
import { BalanceService } from './account/balanceService';
import { CHAT_VIEWS, CHAT_VIEW_TYPE } from './chat/chatLocation';
import { ClientProvider } from './platform/clientProvider';
import { registerAccountCommands } from './account/accountCommands';
import { registerChatCommands } from './chat/chatCommands';
import { registerContextCommands } from './context/contextCommands';
import { CreditsService } from './account/credits';
import { registerEditorPromptCommands } from './editorPrompts/editorPromptCommands';
import { registerQuickFix } from './lightbulb/quickFix';
import { registerTerminalFailure } from './terminal/explainTerminalFailure';
import type { ChatBox } from './pipeline/chatBox';
import { CodebaseService } from './codebase/codebaseService';
import { registerFindFiles } from './codebase/findFiles';
import { DRAFT_KEY } from './chat/draft';
import { ConfigService } from './platform/config';
import { ApplyToFile } from './applyToFile/applyToFile';
import { InstructionsService } from './pipeline/instructionsFile';
import { registerLazyRooms } from './lazyRooms';
import { roomLoader } from './platform/lazyRoom';
import type { RulesPort } from './pipeline/turnService';
import { registerParticipant } from './chat/native/participant';
import { registerLmProvider } from './chat/native/lmProvider';
import { EditorTracker } from './platform/editorTracker';
import { ApiKeyStore } from './account/keyStore';
import { createChannelLogger } from './platform/log';
import { ModelService } from './account/modelService';
import { ServiceAddress } from './platform/serviceAddress';
import { StatusBarController } from './account/statusBar';
import { TurnAccounting } from './account/turnAccounting';
import { TurnService } from './pipeline/turnService';

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const started = performance.now();
  // The pure modules (src/core, src/protocol) translate with @vscode/l10n: same bundle.
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  // Everything else in a task of its own, so the host runs its other startup work first (VS Code's
  // activation figure counts loading the code and this part). Activation ends once it is done: VS
  // Code runs no command, view, panel or participant of ours before.
  const firstMs = performance.now() - started;
  await new Promise<void>((resolve) => setImmediate(resolve));
  const restStarted = performance.now();
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
  const accounting = new TurnAccounting({ balance, record: (rec) => credits.record(rec), logger });
  const editors = new EditorTracker();
  // Diff editors of proposed changes can be restored with the window: their provider is registered now.
  const apply = new ApplyToFile(editors, logger);
  // The project's instructions (AGENTS.md), read and watched once the chat or @aichat needs them.
  const instructions = once(() => {
    const built = new InstructionsService(context.workspaceState, logger);
    context.subscriptions.push(built);
    return built;
  });
  // The repository's rules (other tools' rule files): loaded, read and watched once a request needs them.
  const rulesRoom = roomLoader(
    'rules',
    () => import('./rules/rulesService'),
    ({ RulesService }) => {
      const built = new RulesService({
        workspaceState: context.workspaceState,
        logger,
        // The project instructions file is sent by its own service, and listed first with the rules.
        instructions: () => {
          const current = instructions().current;
          return { name: current.name, sent: current.state === 'active' ? { path: instructionsLabel(current), why: vscode.l10n.t('always (the project instructions)') } : undefined };
        },
        holdsKey: (text) => keys.holds(text),
        keyChanged: keys.onDidChange,
      });
      context.subscriptions.push(built, instructions().onDidChange(() => built.refreshInstructions()));
      loadedRules = built;
      return built;
    },
    logger,
  );
  let loadedRules: RulesPort | undefined;
  // The pipeline's port: a request asks for the rules after fresh() (its facts wait for it), so they
  // are loaded by then. Rules are optional: when their file cannot be loaded (said as damaged), none go.
  const rulesPort: RulesPort = {
    fresh: () => rulesRoom().then((r) => r.fresh(), () => undefined),
    forRequest: (files) => loadedRules?.forRequest(files) ?? { text: '', sent: [] },
  };
  // The one turn pipeline: every surface's gate, turn and accounting.
  const turns = new TurnService({ keys, config, models, balance, accounting, clients, instructions, rules: () => rulesPort, logger });
  // The chat's own parts are loaded and built when a chat view, panel or chat command first needs them.
  const room = roomLoader(
    'chat',
    async () => ({ ...(await import('./chat/chatRoom')), rules: await rulesRoom() }),
    ({ buildChatRoom, rules }) => {
      const built = buildChatRoom({
        context, config, keys, models, balance, turns, editors, apply, credits, logger, instructions: instructions(), rules,
        // The `#` menu's quick symbols: the names the codebase index found (none while it is off).
        codebaseNames: (query) => (codebase ? codebase.names(query) : Promise.resolve([])),
      });
      lastSave = () => built.store.flush();
      return built;
    },
    logger,
  );
  /** The chat, built on first use. */
  const chat = async () => (await room()).chat;
  /** The chat's message box for the features (the chat built on their first use of it). */
  const chatBox: ChatBox = {
    insertPrompt: async (text) => (await chat()).insertPrompt(text),
    sendText: async (text) => (await chat()).sendText(text),
    show: async (preserveFocus) => (await chat()).show(preserveFocus),
    draft: () => context.workspaceState.get<string>(DRAFT_KEY),
  };
  // The codebase index (Find Files for a Question): a worker thread, started shortly after activation.
  let codebase: CodebaseService | undefined;
  const startCodebase = (): CodebaseService => {
    if (codebase) return codebase;
    codebase = new CodebaseService({ workerFile: vscode.Uri.joinPath(context.extensionUri, 'dist', 'codebaseWorker.js').fsPath, storage: context.storageUri, logger });
    context.subscriptions.push(codebase);
    return codebase;
  };
  const codebaseStart = setTimeout(startCodebase, 1500);

  context.subscriptions.push(
    channel,
    keys,
    config,
    address,
    clients,
    models,
    balance,
    status,
    accounting,
    editors,
    credits,
    apply,
    // Each room registers its own commands.
    ...registerAccountCommands({ config, keys, models, balance, clients, address, logger, credits }),
    ...registerChatCommands(chat, logger),
    // Export and Import, Edit in the editor, the commit message: each loaded on its first use.
    ...registerLazyRooms({
      // Export Chat, Copy Conversation, Import Conversation…: the chat's conversations through a port.
      conversations: {
        current: async () => {
          const shown = await chat();
          await shown.ensureRestored();
          return shown.session.conversation;
        },
        store: async () => (await room()).store,
        open: async (id) => {
          const shown = await chat();
          const opened = await shown.session.open(id);
          if (opened) await shown.show();
          return opened;
        },
        holdsKey: (text) => turns.holdsKey(text),
      },
      inlineEdit: { turns, logger, state: context.globalState, keep: async (instruction, reply, model) => (await room()).keep(instruction, reply, { model }) },
      turns,
      rules: rulesRoom,
      logger,
    }),
    ...registerEditorPromptCommands(chatBox, logger),
    // Help where the problem shows up: the lightbulb, the terminal.
    ...registerQuickFix((text) => chatBox.insertPrompt(text)),
    ...registerTerminalFailure((text) => chatBox.insertPrompt(text)),
    ...[
      registerParticipant({
        extensionUri: context.extensionUri,
        turns,
        logger,
        openInChat: async (question, answer, model) => (await chat()).openKeptTurn(question, answer, model),
        prompts: async () => (await chat()).prompts,
        models: () => models.models,
        loadModels: () => models.load(),
        selectedModel: () => config.settings.model,
        contextMaxTokens: () => config.settings.contextMaxTokens,
      }),
      registerLmProvider({
        turns,
        logger,
        source: {
          hasKey: async () => !!(await keys.get()),
          models: async (load) => models.models ?? (load ? await models.load().catch(() => undefined) : undefined),
          contextMaxTokens: () => config.settings.contextMaxTokens,
          onDidChange: (listener) => vscode.Disposable.from(models.onDidChange(listener), keys.onDidChange(listener)),
        },
      }),
    ].filter(
      (d): d is vscode.Disposable => d !== undefined,
    ),
    ...registerContextCommands(async () => (await chat()).attachments, async () => (await chat()).show(true)),
    ...registerFindFiles({ service: startCodebase, chatBox, attach: async (uris) => (await chat()).attachments.addFiles(uris) }),
    { dispose: () => clearTimeout(codebaseStart) },
    vscode.commands.registerCommand('aiChat.openInstructions', () => instructions().open()),
    vscode.commands.registerCommand('aiChat.toggleInstructions', () => instructions().toggle()),
    ...CHAT_VIEWS.map((id) =>
      vscode.window.registerWebviewViewProvider(
        id,
        { resolveWebviewView: async (view) => (await chat()).surfaces.resolveWebviewView(view) },
        { webviewOptions: { retainContextWhenHidden: true } },
      ),
    ),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('aiChat.chatLocation')) void chat().then((c) => c.surfaces.locationChanged(), () => undefined);
    }),
    vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) => (await chat()).restore(panel, state),
    }),
  );

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
  // How long activate()'s two parts took (VS Code's own figure counts the first, and adds loading the code and, at startup, the host's other work).
  const ms = (n: number) => Math.round(n * 10) / 10;
  logger.info('AI Chat activated', { activateMs: ms(firstMs + performance.now() - restStarted), firstPartMs: ms(firstMs), version, baseUrl: config.settings.baseUrl, baseUrlSource: config.baseUrlChoice.source });
}

/** A value built by `build` on its first use, then kept. */
function once<T>(build: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: build() }).v;
}

/** Set by the chat when it is built: resolves once the last save is on disk (the one thing deactivate waits for). */
let lastSave: (() => Promise<void>) | undefined;

export function deactivate(): Promise<void> | undefined {
  // Everything else is disposed through context.subscriptions.
  return lastSave?.();
}
