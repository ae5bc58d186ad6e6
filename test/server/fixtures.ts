// Fixed data of the reference server: API keys, users, models, subscription plans,
// and the types of the fault-injection interface. Importable without starting a server.
import { createHash } from 'node:crypto';

/** Demo user: regular 950 + daily 50 = 1000 credits; two grants, one expiring within 7 days. */
export const DEMO_KEY = 'sk-demo-0000000000000001';
/** Low user: regular 2, no daily credit: total 2. */
export const LOW_KEY = 'sk-low-0000000000000002';
/** Empty user: total 0, every chat gets 402. */
export const EMPTY_KEY = 'sk-empty-000000000000003';

/** Model used when a chat request omits `model`. */
export const DEFAULT_MODEL = 'swift-chat';

/** Deterministic RFC 4122-shaped (version 5 style) UUID derived from a name. */
export function stableUuid(name: string): string {
  const h = createHash('sha1').update('ai-chat-reference-server:' + name).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export interface ModelFixture {
  valueId: string;
  name: string;
  type: 'text' | 'image';
  costInCreditPerUse: number;
  isActive: boolean;
  supportsSearch: boolean;
  /** Absent for models without a published limit. */
  max_tokens?: number;
  createdAt: string;
  /** Usage counters at server start (sent as strings, grow with use). */
  initialUses: number;
}

export const MODELS: readonly ModelFixture[] = [
  { valueId: 'swift-chat', name: 'Swift Chat', type: 'text', costInCreditPerUse: 1, isActive: true, supportsSearch: false, max_tokens: 4096, createdAt: '2025-01-15T09:00:00.000Z', initialUses: 184_203 },
  { valueId: 'deep-think', name: 'Deep Think', type: 'text', costInCreditPerUse: 5, isActive: true, supportsSearch: true, max_tokens: 32768, createdAt: '2025-03-02T12:30:00.000Z', initialUses: 20_417 },
  { valueId: 'code-pro', name: 'Code Pro', type: 'text', costInCreditPerUse: 3, isActive: true, supportsSearch: false, createdAt: '2025-04-20T08:15:00.000Z', initialUses: 57_880 },
  { valueId: 'legacy-chat', name: 'Legacy Chat', type: 'text', costInCreditPerUse: 1, isActive: false, supportsSearch: false, max_tokens: 4096, createdAt: '2024-06-01T00:00:00.000Z', initialUses: 902_114 },
  { valueId: 'pixel-art', name: 'Pixel Art', type: 'image', costInCreditPerUse: 10, isActive: true, supportsSearch: false, createdAt: '2025-05-11T16:45:00.000Z', initialUses: 3_310 },
  // valueId deliberately fails the request pattern ^[a-z-]+$: listed, but unusable in POST /chat.
  { valueId: 'turbo-v2', name: 'Turbo V2', type: 'text', costInCreditPerUse: 2, isActive: true, supportsSearch: false, max_tokens: 8192, createdAt: '2025-07-07T07:07:00.000Z', initialUses: 4_821 },
];

export function findModel(valueId: string): ModelFixture | undefined {
  return MODELS.find((m) => m.valueId === valueId);
}

export interface SubscriptionFixture {
  id: string;
  name: string;
  features: string[];
  price: number;
}

export const SUBSCRIPTIONS: readonly SubscriptionFixture[] = [
  { id: 'free', name: 'Free', price: 0, features: ['50 daily credits', 'Swift Chat model', 'Community support'] },
  { id: 'pro', name: 'Pro', price: 19, features: ['2,000 credits per month', 'All text models', 'Web search with Deep Think', 'Priority support'] },
  { id: 'team', name: 'Team', price: 49, features: ['10,000 shared credits per month', 'All models including Pixel Art', 'Team billing', 'Usage reports'] },
];

/** A credit grant of a user at server start; times are relative to the start (reset). */
export interface CreditGrantFixture {
  amount: number;
  usedAmount: number;
  type: string;
  /** Days from now until expiry (negative: already expired). */
  expiresInDays: number;
  /** Extra days the expiry was extended by (extendedExpiresAt = expiresAt + this). */
  extendedByDays?: number;
  /** Days ago the grant was created. */
  createdDaysAgo: number;
}

export interface UserFixture {
  key: string;
  name: string;
  hasDailyCredit: boolean;
  dailyGranted: number;
  dailyRemaining: number;
  credits: CreditGrantFixture[];
}

export const USERS: readonly UserFixture[] = [
  {
    key: DEMO_KEY,
    name: 'demo',
    hasDailyCredit: true,
    dailyGranted: 50,
    dailyRemaining: 50,
    credits: [
      // 100 + (1000 - 150) = 950 regular credits.
      { amount: 100, usedAmount: 0, type: 'bonus', expiresInDays: 5, createdDaysAgo: 25 },
      { amount: 1000, usedAmount: 150, type: 'purchase', expiresInDays: 300, extendedByDays: 30, createdDaysAgo: 65 },
    ],
  },
  {
    key: LOW_KEY,
    name: 'low',
    hasDailyCredit: false,
    dailyGranted: 0,
    dailyRemaining: 0,
    credits: [{ amount: 10, usedAmount: 8, type: 'purchase', expiresInDays: 60, createdDaysAgo: 30 }],
  },
  {
    key: EMPTY_KEY,
    name: 'empty',
    hasDailyCredit: false,
    dailyGranted: 0,
    dailyRemaining: 0,
    credits: [{ amount: 20, usedAmount: 20, type: 'purchase', expiresInDays: 90, createdDaysAgo: 40 }],
  },
];

// ---------------------------------------------------------------------------
// Fault injection (POST /__control/fault, server.control.injectFault)

export type Framing = 'sse' | 'ndjson' | 'prefixed';

/** Paths a fault can target; '*' matches every service path. */
export type FaultPath = '/chat' | '/user/balance' | '/ai-model' | '/subscription' | '*';

export type FaultSpec =
  /** Waits `ms` before the response starts (nothing is charged until then). */
  | { kind: 'delay-headers'; ms: number }
  /** Streams with `ms` between chunks instead of the configured delay. */
  | { kind: 'slow-chunks'; ms: number }
  /** Destroys the socket after `afterChunks` content chunks (non-streaming: mid-body). */
  | { kind: 'drop-mid-stream'; afterChunks?: number }
  /** Answers with `status` instead of the real response (html: HTML body; retryAfter: Retry-After seconds; message: the error's text). */
  | { kind: 'status'; status: number; html?: boolean; retryAfter?: number; message?: string }
  /** Writes one unparsable frame after `afterChunks` chunks, then continues the stream. */
  | { kind: 'malformed-frame'; afterChunks?: number }
  /** The reply ends after `afterChunks` chunks (default: all) with `e` and `d` of this finishReason. */
  | { kind: 'finish'; finishReason: string; afterChunks?: number }
  /** A multi-step reply: `steps` steps (f, text, e isContinued:true ... e isContinued:false), then d. */
  | { kind: 'multi-step'; steps?: number }
  /** A `3` error part after `afterChunks` chunks; then `e`/`d` with finishReason error (or, close: the body just ends). */
  | { kind: 'error-part'; afterChunks?: number; message?: string; close?: boolean }
  /** The normal reply, then the connection stays open (no end of body) for `ms` (default: until the client leaves). */
  | { kind: 'hold-open'; ms?: number }
  /** Headers, then only keep-alive comments every `ms` (SSE `: keep-alive`; other framings: blank lines), never an event. */
  | { kind: 'keep-alive-only'; ms?: number }
  /** Uses another wire framing for the stream. */
  | { kind: 'framing'; framing: Framing }
  /** Non-streaming: JSON body cut in half, connection closed. Streaming: ends cleanly after half the chunks, without `d`. */
  | { kind: 'truncated-body' }
  /** Destroys the socket before any byte of the response. */
  | { kind: 'reset-before-headers' };

export type FaultKind = FaultSpec['kind'];

/** What you inject: a fault spec plus where and how often it applies. */
export type Fault = FaultSpec & {
  /** Service path the fault applies to; default '/chat'. */
  path?: FaultPath;
  /** Number of matching requests it applies to; default 1. */
  times?: number;
  /** Stream faults only: framing to use for that stream (combine a fault with a framing). */
  framing?: Framing;
};

export const FAULT_KINDS: readonly FaultKind[] = [
  'delay-headers',
  'slow-chunks',
  'drop-mid-stream',
  'status',
  'malformed-frame',
  'finish',
  'multi-step',
  'error-part',
  'hold-open',
  'keep-alive-only',
  'framing',
  'truncated-body',
  'reset-before-headers',
];

/** One line of the request log (GET /__control/requests). The API key itself is never stored. */
export interface RequestLogEntry {
  method: string;
  path: string;
  /** Parsed JSON body, or null (no body, or not JSON). */
  body: unknown;
  hasKey: boolean;
  /** Status sent; 0 while pending or when the socket was reset before any response. */
  status: number;
  /** Arrival time, ISO 8601. */
  at: string;
  /** True when the client closed the connection before the response was complete. */
  clientClosed?: boolean;
  /** Kind of the injected fault applied to this request, if any. */
  fault?: FaultKind;
}

export interface BalanceInput {
  key: string;
  /** Regular credits: replaces the grants with one 'purchase' grant of this amount (unless `credits` given). */
  regular?: number;
  /** Daily credits remaining today. */
  daily?: number;
  /** Defaults to daily > 0. */
  hasDailyCredit?: boolean;
  /** Full control of the grants (regular is then their sum). */
  credits?: Array<{ amount: number; usedAmount?: number; type?: string; expiresInDays: number; extendedByDays?: number }>;
}

export interface ServerConfig {
  chunkSize: number;
  chunkDelayMs: number;
  /** Framing of streams without a framing fault; default 'sse'. */
  framing: Framing;
  /**
   * A streamed reply's charge is booked this many ms after its response ended (as a service that
   * books charges behind the reply does); 0 or absent: booked when the reply starts.
   */
  bookingDelayMs?: number;
}
