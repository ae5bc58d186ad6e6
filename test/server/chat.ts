// POST /chat after authentication: validation, billing, and the reply as one JSON
// object or as a stream of events in the configured framing (with stream faults).
import { randomUUID } from 'node:crypto';
import type { FaultSpec, Framing, ServerConfig } from './fixtures';
import { framingWriter, type StreamEvent, type Usage } from './framing';
import { estimateTokens, generateReply, splitChunks } from './reply';
import { sendError, sendJson, type RequestContext } from './respond';
import type { BalanceStore, UserState } from './state';
import { validateChatBody } from './validation';

export const MAX_BODY_BYTES = 5 * 1024 * 1024;

export interface ChatInput {
  ctx: RequestContext;
  user: UserState;
  store: BalanceStore;
  config: ServerConfig;
  /** Raw body; tooLarge when it exceeded MAX_BODY_BYTES. */
  raw: Buffer;
  tooLarge: boolean;
  fault?: FaultSpec & { framing?: Framing };
}

function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const type = header.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

export async function handleChat({ ctx, user, store, config, raw, tooLarge, fault }: ChatInput): Promise<void> {
  if (tooLarge) {
    return sendError(ctx, 413, 'INVALID_INPUT', `request body must be at most ${MAX_BODY_BYTES} bytes`, {
      details: 'field=body rule=maxBytes',
    });
  }
  const contentType = ctx.req.headers['content-type'];
  if (!isJsonContentType(contentType)) {
    return sendError(ctx, 400, 'INVALID_INPUT', `content-type must be application/json (got ${contentType ? JSON.stringify(contentType) : 'none'})`, {
      details: 'field=content-type rule=json',
    });
  }
  if (raw.length === 0) {
    return sendError(ctx, 400, 'INVALID_INPUT', 'request body is required', { details: 'field=body rule=required' });
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch (err) {
    return sendError(ctx, 400, 'INVALID_INPUT', `request body is not valid JSON: ${(err as Error).message}`, {
      details: 'field=body rule=json',
    });
  }
  const v = validateChatBody(body);
  if (!v.ok) return sendError(ctx, 400, 'INVALID_INPUT', v.message, { details: `field=${v.field} rule=${v.rule}` });

  const { request, model } = v;
  const cost = model.costInCreditPerUse;
  const available = store.total(user);
  if (available < cost) {
    return sendError(ctx, 402, 'INSUFFICIENT_CREDITS', `insufficient credits: model "${model.valueId}" costs ${cost}, ${available} remaining`, {
      fields: { creditsRemaining: available },
    });
  }

  const content = generateReply(request.messages);
  const promptChars = request.messages.reduce((n, m) => n + m.content.length, 0);
  const usage = { promptTokens: estimateTokens(promptChars), completionTokens: estimateTokens(content.length) };

  if (!request.stream) {
    const charge = store.charge(user, cost, model);
    const reply = {
      id: randomUUID(),
      content,
      role: 'assistant',
      createdAt: new Date().toISOString(),
      creditsUsed: charge.charged,
      creditsRemaining: charge.remaining,
      model: model.valueId,
    };
    return sendJson(ctx, 200, reply, fault);
  }

  const framing: Framing = fault?.kind === 'framing' ? fault.framing : (fault?.framing ?? config.framing);
  const writer = framingWriter(framing);
  const chunks = splitChunks(content, config.chunkSize);
  const delay = fault?.kind === 'slow-chunks' ? fault.ms : config.chunkDelayMs;

  // The reply starts: charge (or book the charge a moment after the reply), flush the headers at once, then the `f` event.
  const lag = config.bookingDelayMs ?? 0;
  if (lag > 0) {
    const book = () => setTimeout(() => store.charge(user, cost, model), lag).unref();
    ctx.res.once('close', book);
  } else {
    store.charge(user, cost, model);
  }
  ctx.writeHead(200, {
    'content-type': writer.contentType,
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
    ...writer.headers,
  });
  ctx.res.flushHeaders();
  const send = (ev: StreamEvent) => ctx.write(writer.event(ev));

  if (fault?.kind === 'keep-alive-only') {
    // Only keep-alives, until the client leaves (or the server closes).
    while (await ctx.sleep(fault.ms ?? 1000)) if (!(await ctx.write(writer.keepAlive()))) return;
    return;
  }

  // Steps of the reply: one by default; `multi-step` splits the chunks into several (isContinued).
  const stepCount = fault?.kind === 'multi-step' ? Math.min(fault.steps ?? 2, Math.max(1, chunks.length)) : 1;
  const perStep = Math.ceil(chunks.length / stepCount);
  const stepStarts = new Set(Array.from({ length: stepCount }, (_, k) => k * perStep));
  const stepUsage = (from: number, to: number, first: boolean): Usage => ({
    promptTokens: first ? usage.promptTokens : 0,
    completionTokens: estimateTokens(chunks.slice(from, to).join('').length),
  });

  const faultAt =
    fault && (fault.kind === 'drop-mid-stream' || fault.kind === 'malformed-frame' || fault.kind === 'error-part' || fault.kind === 'finish')
      ? Math.min(fault.afterChunks ?? (fault.kind === 'finish' ? chunks.length : 0), chunks.length)
      : fault?.kind === 'truncated-body'
        ? Math.floor(chunks.length / 2)
        : -1;

  /** Ends the reply: the step's `e`, then `d` with the reply's usage (every step summed), then [DONE]. */
  const finish = async (finishReason: string, stepFrom: number, upTo: number): Promise<void> => {
    const whole = { promptTokens: usage.promptTokens, completionTokens: estimateTokens(chunks.slice(0, upTo).join('').length) };
    const step = stepUsage(stepFrom, upTo, stepFrom === 0);
    if (!(await send({ event: 'e', finishReason, usage: step, isContinued: false }))) return;
    if (!(await send({ event: 'd', finishReason, usage: whole }))) return;
    if (fault?.kind === 'hold-open') {
      // The reply is complete, but the body does not end: a decoder must finish at `d` / [DONE].
      if (!(await ctx.write(writer.done()))) return;
      await ctx.sleep(fault.ms ?? 600_000);
      if (!ctx.closed) ctx.res.end();
      return;
    }
    ctx.res.end(writer.done());
  };

  if (!(await send({ event: 'f', messageId: randomUUID() }))) return;
  // What the service's stack sends before the text: a reasoning model's thinking (`g`), and for
  // a request with search, a search step (tool call `9`, result `a`, `e` with isContinued) and
  // then, in the answering step, the sources the reply cites (`h`).
  if (!fault || fault.kind === 'slow-chunks' || fault.kind === 'framing') {
    const question = request.messages.at(-1)?.content ?? '';
    if (model.valueId === 'deep-think') {
      for (const part of reasoningParts(question)) {
        if (delay > 0 && !(await ctx.sleep(delay))) return;
        if (!(await send({ event: 'g', data: part }))) return;
      }
    }
    if (request.search) {
      const toolCallId = `call_${randomUUID().slice(0, 8)}`;
      const query = question.slice(0, 80);
      if (!(await send({ event: '9', toolCallId, toolName: 'web_search', args: { query } }))) return;
      if (delay > 0 && !(await ctx.sleep(delay * 4))) return;
      const found = searchSources(question);
      if (!(await send({ event: 'a', toolCallId, result: { results: found.map(({ url, title }) => ({ url, title })) } }))) return;
      if (!(await send({ event: 'e', finishReason: 'tool-calls', usage: { promptTokens: usage.promptTokens, completionTokens: 0 }, isContinued: true }))) return;
      if (!(await send({ event: 'f', messageId: randomUUID() }))) return;
      for (const src of found) if (!(await send({ event: 'h', sourceType: 'url', ...src }))) return;
    }
  }
  let stepFrom = 0;
  for (let i = 0; i <= chunks.length; i++) {
    if (i === faultAt && fault) {
      switch (fault.kind) {
        case 'drop-mid-stream':
          await ctx.flushed();
          ctx.destroySocket();
          return;
        case 'truncated-body':
          // A clean end of the body without the `d` event (and without [DONE]).
          ctx.res.end();
          return;
        case 'malformed-frame':
          if (!(await ctx.write(writer.malformed()))) return;
          break;
        case 'error-part':
          if (!(await send({ event: '3', error: fault.message ?? 'An error occurred while generating the reply.' }))) return;
          if (fault.close) {
            ctx.res.end();
            return;
          }
          return finish('error', stepFrom, i);
        case 'finish':
          return finish(fault.finishReason, stepFrom, i);
        default:
          break;
      }
    }
    if (i === chunks.length) break;
    if (i > 0 && stepStarts.has(i)) {
      if (!(await send({ event: 'e', finishReason: 'tool-calls', usage: stepUsage(stepFrom, i, stepFrom === 0), isContinued: true }))) return;
      stepFrom = i;
      if (!(await send({ event: 'f', messageId: randomUUID() }))) return;
    }
    if (delay > 0 && !(await ctx.sleep(delay))) return;
    if (!(await send({ event: '0', data: chunks[i] }))) return;
    // With no delay, still yield to the event loop now and then so other requests progress.
    if (delay === 0 && i % 256 === 255 && !(await ctx.sleep(0))) return;
  }
  await finish('stop', stepFrom, chunks.length);
}

/** The thinking a reasoning model streams before its answer (deterministic, from the question). */
export function reasoningParts(question: string): string[] {
  const topic = question.replace(/\s+/g, ' ').trim().slice(0, 60) || 'the question';
  return [`The user asks about "${topic}". `, 'First, what is being asked; ', 'then the parts of a good answer, ', 'and an example.'];
}

/** The sources a search finds for a question (deterministic; the second one has no title). */
export function searchSources(question: string): Array<{ id: string; url: string; title?: string }> {
  const slug = encodeURIComponent(question.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'question');
  return [
    { id: 'src-1', url: `https://docs.example.com/search/${slug}`, title: `Reference: ${question.slice(0, 40)}` },
    { id: 'src-2', url: `https://blog.example.org/${slug}` },
  ];
}
