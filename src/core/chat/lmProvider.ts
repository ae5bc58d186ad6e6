// The service's models as a VS Code language model provider: what the model picker lists, how
// a request's messages become the service's, and a token estimate. Pure: the vscode side
// (src/extension/chat/native/lmProvider.ts) passes neutral shapes in.
import * as l10n from '@vscode/l10n';
import { creditsText } from '../../wording';
import { DEFAULT_CONTEXT_TOKENS, estimateTokens, requestBudget } from '../context/contextBudget';
import { modelUsability, type ModelLike } from '../account/models';
import type { NativeTurn } from './nativeChat';

/** The vendor name of the provider (package.json `languageModelChatProviders`). */
export const LM_VENDOR = 'aichat';
/** The context assumed for a model that states no `max_tokens` (aiChat.context.maxTokens's default). */
export const DEFAULT_MAX_INPUT_TOKENS = DEFAULT_CONTEXT_TOKENS;
/** When a model states no `max_tokens`. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 4_096;

export interface LmModelInfo {
  id: string;
  name: string;
  family: string;
  version: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  /** Shown beside the name in the picker: the cost of one message. */
  detail: string;
  tooltip: string;
  /**
   * `toolCalling` is declared so that VS Code's Chat view lists the models in its default Agent
   * mode (it offers only tool-calling models there, and a participant request fails with
   * "Language model unavailable" when the picker has no model): the models answer in text and
   * never call a tool.
   */
  capabilities: { imageInput: false; toolCalling: true };
}

/** The id of the one model listed while no API key is set (its requests say to set one). */
export const LM_SETUP_MODEL_ID = 'aichat-set-api-key';

/**
 * Listed while no key is set, so that the Chat view can run @aichat, which says how to set the
 * key (a picker without any model fails every participant request before it is asked).
 */
export function lmSetupModel(): LmModelInfo {
  return {
    id: LM_SETUP_MODEL_ID,
    name: l10n.t('AI Chat (set your API key)'),
    family: LM_SETUP_MODEL_ID,
    version: '1',
    maxInputTokens: DEFAULT_MAX_INPUT_TOKENS - DEFAULT_MAX_OUTPUT_TOKENS,
    maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
    detail: l10n.t('no API key'),
    tooltip: l10n.t('Run "AI Chat: Set API Key" to list the AI Chat models and their cost per message.'),
    capabilities: { imageInput: false, toolCalling: true },
  };
}

/**
 * The usable chat models, with their cost per message in the picker's detail and the same budget
 * as the panel's requests (contextBudget.ts): the model's `max_tokens` split into input and room
 * for the reply, or `contextTokens` (aiChat.context.maxTokens) when the model states none.
 */
export function lmModels(models: readonly ModelLike[], contextTokens: number = DEFAULT_CONTEXT_TOKENS): LmModelInfo[] {
  return models
    .filter((m) => modelUsability(m).usable)
    .map((m) => {
      const cost = l10n.t('{0} per message', creditsText(m.costInCreditPerUse));
      const budget = requestBudget(m.max_tokens, contextTokens);
      return {
        id: m.valueId,
        name: m.name,
        family: m.valueId,
        version: '1',
        maxInputTokens: budget.inputTokens,
        maxOutputTokens: budget.replyTokens,
        detail: cost,
        tooltip: l10n.t('{0} from AI Chat: {1}, charged to your AI Chat credits.', m.name, cost),
        capabilities: { imageInput: false, toolCalling: true },
      };
    });
}

/** One part of a request message, as the vscode side saw it. */
export type LmPart = { kind: 'text'; value: string } | { kind: 'other'; what: string };

export interface LmMessage {
  role: 'user' | 'assistant' | 'system';
  parts: readonly LmPart[];
}

/**
 * A language model request as the pipeline takes it: the system text, the earlier turns, the
 * request itself (the user messages after the last answer: `also` are its parts before the
 * `prompt`), or why it cannot be sent.
 */
export type LmRequest =
  | { ok: true; system: string; earlier: NativeTurn[]; also: string[]; prompt: string }
  | { ok: false; message: string };

/**
 * The request's messages: the text parts of each message joined, empty messages left out, system
 * messages together. Tool calls, tool results and images cannot be sent to the service: refused
 * with a message that says so, never dropped in silence. The key guard, the budget and the ids are
 * the pipeline's (pipeline/turnService.ts), as for every surface.
 */
export function lmRequest(messages: readonly LmMessage[]): LmRequest {
  const system: string[] = [];
  const turns: NativeTurn[] = [];
  /** Where the request itself begins: after the last answer, even an empty one (a failed reply). */
  let requestStart = 0;
  for (const m of messages) {
    const other = m.parts.find((p): p is Extract<LmPart, { kind: 'other' }> => p.kind === 'other');
    if (other) return { ok: false, message: l10n.t('AI Chat models answer text only; this request holds {0}, which the service cannot take.', other.what) };
    const content = m.parts.map((p) => (p.kind === 'text' ? p.value : '')).join('');
    if (m.role === 'assistant') requestStart = turns.length + (content.trim() ? 1 : 0);
    if (!content.trim()) continue;
    if (m.role === 'system') system.push(content);
    else turns.push({ role: m.role, content });
  }
  const last = turns.at(-1);
  if (last?.role !== 'user') return { ok: false, message: l10n.t('The request must end with a user message with text to send.') };
  return {
    ok: true,
    system: system.join('\n\n'),
    earlier: turns.slice(0, -1),
    also: turns.slice(Math.min(requestStart, turns.length - 1), -1).map((t) => t.content),
    prompt: last.content,
  };
}

export { estimateTokens };
