/**
 * zod schemas of every resource of the chat service interface (version 1.0.0), one per resource.
 * TypeScript types are inferred from them, so the runtime checks and the static types cannot drift.
 *
 * Policy:
 * - requests are checked against every rule the interface states (patterns, ranges, enums, types);
 * - responses are strict for the fields the interface marks as required or that a client relies on
 *   (reply text, credits, balance totals, model ids and costs), lenient where the interface is silent;
 * - unknown extra fields of responses pass through untouched (loose objects), so a newer service does
 *   not break us; unknown extra fields of a request are sent as given.
 */
import * as z from 'zod/mini';
import { useZodEnglish } from './zodEnglish';

useZodEnglish();

export const MESSAGE_ID_PATTERN = /^msg_[0-9a-f]{3}$/;
export const MODEL_ID_PATTERN = /^[a-z-]+$/;
export const MESSAGE_ROLES = ['user', 'system', 'assistant'] as const;
export const TEMPERATURE_MIN = 0;
export const TEMPERATURE_MAX = 2;

/** Error codes the interface names, plus INSUFFICIENT_CREDITS which the service also sends (402). */
export const KNOWN_ERROR_CODES = [
  'AUTH_FAILED',
  'INVALID_INPUT',
  'RATE_LIMITED',
  'SERVER_ERROR',
  'INSUFFICIENT_CREDITS',
] as const;
export type KnownErrorCode = (typeof KNOWN_ERROR_CODES)[number];

// ---------------------------------------------------------------------------------------------
// Requests

export const MessageRoleSchema = z.enum(MESSAGE_ROLES, {
  error: `must be one of ${MESSAGE_ROLES.join(', ')}`,
});

// Request schemas are plain objects (no index signature in the inferred types, so callers' own
// interfaces are assignable); unknown extra fields are not checked and are sent as given.
export const MessageSchema = z.object({
  id: z.optional(
    z.string({ error: 'must be a string' }).check(z.regex(MESSAGE_ID_PATTERN, { error: `must match ${MESSAGE_ID_PATTERN.source}` })),
  ),
  role: MessageRoleSchema,
  content: z.string({ error: 'must be a string' }),
});
export type Message = z.infer<typeof MessageSchema>;

export const ChatRequestSchema = z
  .object({
    messages: z
      .array(MessageSchema, { error: 'must be an array of messages' })
      .check(z.minLength(1, { error: 'must contain at least 1 message' })),
    model: z.optional(
      z.string({ error: 'must be a string' }).check(z.regex(MODEL_ID_PATTERN, { error: `must match ${MODEL_ID_PATTERN.source}` })),
    ),
    stream: z.optional(z.boolean({ error: 'must be a boolean' })),
    search: z.optional(z.boolean({ error: 'must be a boolean' })),
    temperature: z.optional(
      z
        .number({ error: 'must be a finite number' })
        .check(
          z.gte(TEMPERATURE_MIN, { error: `must be >= ${TEMPERATURE_MIN}` }),
          z.lte(TEMPERATURE_MAX, { error: `must be <= ${TEMPERATURE_MAX}` }),
        ),
    ),
  })
  .check(z.superRefine((req, ctx) => {
    // "unique identifier of the message": two messages with the same id are rejected by the service.
    const seen = new Map<string, number>();
    req.messages.forEach((m, i) => {
      if (m.id === undefined) return;
      const first = seen.get(m.id);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['messages', i, 'id'],
          message: `must be unique (same as messages[${first}].id)`,
        });
      } else {
        seen.set(m.id, i);
      }
    });
  }));
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

/**
 * A number from the service, as JSON.parse gives it. ±Infinity (what `1e400` parses to) is taken as
 * the largest finite number of its sign: the client's range checks (sanitize.ts) then refuse or clamp
 * it, instead of one such field making a whole paid reply or list unreadable.
 */
export const serviceNumber = z.pipe(
  z.transform((v: unknown) => (v === Infinity ? Number.MAX_VALUE : v === -Infinity ? -Number.MAX_VALUE : v)),
  z.number(),
);

// ---------------------------------------------------------------------------------------------
// Chat responses

/** Non-streaming reply of POST /chat. */
export const ChatResponseSchema = z.looseObject({
  id: z.string(),
  content: z.string(),
  role: z.literal('assistant'),
  createdAt: z.string(),
  creditsUsed: z.number(),
  creditsRemaining: z.number(),
  model: z.optional(z.string()),
});
export type ChatResponse = z.infer<typeof ChatResponseSchema>;

/**
 * What the client accepts as a non-streaming reply after a 200: the reply was paid for, so only
 * `content` is required; a missing field is named in CheckedChatResponse.problems.
 */
export const ChatReplySchema = z.looseObject({
  id: z.optional(z.string()),
  content: z.string(),
  role: z.optional(z.string()),
  createdAt: z.optional(z.string()),
  creditsUsed: z.optional(serviceNumber),
  creditsRemaining: z.optional(serviceNumber),
  model: z.optional(z.string()),
});

