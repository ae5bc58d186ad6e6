// The context of a message across host and webview: "Sent with this message" under a question
// (what went with it beside its text) and what a click on one of its items asks the host.
import * as z from 'zod/mini';

/** One item of "Sent with this message": a chip, the project instructions or a rule, with its size. */
export const SentViewSchema = z
  .array(
    z.object({
      kind: z.enum(['file', 'range', 'problems', 'terminal', 'instructions', 'rule']),
      name: z.string().check(z.maxLength(1100)),
      path: z.optional(z.string().check(z.maxLength(1000))),
      startLine: z.optional(z.number().check(z.int(), z.gt(0))),
      endLine: z.optional(z.number().check(z.int(), z.gt(0))),
      bytes: z.number().check(z.int(), z.gte(0)),
      pinned: z.optional(z.literal(true)),
    }),
  )
  .check(z.maxLength(320));
export type SentView = z.infer<typeof SentViewSchema>;

/** A click on an item of the record: the host opens the workspace file at its lines. */
export const OpenSentSchema = z.object({
  type: z.literal('openSent'),
  path: z.string().check(z.minLength(1), z.maxLength(1000)),
  startLine: z.optional(z.number().check(z.int(), z.gt(0))),
  endLine: z.optional(z.number().check(z.int(), z.gt(0))),
});

/** The pin of a chip: it is kept with the conversation and read again at every send. */
export const PinContextSchema = z.object({ type: z.literal('pinContext'), id: z.string().check(z.regex(/^ctx_[0-9]+$/)) });
