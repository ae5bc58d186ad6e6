// The context of a message across host and webview: "Sent with this message" under a question
// (what went with it beside its text) and what a click on one of its items asks the host; the `#`
// menu's questions and answers, and where in the box a `#word` is being typed.
import * as z from 'zod/mini';

/** One item of "Sent with this message": a chip, the project instructions or a rule, with its size. */
export const SentViewSchema = z
  .array(
    z.object({
      kind: z.enum(['file', 'range', 'problems', 'terminal', 'changes', 'instructions', 'rule']),
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

/** Most of the box's text a `#` option is given (the question #codebase searches with). */
const MAX_QUESTION = 20_000;

/** The `#` menu: the `#word` typed (`seq` counts the box's questions, so a late answer is dropped). */
export const ContextSearchSchema = z.object({
  type: z.literal('contextSearch'),
  seq: z.number().check(z.int(), z.gte(0)),
  query: z.string().check(z.maxLength(200)),
});

/**
 * The `#` menu: the option chosen among those the host gave for `seq`, named as it was shown (the
 * host's second answer, with the symbols, may have moved it in the list).
 */
export const ContextChooseSchema = z.object({
  type: z.literal('contextChoose'),
  seq: z.number().check(z.int(), z.gte(0)),
  kind: z.enum(['action', 'file', 'folder', 'symbol']),
  label: z.string().check(z.maxLength(300)),
  detail: z.optional(z.string().check(z.maxLength(500))),
  /** The box's text once the `#word` is out of it (#codebase searches with it). */
  question: z.optional(z.string().check(z.maxLength(MAX_QUESTION))),
});

/** One option of the `#` menu: what can be attached, a file, a folder or a symbol. */
export const ContextOptionSchema = z.object({
  kind: z.enum(['action', 'file', 'folder', 'symbol']),
  icon: z.string().check(z.regex(/^[a-z-]{1,40}$/)),
  label: z.string().check(z.maxLength(300)),
  detail: z.optional(z.string().check(z.maxLength(500))),
});
export type ContextOption = z.infer<typeof ContextOptionSchema>;

/** The host's options for the `#word` of `seq`; `pending`: more (the symbols) come in a second answer. */
export const ContextOptionsSchema = z.object({
  type: z.literal('contextOptions'),
  seq: z.number().check(z.int(), z.gte(0)),
  options: z.array(ContextOptionSchema).check(z.maxLength(50)),
  pending: z.optional(z.boolean()),
});

/**
 * The `#word` being typed in `text` with the caret at `caret`: a `#` at the start or after white
 * space, then no white space up to the caret, and nothing but white space (or the end) after it.
 */
export function hashQuery(text: string, caret: number): { start: number; query: string } | undefined {
  let start = caret - 1;
  while (start >= 0 && !/\s/.test(text[start]) && text[start] !== '#') start--;
  if (start < 0 || text[start] !== '#') return undefined;
  if (start > 0 && !/\s/.test(text[start - 1])) return undefined;
  if (caret < text.length && !/\s/.test(text[caret])) return undefined;
  return { start, query: text.slice(start + 1, caret) };
}

/** `text` with the `#word` at `start` (up to `caret`) taken out. */
export function withoutHashQuery(text: string, start: number, caret: number): { text: string; caret: number } {
  const after = text.slice(caret);
  const before = text.slice(0, start);
  return { text: before + (before.endsWith(' ') && after.startsWith(' ') ? after.slice(1) : after), caret: start };
}
