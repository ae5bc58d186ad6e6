// How a send is judged: the facts the one turn pipeline reads once (key, model, price, balance,
// instructions), the question a surface asks about a send, and the one step that gives the gate
// what a request carries. The chat's controller asks through SendJudge (TurnService implements it),
// so that nothing but the pipeline reads the gate's facts. VS Code-free.
import type { ContextSelection } from '../context/contextBudget';
import { sendGate, type GateInput, type GateVerdict } from './sendGate';

/** What a send needs, read once by the pipeline. */
export interface SendFacts {
  hasKey: boolean;
  /** The model that would answer ('' when none is selected). */
  model: string;
  cost: number | null;
  balance: number | undefined;
  /** The user's aiChat.systemPrompt and the project instructions as they would be sent. */
  systemSetting: string;
  instructions: string;
  /** Input budget of a request to the model, in estimated tokens. */
  budget: number;
}

/** What the surface holds when its send is judged: its queue, and the request fitted to the model's budget. */
export type SendSurfaceState = Pick<GateInput, 'busy' | 'canQueue' | 'fit'>;

/** A send as a surface asks the pipeline to judge it. */
export interface SendQuestion {
  /** The message as it would be sent ('' for a Retry or Continue: the conversation's own text). */
  text: string;
  /** The model to answer (a queued message goes with its own); default the selected one. */
  model?: string;
  /** Longest message the surface takes (characters). */
  maxChars?: number;
  /** Read once the facts are: the surface's queue and the request fitted to the model's budget. */
  state?: () => SendSurfaceState;
}

export interface SendJudgement {
  verdict: GateVerdict;
  /** The facts the verdict was given with (after the balance was fetched again, when it was). */
  facts: SendFacts;
}

/** The chat's port to the one turn pipeline: the verdict on a send, and what it reads for the chat's cards. */
export interface SendJudge {
  /** The gate's verdict; a message the balance cannot pay is refused only after the balance was fetched again. */
  judge(question: SendQuestion): Promise<SendJudgement>;
  /** The credit balance as last read, when known. */
  balance(): number | undefined;
  /** Whether a text holds the user's API key (the key is read first). */
  holdsKey(text: string): Promise<boolean>;
}

/** The gate's verdict on a request that carries `texts` (the message and what goes with it): the one call of the gate. */
export function judgeRequest(gate: Omit<GateInput, 'text' | 'fit'>, texts: readonly string[], fit?: ContextSelection): GateVerdict {
  return sendGate({ ...gate, text: texts.filter((t) => t !== '').join('\n'), ...(fit ? { fit } : {}) });
}

/** A verdict that the balance cannot pay (the pipeline then fetches the balance and judges again, once). */
export function cannotPay(verdict: GateVerdict): boolean {
  return verdict.kind === 'refuse' && verdict.reason === 'cannotPay';
}