export type ChatReply = z.infer<typeof ChatReplySchema>;

/** A non-streaming reply as the client returns it: values checked, problems named. */
export type CheckedChatResponse = z.infer<typeof ChatReplySchema> & {
  /** What was missing or out of range (the reply is kept). */
  problems?: string[];
};

/**
 * Token counts of a step or of the whole reply. Both fields are optional (a missing optional field
 * never breaks a reply); out-of-range values (negative, fractional) pass here and are made sensible
 * by checkUsage (sanitize.ts), which logs them once.
 */
export const UsageSchema = z.looseObject({
  promptTokens: z.optional(serviceNumber),
  completionTokens: z.optional(serviceNumber),
});
export type Usage = z.infer<typeof UsageSchema>;

/**
 * Event kinds of the stream. They are those of the Vercel AI SDK data stream protocol (v4), which the
 * service's stack uses; where the interface text differs (it calls `e` "error"), the service wins.
 */
/** `f`: a step starts. A missing or unusable messageId is tolerated (the reply is paid for). */
export const StartEventSchema = z.looseObject({
  event: z.literal('f'),
  messageId: z.catch(z.optional(z.string()), undefined),
});
/** `0`: a chunk of reply text. */
export const ChunkEventSchema = z.looseObject({
  event: z.literal('0'),
  data: z.string(),
});
/**
 * `e`: a step finished (not an error by itself). finishReason: stop, length, content-filter,
 * tool-calls, error, other, unknown; with isContinued true another step follows.
 */
export const StepFinishEventSchema = z.looseObject({
  event: z.literal('e'),
  finishReason: z.optional(z.string()),
  usage: z.optional(UsageSchema),
  isContinued: z.optional(z.boolean()),
});
/** `d`: the message is finished; the reply is complete here. */
export const DoneEventSchema = z.looseObject({
  event: z.literal('d'),
  finishReason: z.optional(z.string()),
  usage: z.optional(UsageSchema),
});
/**
 * `3`: an error part. Line-prefixed framing: `3:"message"`; JSON-object framings: `{"event":"3", …}`
 * with the text in `error` (or `message` / `data`), normalised to `error` by the decoder.
 */
export const ErrorPartEventSchema = z.looseObject({
  event: z.literal('3'),
  error: z.string(),
});

/** `g`: reasoning text (a reasoning model's thinking): never part of the reply's text. */
export const ReasoningEventSchema = z.looseObject({
  event: z.literal('g'),
  data: z.string(),
});
/** `i`: reasoning the provider redacted (opaque data). */
export const RedactedReasoningEventSchema = z.looseObject({
  event: z.literal('i'),
  data: z.string(),
});
/** `j`: the signature of the reasoning before it. */
export const ReasoningSignatureEventSchema = z.looseObject({
  event: z.literal('j'),
  signature: z.string(),
});
/** `h`: a source the reply cites (what a search found). */
export const SourceEventSchema = z.looseObject({
  event: z.literal('h'),
  sourceType: z.optional(z.string()),
  id: z.optional(z.string()),
  url: z.string(),
  title: z.optional(z.string()),
});
/** `9`: a tool call (a search runs as one, in a step of its own). */
export const ToolCallEventSchema = z.looseObject({
  event: z.literal('9'),
  toolCallId: z.string(),
  toolName: z.string(),
  args: z.unknown(),
});
/** `a`: the result of a tool call. */
export const ToolResultEventSchema = z.looseObject({
  event: z.literal('a'),
  toolCallId: z.string(),
  result: z.unknown(),
});
/** `b`: a tool call whose arguments stream (deltas follow as `c`). */
export const ToolCallStartEventSchema = z.looseObject({
  event: z.literal('b'),
  toolCallId: z.string(),
  toolName: z.string(),
});
/** `c`: a piece of a streaming tool call's arguments. */
export const ToolCallDeltaEventSchema = z.looseObject({
  event: z.literal('c'),
  toolCallId: z.string(),
  argsTextDelta: z.string(),
});
/** `2`: data for the client (kept out of the reply). */
export const DataEventSchema = z.looseObject({
  event: z.literal('2'),
  data: z.array(z.unknown()),
});
/** `8`: annotations of the message (kept out of the reply). */
export const AnnotationsEventSchema = z.looseObject({
  event: z.literal('8'),
  data: z.array(z.unknown()),
});
/** `k`: a file the model produced (base64 data and its media type). */
export const FileEventSchema = z.looseObject({
  event: z.literal('k'),
  data: z.string(),
  mimeType: z.string(),
});

