// Fault queue: faults are queued per path and consumed in order, each by the next
// `times` requests to its path (whatever their outcome).
import { z } from 'zod';
import type { BalanceInput, Fault, FaultPath, FaultSpec, ServerConfig } from './fixtures';

const framingSchema = z.enum(['sse', 'ndjson', 'prefixed']);
const ms = z.number().int().min(0).max(600_000);
const count = z.number().int().min(0);

const common = {
  path: z.enum(['/chat', '/user/balance', '/ai-model', '/subscription', '*']).optional(),
  times: z.number().int().min(1).optional(),
  framing: framingSchema.optional(),
};

export const faultSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('delay-headers'), ms, ...common }),
  z.object({ kind: z.literal('slow-chunks'), ms, ...common }),
  z.object({ kind: z.literal('drop-mid-stream'), afterChunks: count.optional(), ...common }),
  z.object({
    kind: z.literal('status'),
    status: z.number().int().min(400).max(599),
    html: z.boolean().optional(),
    retryAfter: z.number().min(0).optional(),
    message: z.string().max(1000).optional(),
    ...common,
  }),
  z.object({ kind: z.literal('malformed-frame'), afterChunks: count.optional(), ...common }),
  z.object({ kind: z.literal('finish'), finishReason: z.string().min(1).max(100), afterChunks: count.optional(), ...common }),
  z.object({ kind: z.literal('multi-step'), steps: z.number().int().min(1).max(20).optional(), ...common }),
  z.object({
    kind: z.literal('error-part'),
    afterChunks: count.optional(),
    message: z.string().max(1000).optional(),
    close: z.boolean().optional(),
    ...common,
  }),
  z.object({ kind: z.literal('hold-open'), ms: ms.optional(), ...common }),
  z.object({ kind: z.literal('keep-alive-only'), ms: z.number().int().min(1).max(600_000).optional(), ...common }),
  // `framing` is both the kind's own field and the common one; the kind's is required.
  z.object({ ...common, kind: z.literal('framing'), framing: framingSchema }),
  z.object({ kind: z.literal('truncated-body'), ...common }),
  z.object({ kind: z.literal('reset-before-headers'), ...common }),
]);

// Compile-time check that the schema and the hand-written Fault type agree both ways.
type Parsed = z.infer<typeof faultSchema>;
const _schemaMatchesType: [Parsed] extends [Fault] ? ([Fault] extends [Parsed] ? true : false) : false = true;
void _schemaMatchesType;

export const balanceSchema = z.object({
  key: z.string().min(1),
  regular: z.number().min(0).optional(),
  daily: z.number().min(0).optional(),
  hasDailyCredit: z.boolean().optional(),
  credits: z
    .array(
      z.object({
        amount: z.number().min(0),
        usedAmount: z.number().min(0).optional(),
        type: z.string().optional(),
        expiresInDays: z.number(),
        extendedByDays: z.number().min(0).optional(),
      }),
    )
    .optional(),
}) satisfies z.ZodType<BalanceInput>;

export const configSchema = z.object({
  chunkSize: z.number().int().min(1).max(1_000_000).optional(),
  chunkDelayMs: ms.optional(),
  framing: framingSchema.optional(),
  bookingDelayMs: ms.optional(),
}) satisfies z.ZodType<Partial<ServerConfig>>;

/** Human-readable summary of a zod error: "path: message; ...". */
export function describeZodError(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.length ? i.path.join('.') : '(body)'}: ${i.message}`).join('; ');
}

interface Queued {
  fault: Fault;
  remaining: number;
}

export class FaultQueue {
  private queue: Queued[] = [];

  /** Validates and queues a fault; throws a readable Error when invalid. */
  add(input: unknown): Fault {
    const parsed = faultSchema.safeParse(input);
    if (!parsed.success) throw new Error('invalid fault: ' + describeZodError(parsed.error));
    const fault = parsed.data;
    this.queue.push({ fault, remaining: fault.times ?? 1 });
    return fault;
  }

  /** Takes the first fault matching `path` (one use of it), or undefined. */
  take(path: string): (FaultSpec & { framing?: Fault['framing'] }) | undefined {
    const i = this.queue.findIndex((q) => matches(q.fault.path ?? '/chat', path));
    if (i < 0) return undefined;
    const q = this.queue[i];
    q.remaining -= 1;
    if (q.remaining <= 0) this.queue.splice(i, 1);
    return q.fault;
  }

  pending(): Fault[] {
    return this.queue.map((q) => ({ ...q.fault, times: q.remaining }));
  }

  clear(): void {
    this.queue = [];
  }
}

function matches(target: FaultPath, path: string): boolean {
  return target === '*' || target === path;
}
