// A reply's facts as the chat keeps them with the reply (stored in the conversation's log): its
// model, its charge, its token counts, how it ended, a note on a malformed reply, the reasoning,
// and the stream's data. Core's own schema: the panel has its view of them (src/protocol), which
// the extension maps to at the edge. VS Code-free.
import * as z from 'zod/mini';

/** Longest reasoning kept with a reply (a longer one is cut). */
export const MAX_KEPT_REASONING = 200_000;
/** Longest JSON of the data and annotations kept with a reply. */
export const MAX_KEPT_EXTRAS = 80_000;

/** How a complete reply ended when it is worth a note under it: cut at the model's limit, or filtered. */
export const ReplyEndSchema = z.enum(['length', 'content-filter']);

/** Most rules listed with one reply. */
export const MAX_SENT_RULES = 200;

/** A rule that went with the request: its file, and why (as the rules list words it). */
export const SentRuleSchema = z.object({ path: z.string().check(z.maxLength(1000)), why: z.string().check(z.maxLength(500)) });
export type SentRule = z.infer<typeof SentRuleSchema>;

export const ReplyFactsSchema = z.object({
  model: z.string(),
  credits: z.optional(z.number().check(z.gte(0))),
  promptTokens: z.optional(z.number().check(z.int(), z.gte(0))),
  completionTokens: z.optional(z.number().check(z.int(), z.gte(0))),
  /** `length`: a note and a Continue button under the reply; `content-filter`: a note. */
  ending: z.optional(ReplyEndSchema),
  /** What the service got wrong in a reply that was kept (e.g. a missing field). */
  note: z.optional(z.string().check(z.maxLength(500))),
  /** What a reasoning model thought before it answered (shown collapsed above the reply, never in its text). */
  reasoning: z.optional(z.string().check(z.maxLength(MAX_KEPT_REASONING))),
  /** The stream's data and message annotations as JSON: kept with the reply, never shown. */
  extras: z.optional(z.string().check(z.maxLength(MAX_KEPT_EXTRAS))),
  /** The rules that went with the request (the project instructions among them), each with why. */
  rules: z.optional(z.array(SentRuleSchema).check(z.maxLength(MAX_SENT_RULES))),
});
export type ReplyFacts = z.infer<typeof ReplyFactsSchema>;
