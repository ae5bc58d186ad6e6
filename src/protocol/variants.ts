// The variants of a reply and the branches of a question as the chat shows them (Retry with…, Edit
// of an earlier question, the pagers "2 / 3"): where a reply or a question stands among the others
// of its place, the messages not shown (Find in chat finds text there too), and what the panel asks
// of the host about them.
import * as z from 'zod/mini';

const messageId = z.string().check(z.regex(/^msg_[0-9a-f]{3}$/));

/** Where a shown reply stands among its variants: "2 / 3" (only on a reply that has others). */
export const VariantPlaceSchema = z.object({ index: z.number().check(z.int(), z.gte(1), z.lte(100_000)), count: z.number().check(z.int(), z.gte(2), z.lte(100_000)) });
export type VariantPlace = z.infer<typeof VariantPlaceSchema>;

/** What the panel asks about a reply's variants (members of the webview's message union). */
export const VariantRequestSchemas = [
  /** Retry with…: the host offers the usable models with their price, then asks the one picked for a new variant of this reply. */
  z.object({ type: z.literal('retryWith'), messageId }),
  /** The pager: the variant before (-1) or after (1) the one shown of this reply. */
  z.object({ type: z.literal('showVariant'), messageId, step: z.union([z.literal(-1), z.literal(1)]) }),
  /** Compare: the reply shown beside another of its variants, as a text diff. */
  z.object({ type: z.literal('compareVariants'), messageId }),
  /** The pager of a question with branches: the question before (-1) or after (1) the one shown, with its branch. */
  z.object({ type: z.literal('showBranch'), messageId, step: z.union([z.literal(-1), z.literal(1)]) }),
  /** Find in chat chose a match in a message not shown: its branch and its variant are shown. */
  z.object({ type: z.literal('showHiddenMessage'), messageId }),
] as const;

/** A message not shown (a reply's other variant, a turn of another branch), for Find in chat. */
export const HiddenMessageSchema = z.object({
  id: messageId,
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  /** `variant`: another variant of a reply shown; `branch`: a turn of another branch. */
  kind: z.enum(['variant', 'branch']),
});
export type HiddenMessage = z.infer<typeof HiddenMessageSchema>;

/**
 * Another variant of a reply shown in its place (`from`: the id shown before), at the session's
 * version: only that reply changes on the page. Built with the protocol's message view (messages.ts).
 */
export function variantShownSchema<T extends z.ZodMiniType>(messageView: T) {
  return z.object({ type: z.literal('variantShown'), from: messageId, message: messageView, version: z.optional(z.number().check(z.int(), z.gte(0))) });
}
