// The rules of one request as the chat keeps and shows them: the text the model gets (each rule
// under its file's name), and for each rule that went its file and why ("matched `src/a.py` by
// `**/*.py`", "always"), kept with the reply. The project instructions file (AGENTS.md at the root,
// or the file aiChat.instructionsFile names) is listed first when it went. VS Code-free.
import { chooseRules, reasonText, rulesText, type RulesRequest } from './chooseRules';
import type { Rule } from './ruleFormats';
import type { SentRule } from '../chat/replyFacts';
import { MAX_SENT_RULES } from '../chat/replyFacts';

export type { SentRule } from '../chat/replyFacts';

export interface RequestRules {
  /** What the model gets after the system prompt and the project instructions ('' when no rule goes). */
  text: string;
  /** Each rule that went (the project instructions first when they went), with why. */
  sent: SentRule[];
}

export const NO_RULES: RequestRules = { text: '', sent: [] };

/** The rules that go with a request for `request.files`, and `instructions` (the project instructions file, when it goes). */
export function requestRules(rules: readonly Rule[], request: RulesRequest, instructions?: SentRule): RequestRules {
  const choice = chooseRules(rules, request);
  // Within the stored and shown limits (a long path is cut, never the reply's facts dropped).
  const cut = (t: string, max: number) => (t.length > max ? `${t.slice(0, max - 1)}…` : t);
  const sent = choice.sent.map((c) => ({ path: cut(c.rule.path, 1000), why: cut(reasonText(c.reason), 500) }));
  return { text: rulesText(choice), sent: [...(instructions ? [instructions] : []), ...sent].slice(0, MAX_SENT_RULES) };
}
