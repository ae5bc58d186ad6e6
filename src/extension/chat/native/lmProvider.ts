// The service's models as a VS Code language model provider (vendor "aichat"): listed in the
// model picker with their cost per message, answering through the one turn pipeline
// (pipeline/turnService.ts: the same gate, client and accounting as the panel). A thin adapter between
// VS Code's API and the pipeline. Registered only where the host offers
// `vscode.lm.registerLanguageModelChatProvider` (VS Code 1.104+); elsewhere nothing happens.
import * as vscode from 'vscode';
import { LM_SETUP_MODEL_ID, LM_VENDOR, actionTitle, estimateTokens, lmModels, lmRequest, lmSetupModel, type LmModelInfo, type LmPart } from '../../../core';
import type { ErrorView } from '../../../protocol';
import type { Logger } from '../../platform/log';
import { signalOf, type TurnService } from '../../pipeline/turnService';

/** What the provider lists: whether a key is set, the service's models, the context setting. */
export interface LmModelSource {
  hasKey(): Promise<boolean>;
  models(load: boolean): Promise<Parameters<typeof lmModels>[0] | undefined>;
  contextMaxTokens(): number;
  /** Fires when the key or the models may have changed. */
  onDidChange: vscode.Event<unknown>;
}

export interface LmProviderDeps {
  turns: TurnService;
  source: LmModelSource;
  logger: Logger;
}

/** A request message as the host passes it (the types are newer than the engine this targets). */
export interface RequestMessage {
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

function roleOf(role: number): 'user' | 'assistant' | 'system' {
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
    if (!(await deps.source.hasKey())) {
      // One entry that says to set the key: the Chat view can then run @aichat, which says so too.
      return [lmSetupModel()];
    }
    return lmModels((await deps.source.models(load)) ?? [], deps.source.contextMaxTokens());
  };
  const provider: Provider = {
    onDidChangeLanguageModelChatInformation: changed.event,

    async provideLanguageModelChatInformation() {
      const info = await current(true);
      announced = JSON.stringify(info);
      return info;
    },

    provideLanguageModelChatResponse: (model, messages, _options, progress, token) =>
      answerLmRequest(deps.turns, model, messages, (chunk) => progress.report(new TextPart(chunk)), token),

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
    const watch = deps.source.onDidChange(() => void announce());
    return vscode.Disposable.from(registration, watch, changed);
  } catch (err) {
    changed.dispose();
    deps.logger.warn('The AI Chat language model provider could not be registered', { message: String(err) });
    return undefined;
  }
}

/**
 * Answers one language model request through the one turn pipeline: the request's messages in, the
 * reply's text out through `report`; a refusal or failure is thrown as a plain sentence.
 */
export async function answerLmRequest(
  turns: TurnService,
  model: Pick<LmModelInfo, 'id' | 'maxInputTokens'>,
  messages: readonly RequestMessage[],
  report: (chunk: string) => void,
  token: vscode.CancellationToken,
): Promise<void> {
  const request = lmRequest(messages.map((m) => ({ role: roleOf(m.role), parts: m.content.map(partOf) })));
  if (!request.ok) throw plainError(request.message);
  const cancel = signalOf(token);
  try {
    // The setup entry answers with the gate's refusal for a missing key.
    const ran = await turns.run(
      {
        surface: 'lm',
        prompt: request.prompt,
        also: request.also,
        earlier: request.earlier,
        system: request.system,
        ownInstructionsOnly: true,
        ...(model.id === LM_SETUP_MODEL_ID ? {} : { model: model.id }),
        // Within the model's input budget (the one reported to VS Code): earlier turns newest first.
        budget: model.maxInputTokens,
      },
      { text: report, status: () => undefined },
      cancel.signal,
    );
    // A plain sentence with what to do (the command to run), never a stack trace.
    if (ran.kind === 'refused') throw plainError(withCommands(ran.error));
    const { result } = ran;
    if (result.ending === 'error' || result.ending === 'failed') throw plainError(result.error ? withCommands(result.error) : '');
  } finally {
    cancel.dispose();
  }
}

/** An error's text with the AI Chat commands that fix it (VS Code shows a provider's error as text only). */
function withCommands(error: ErrorView): string {
  const commands = error.actions.filter((a) => a === 'setApiKey' || a === 'selectModel' || a === 'showSubscriptions');
  return [error.message, ...commands.map((a) => vscode.l10n.t('Run "AI Chat: {0}" from the Command Palette.', actionTitle(a)))].join(' ');
}

/** An error whose text is all VS Code shows: no stack of this extension's files. */
function plainError(message: string): Error {
  const err = new Error(message);
  err.stack = `Error: ${message}`;
  return err;
}