export const StreamEventSchema = z.discriminatedUnion('event', [
  StartEventSchema,
  ChunkEventSchema,
  StepFinishEventSchema,
  DoneEventSchema,
  ErrorPartEventSchema,
  ReasoningEventSchema,
  RedactedReasoningEventSchema,
  ReasoningSignatureEventSchema,
  SourceEventSchema,
  ToolCallEventSchema,
  ToolResultEventSchema,
  ToolCallStartEventSchema,
  ToolCallDeltaEventSchema,
  DataEventSchema,
  AnnotationsEventSchema,
  FileEventSchema,
]);
export type StartEvent = z.infer<typeof StartEventSchema>;
export type ChunkEvent = z.infer<typeof ChunkEventSchema>;
export type StepFinishEvent = z.infer<typeof StepFinishEventSchema>;
export type DoneEvent = z.infer<typeof DoneEventSchema>;
export type ErrorPartEvent = z.infer<typeof ErrorPartEventSchema>;
export type StreamEvent = z.infer<typeof StreamEventSchema>;
export type SourceEvent = z.infer<typeof SourceEventSchema>;
export const STREAM_EVENT_KINDS = ['f', '0', 'e', 'd', '3', 'g', 'i', 'j', 'h', '9', 'a', 'b', 'c', '2', '8', 'k'] as const;
export type StreamEventKind = (typeof STREAM_EVENT_KINDS)[number];

/** Schema of one event kind (for validating an event whose kind is already known). */
export const STREAM_EVENT_SCHEMAS = {
  f: StartEventSchema,
  '0': ChunkEventSchema,
  e: StepFinishEventSchema,
  d: DoneEventSchema,
  '3': ErrorPartEventSchema,
  g: ReasoningEventSchema,
  i: RedactedReasoningEventSchema,
  j: ReasoningSignatureEventSchema,
  h: SourceEventSchema,
  '9': ToolCallEventSchema,
  a: ToolResultEventSchema,
  b: ToolCallStartEventSchema,
  c: ToolCallDeltaEventSchema,
  '2': DataEventSchema,
  '8': AnnotationsEventSchema,
  k: FileEventSchema,
} as const;

// ---------------------------------------------------------------------------------------------
// Balance (which fields are required is not stated: required = what a client shows)

export const CreditSchema = z.looseObject({
  id: z.optional(z.string()),
  userId: z.optional(z.string()),
  amount: serviceNumber,
  expiresAt: z.nullish(z.string()),
  createdAt: z.nullish(z.string()),
  type: z.nullish(z.string()),
  extendedExpiresAt: z.nullish(z.string()),
  usedAmount: z.nullish(serviceNumber),
});
export type Credit = z.infer<typeof CreditSchema>;

export const DailyCreditSchema = z.looseObject({
  id: z.optional(z.string()),
  userId: z.optional(z.string()),
  grantedAmount: z.optional(serviceNumber),
  amount: z.optional(serviceNumber),
  grantedDate: z.optional(z.string()),
  used: z.optional(z.boolean()),
});
export type DailyCredit = z.infer<typeof DailyCreditSchema>;

export const BalanceSchema = z.looseObject({
  regularBalance: serviceNumber,
  dailyBalance: serviceNumber,
  totalBalance: serviceNumber,
  hasDailyCredit: z.optional(z.boolean()),
  credits: z.optional(z.array(CreditSchema)),
  dailyCredit: z.nullish(DailyCreditSchema),
});
export type Balance = z.infer<typeof BalanceSchema>;

export const BalanceResponseSchema = z.looseObject({
  balance: BalanceSchema,
  success: z.optional(z.boolean()),
  timestamp: z.optional(z.string()),
});
export type BalanceResponse = z.infer<typeof BalanceResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Models and subscriptions

export const ModelSchema = z.looseObject({
  id: z.optional(z.string()),
  valueId: z.string(),
  name: z.string(),
  type: z.string(),
  costInCreditPerUse: serviceNumber,
  isActive: z.boolean(),
  createdAt: z.optional(z.string()),
  totalUses: z.optional(z.string()),
  totalCreditsSpent: z.optional(z.string()),
  max_tokens: z.nullish(serviceNumber),
});
export type Model = z.infer<typeof ModelSchema> & {
  /**
   * Set by the client (never taken from the service): the service's costInCreditPerUse is not a
   * usable number of credits (negative, not finite, absurdly large). costInCreditPerUse is then 0,
   * and the model cannot be used for chat.
   */
  priceUnusable?: boolean;
};
export const ModelListSchema = z.array(ModelSchema);

export const SubscriptionSchema = z.looseObject({
  id: z.optional(z.string()),
  name: z.string(),
  features: z.optional(z.array(z.string())),
  price: serviceNumber,
});
export type Subscription = z.infer<typeof SubscriptionSchema>;
export const SubscriptionListSchema = z.array(SubscriptionSchema);

// ---------------------------------------------------------------------------------------------
// Errors

export const ErrorBodySchema = z.looseObject({
  error: z.string(),
  /** One of KNOWN_ERROR_CODES in practice; any string is accepted so a new code does not break parsing. */
  code: z.string(),
  success: z.optional(z.boolean()),
  message: z.optional(z.string()),
  traceId: z.optional(z.string()),
  details: z.optional(z.string()),
  /** Sent with INSUFFICIENT_CREDITS. */
  creditsRemaining: z.optional(serviceNumber),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** True when `id` is usable as the `model` of a ChatRequest. */
export function isValidModelId(id: string): boolean {
  return MODEL_ID_PATTERN.test(id);
}
