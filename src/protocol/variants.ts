// The variants of a reply as the chat shows them (Retry with…, the pager "2 / 3"): where a reply
// stands among its variants, and what the panel asks of the host about them.
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
] as const;

/**
 * Another variant of a reply shown in its place (`from`: the id shown before), at the session's
 * version: only that reply changes on the page. Built with the protocol's message view (messages.ts).
 */
export function variantShownSchema<T extends z.ZodMiniType>(messageView: T) {
  return z.object({ type: z.literal('variantShown'), from: messageId, message: messageView, version: z.optional(z.number().check(z.int(), z.gte(0))) });
}
