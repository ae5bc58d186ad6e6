// What a turn's result means for the reply the chat keeps, and for the accounting of every surface:
// one reading of a TurnResult, beside the loop that makes it (turn.ts). VS Code-free.
import * as l10n from '@vscode/l10n';
import type { ChatError } from './errors';
import type { ReplyFacts } from './replyFacts';
import { creditsCharged } from '../account/cost';
import type { TurnOutcome } from '../account/turnAccounting';
import type { TurnResult } from './turn';

/** Added to the error of a reply that was paid for, before its Retry. */
export function retryCostsAgain(): string {
  return l10n.t('Retry sends the message again and costs credits again.');
}

/** The reply as the chat keeps it, or `takeBack`: nothing of a reply came, the turn is taken back. */
export type ReplyRecord =
  | { takeBack: true; error: ChatError }
  | { takeBack: false; status: 'complete' | 'stopped' | 'error'; meta: ReplyFacts; error?: ChatError };

/** What `result` leaves in the conversation, priced at `cost` (the model's price, when known). */
export function replyRecord(result: TurnResult, cost: number | null): ReplyRecord {
  const meta: ReplyFacts = { ...result.meta };
  switch (result.ending) {
    case 'failed':
      return { takeBack: true, error: result.error ?? { kind: 'unknown', message: l10n.t('The reply failed'), actions: ['retry'] } };
    case 'complete': {
      const charged = creditsCharged(result.reported, cost);
      if (charged !== undefined) meta.credits = charged;
      return { takeBack: false, status: 'complete', meta };
    }
    case 'stopped': {
      // A reply stopped after the service answered is paid for.
      const charged = result.answered || result.started ? creditsCharged(undefined, cost) : undefined;
      if (charged !== undefined) meta.credits = charged;
      return { takeBack: false, status: 'stopped', meta };
    }
    case 'error': {
      const view = result.error ?? { kind: 'stream' as const, message: l10n.t('The reply failed'), actions: ['retry' as const] };
      // The service answered 200, so the reply was paid for: its text stays, and Retry says it costs credits again.
      if (result.answered && cost !== null) meta.credits = cost;
      return { takeBack: false, status: 'error', meta, error: result.answered ? { ...view, message: `${view.message} ${retryCostsAgain()}` } : view };
    }
  }
}

/** The turn as the accounting settles it: answered or not, by which model, with the service's figures. */
export function turnOutcomeOf(result: TurnResult, expected: number | null | undefined): TurnOutcome {
  return {
    answered: result.answered,
    model: result.meta.model ?? '',
    ...(result.reported !== undefined ? { reported: creditsCharged(result.reported, expected) ?? result.reported } : {}),
    ...(result.remaining !== undefined ? { remaining: result.remaining } : {}),
    ...(typeof expected === 'number' ? { expected } : {}),
  };
}
