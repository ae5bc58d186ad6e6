// What the chat session's requests hold of the conversation: the earlier turns that fit the model's
// budget (the summary in place of the turns it replaces), at most as many as "Send with fewer
// earlier messages" left. Owns the turns the last request sent and that cap. VS Code-free.
import type { Conversation, StoredMessage } from './conversation';
import { afterSummary } from './summary';
import { halveTurns, selectContext, type ContextSelection } from '../context/contextBudget';
import type { ChatSessionDeps } from './sessionPorts';
import { NO_RULES, type RequestRules } from '../rules/requestRules';

export class RequestContext {
  /** Earlier turns sent with the last request (for "Send with fewer earlier messages"). */
  private lastSentTurns: { conversationId: string; turns: number } | undefined;
  /** At most this many earlier turns in this conversation with this model, after "Send with fewer earlier messages". */
  private turnCap: { conversationId: string; model: string; maxTurns: number } | undefined;

  constructor(private readonly deps: Pick<ChatSessionDeps, 'settings' | 'contextBudget' | 'rules'>) {}

  /** The repository's rules for a question that carries `files`. */
  rules(files: readonly string[] = []): RequestRules {
    return this.deps.rules?.(files) ?? NO_RULES;
  }

  /** The system text of a request: the user's system prompt with the project instructions, then the rules. */
  system(rules: RequestRules): string {
    return [this.deps.settings().systemPrompt.trim(), rules.text].filter((t) => t !== '').join('\n\n');
  }

  /**
   * The context of a request to `model` (default: the selected one): its budget and turn cap are
   * that model's; `rules` (default: those for no file) go after the system prompt.
   */
  select(conv: Conversation, earlier: readonly StoredMessage[], text: string, attachmentChars: number, messageId?: string, model?: string, rules?: RequestRules): ContextSelection {
    const settings = this.deps.settings();
    const target = model || settings.model;
    const cap = this.turnCap?.conversationId === conv.id && this.turnCap.model === target ? this.turnCap.maxTurns : undefined;
    // The summary of earlier turns goes in place of the messages it replaces.
    const after = afterSummary(conv, earlier);
    return selectContext({
      systemPrompt: this.system(rules ?? this.rules()),
      message: text,
      attachmentChars,
      earlier: after.earlier,
      ...(after.summary !== undefined ? { summary: after.summary, summarizedTurns: after.turns } : {}),
      budget: this.deps.contextBudget ? this.deps.contextBudget(target) : Number.POSITIVE_INFINITY,
      ...(cap !== undefined ? { maxTurns: cap } : {}),
      ...(messageId ? { messageId } : {}),
    });
  }

  /** A request of `conversationId` went out with `turns` earlier turns. */
  sent(conversationId: string, turns: number): void {
    this.lastSentTurns = { conversationId, turns };
  }

  /**
   * The next requests of `conv` (with the selected model) send at most half the earlier turns the
   * last one sent (`preview`: what a request would send now, when none of it went out yet).
   */
  halve(conv: Conversation, preview: () => ContextSelection): void {
    const last = this.lastSentTurns?.conversationId === conv.id ? this.lastSentTurns.turns : undefined;
    const now = last === undefined ? preview() : undefined;
    const base = last ?? (now?.ok ? now.sentTurns : 0);
    this.turnCap = { conversationId: conv.id, model: this.deps.settings().model, maxTurns: halveTurns(base) };
  }
}
