// The request of a surface other than the chat panel (@aichat, the language model provider, edit in
// the editor, ...), built and judged in one pure step: earlier turns that hold the key left out, the
// rest fitted to the model's budget newest first, and the gate's verdict on all of it.
import type { HistoryMessage } from './conversation';
import { nativeContext, turnsWithout, type NativeTurn } from './nativeChat';
import type { GateInput, GateVerdict } from './sendGate';
import { judgeRequest } from './sendJudge';

export interface SurfaceRequestInput {
  /** The new user message. */
  prompt: string;
  /** Other texts the request carries before the prompt (attached parts). */
  also?: readonly string[];
  earlier?: readonly NativeTurn[];
  /** The whole system text sent (the user's, the project instructions, the surface's own). */
  system: string;
  /** The surface's own part of `system` (checked for the key like the message). */
  ownSystem?: string;
  budget: number;
  /** Everything else the gate reads (key, model, price, balance, the user's instructions). */
  gate: Omit<GateInput, 'text' | 'fit'>;
}

export type SurfaceRequest = { verdict: Exclude<GateVerdict, { kind: 'send' }> } | { verdict: { kind: 'send' }; messages: HistoryMessage[] };

export function surfaceRequest(input: SurfaceRequestInput): SurfaceRequest {
  const fit = nativeContext(turnsWithout(input.earlier ?? [], input.gate.holdsKey), input.prompt, input.system, input.budget);
  // The surface's own parts and instructions are part of what it sends.
  const verdict = judgeRequest(input.gate, [...(input.also ?? []), input.ownSystem ?? '', input.prompt], fit);
  if (verdict.kind === 'send' && fit.ok) return { verdict, messages: fit.messages };
  return { verdict: verdict.kind === 'send' ? { kind: 'queue' } : verdict };
}
