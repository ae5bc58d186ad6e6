// The service's models as a VS Code language model provider (vendor "aichat"): listed in the
// model picker with their cost per message, answering through the same client as the panel
// (same key, address rules, and the panel's accounting of charges and usage). Registered only
// where the host offers `vscode.lm.registerLanguageModelChatProvider` (VS Code 1.104+); elsewhere nothing happens.
import * as vscode from 'vscode';
import { LM_SETUP_MODEL_ID, LM_VENDOR, answerNative, estimateTokens, lmModels, lmSetupModel, lmToServiceMessages, type LmMessage, type LmModelInfo, type LmPart } from '../../../core';
import type { TurnAccounting } from '../../account/turnAccounting';
import type { ClientProvider } from '../../platform/clientProvider';
import type { ConfigService } from '../../platform/config';
import type { ApiKeyStore } from '../../account/keyStore';
import type { Logger } from '../../platform/log';
import type { ModelService } from '../../account/modelService';

export interface LmProviderDeps {
  clients: ClientProvider;
  keys: ApiKeyStore;
  config: ConfigService;
  models: ModelService;
  turns: TurnAccounting;
  logger: Logger;
}

/** A request message as the host passes it (the types are newer than the engine this targets). */
interface RequestMessage {
  role: number;
  content: ReadonlyArray<unknown>;
}

interface Provider {
  onDidChangeLanguageModelChatInformation: vscode.Event<void>;
  provideLanguageModelChatInformation(options: { silent?: boolean }, token: vscode.CancellationToken): Promise<LmModelInfo[]>;
  provideLanguageModelChatResponse(
    model: LmModelInfo,
    messages: readonly RequestMessage[],
    options: unknown,
    progress: vscode.Progress<unknown>,
    token: vscode.CancellationToken,
  ): Promise<void>;
  provideTokenCount(model: LmModelInfo, text: string | RequestMessage, token: vscode.CancellationToken): Promise<number>;
}

interface LmApi {
  registerLanguageModelChatProvider(vendor: string, provider: Provider): vscode.Disposable;
}

type TextPartClass = new (value: string) => unknown;

/** A part of a request message: text, or named for the refusal (tool calls and results, data). */
function partOf(part: unknown): LmPart {
  const p = part as { value?: unknown; callId?: unknown; mimeType?: unknown };
  if (p && typeof p === 'object') {
    if (typeof p.callId === 'string') return { kind: 'other', what: vscode.l10n.t('a tool call or tool result') };
    if (typeof p.mimeType === 'string') return { kind: 'other', what: vscode.l10n.t('a {0} attachment', p.mimeType) };
    if (typeof p.value === 'string') return { kind: 'text', value: p.value };
  }
  return { kind: 'other', what: vscode.l10n.t('a part of an unknown kind') };
}

function roleOf(role: number): LmMessage['role'] {
  // LanguageModelChatMessageRole: User = 1, Assistant = 2, System = 3.
  return role === 2 ? 'assistant' : role === 3 ? 'system' : 'user';
}

/** Registers the provider, or returns undefined (and logs why) when the host lacks the API. */
export function registerLmProvider(deps: LmProviderDeps): vscode.Disposable | undefined {
  const lm = (vscode as unknown as { lm?: Partial<LmApi> }).lm;
  const TextPart = (vscode as unknown as { LanguageModelTextPart?: TextPartClass }).LanguageModelTextPart;
  if (typeof lm?.registerLanguageModelChatProvider !== 'function' || typeof TextPart !== 'function') {
    deps.logger.info('The AI Chat models are not offered to VS Code chat: this host has no language model provider API');
    return undefined;
  }
  const changed = new vscode.EventEmitter<void>();
  /** What VS Code was last told (or would be told now), to announce a change only when there is one. */
  let announced: string | undefined;
  const current = async (load: boolean): Promise<LmModelInfo[]> => {
    if (!(await deps.keys.get())) {
      // One entry that says to set the key: the Chat view can then run @aichat, which says so too.
      return [lmSetupModel()];
    }
    const list = deps.models.models ?? (load ? await deps.models.load().catch(() => undefined) : undefined);
    return lmModels(list ?? [], deps.config.settings.contextMaxTokens);
  };
  const provider: Provider = {
    onDidChangeLanguageModelChatInformation: changed.event,

    async provideLanguageModelChatInformation() {
      const info = await current(true);
      announced = JSON.stringify(info);
      return info;
    },

    async provideLanguageModelChatResponse(model, messages, _options, progress, token) {
      // The key is read first: the request is checked for it below.
      if (model.id === LM_SETUP_MODEL_ID || !(await deps.keys.get())) throw new Error(vscode.l10n.t('No AI Chat API key is set. Run "AI Chat: Set API Key", then try again.'));
      // Within the model's input budget (the one reported to VS Code): earlier turns newest first.
      const converted = lmToServiceMessages(
        messages.map((m) => ({ role: roleOf(m.role), parts: m.content.map(partOf) })),
        model.maxInputTokens,
        (text) => deps.keys.holds(text),
      );
      if (!converted.ok) throw new Error(converted.message);
      const controller = new AbortController();
      const cancel = token.onCancellationRequested(() => controller.abort());
      // Charged and recorded like the panel's replies, with the model the request names.
      const turn = deps.turns.nativeTurn('lm', model.id, deps.models.costOf(model.id));
      try {
        const result = await answerNative(
          turn.backend(deps.clients.get()),
          { ...deps.config.settings, model: model.id },
          converted.messages,
          { text: (chunk) => progress.report(new TextPart(chunk)), progress: () => undefined },
          controller.signal,
        );
        if (!result.ok && !result.aborted) throw new Error(result.error.message);
      } finally {
        cancel.dispose();
        void turn.end();
      }
    },

    async provideTokenCount(_model, text) {
      if (typeof text === 'string') return estimateTokens(text);
      return estimateTokens(text.content.map((p) => (partOf(p).kind === 'text' ? (p as { value: string }).value : '')).join(''));
    },
  };
  try {
    const registration = lm.registerLanguageModelChatProvider(LM_VENDOR, provider);
    deps.logger.info('The AI Chat models are offered to VS Code chat (language model provider "aichat")');
    // The model list service says it changed when a load starts and when it ends: VS Code is told
    // only when the models it would list really change (each announcement makes the workbench ask
    // every provider for its models again).
    const announce = async (): Promise<void> => {
      const next = JSON.stringify(await current(false));
      if (next === announced) return;
      announced = next;
      changed.fire();
    };
    const watch = deps.models.onDidChange(() => void announce());
    const keys = deps.keys.onDidChange(() => void announce());
    return vscode.Disposable.from(registration, watch, keys, changed);
  } catch (err) {
    changed.dispose();
    deps.logger.warn('The AI Chat language model provider could not be registered', { message: String(err) });
    return undefined;
  }
}
