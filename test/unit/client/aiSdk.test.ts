// The data stream protocol checked against the Vercel AI SDK itself (the `ai` package, v4 line):
// - the reference server's streams, in the line-prefixed framing the service sends, parse line by
//   line with the SDK's own `parseDataStreamPart`, and `processDataStream` sees the same reply;
// - the client reads a stream written by the SDK's own `streamText(...).toDataStreamResponse()`
//   (a mock model: reasoning, sources, files, tool calls and results, data and annotations).
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  createDataStreamResponse,
  jsonSchema,
  parseDataStreamPart,
  processDataStream,
  simulateReadableStream,
  streamText,
  tool,
  type LanguageModelV1StreamPart,
} from 'ai';
import { MockLanguageModelV1 } from 'ai/test';
import { ChatServiceClient, collectStream, type StreamEvent } from '../../../src/client';
import { ReplyAssembler } from '../../../src/client/reply';
import { DEMO_KEY } from '../../server/fixtures';
import { reasoningParts, searchSources } from '../../server/chat';
import { generateReply } from '../../server/reply';
import { startReferenceServer, type ReferenceServer } from '../../server/server';

function bodyStream(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(c) {
      // Odd-sized pieces, so a line is often cut between two reads.
      for (let i = 0; i < bytes.length; i += 97) c.enqueue(bytes.slice(i, i + 97));
      c.close();
    },
  });
}

describe('data stream protocol: the reference server read by the AI SDK (v4)', function () {
  let srv: ReferenceServer;
  before(async () => {
    srv = await startReferenceServer({ port: 0, quiet: true, chunkDelayMs: 0 });
  });
  beforeEach(() => {
    srv.control.reset();
    srv.control.configure({ framing: 'prefixed' });
  });
  after(() => srv.close());

  async function streamBody(model: string, question: string, search: boolean): Promise<{ headers: Headers; text: string }> {
    const res = await fetch(`${srv.url}/chat`, {
      method: 'POST',
      headers: { 'x-api-key': DEMO_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: question }], model, stream: true, search }),
    });
    assert.equal(res.status, 200);
    return { headers: res.headers, text: await res.text() };
  }

  const cases = [
    { model: 'swift-chat', search: false, parts: ['f', '0', 'e', 'd'] },
    { model: 'deep-think', search: false, parts: ['f', 'g', '0', 'e', 'd'] },
    { model: 'code-pro', search: false, parts: ['f', '0', 'e', 'd'] },
    { model: 'deep-think', search: true, parts: ['f', 'g', '9', 'a', 'e', 'f', 'h', '0', 'e', 'd'] },
  ];
  for (const c of cases) {
    it(`${c.model}${c.search ? ' with search' : ''}: every line parses with parseDataStreamPart, in the order ${c.parts.join(' ')}`, async () => {
      const question = `How do ropes work? len:900`;
      const { headers, text } = await streamBody(c.model, question, c.search);
      assert.equal(headers.get('x-vercel-ai-data-stream'), 'v1');
      assert.match(headers.get('content-type') ?? '', /^text\/plain/);
      assert.ok(text.endsWith('\n'));
      const lines = text.slice(0, -1).split('\n');
      const parsed = lines.map((line) => parseDataStreamPart(line));
      // Consecutive parts of one kind collapse, so the order reads as the protocol's shape.
      const order = parsed.map((p) => line(p.type)).filter((code, i, all) => i === 0 || code !== all[i - 1]);
      assert.deepEqual(order, c.parts);
      const textParts = parsed.filter((p) => p.type === 'text').map((p) => p.value);
      assert.equal(textParts.join(''), generateReply([{ role: 'user', content: question }]));
      const finishes = parsed.filter((p) => p.type === 'finish_step');
      assert.equal(finishes.at(-1)?.value && (finishes.at(-1)!.value as { finishReason: string }).finishReason, 'stop');
    });
  }

  it('processDataStream reads deep-think with search as the SDK would: reasoning, tool call and result, sources, text, step and message finish', async () => {
    const question = 'Where do rivers start? len:400';
    const { text } = await streamBody('deep-think', question, true);
    const seen: string[] = [];
    let reasoning = '';
    let answer = '';
    const sources: string[] = [];
    let toolName = '';
    let finishReason = '';
    await processDataStream({
      stream: bodyStream(text),
      onReasoningPart: (v) => {
        reasoning += v;
        seen.push('reasoning');
      },
      onToolCallPart: (v) => {
        toolName = v.toolName;
        seen.push('tool-call');
      },
      onToolResultPart: () => {
        seen.push('tool-result');
      },
      onSourcePart: (v) => {
        sources.push(v.url);
        seen.push('source');
      },
      onTextPart: (v) => {
        answer += v;
        seen.push('text');
      },
      onFinishStepPart: () => {
        seen.push('finish-step');
      },
      onFinishMessagePart: (v) => {
        finishReason = v.finishReason;
        seen.push('finish-message');
      },
    });
    assert.equal(reasoning, reasoningParts(question).join(''));
    assert.equal(toolName, 'web_search');
    assert.deepEqual(sources, searchSources(question).map((s) => s.url));
    assert.equal(answer, generateReply([{ role: 'user', content: question }]));
    assert.equal(finishReason, 'stop');
    // The step finish precedes the message finish, and the tool step ends before the sources.
    assert.deepEqual(seen.slice(-2), ['finish-step', 'finish-message']);
    assert.ok(seen.indexOf('tool-result') < seen.indexOf('finish-step'));
    assert.ok(seen.indexOf('finish-step') < seen.indexOf('source'));
  });
});

/** The protocol's one-character code of an SDK part type. */
function line(type: string): string {
  const codes: Record<string, string> = {
    text: '0',
    data: '2',
    error: '3',
    message_annotations: '8',
    tool_call: '9',
    tool_result: 'a',
    tool_call_streaming_start: 'b',
    tool_call_delta: 'c',
    finish_message: 'd',
    finish_step: 'e',
    start_step: 'f',
    reasoning: 'g',
    source: 'h',
    redacted_reasoning: 'i',
    reasoning_signature: 'j',
    file: 'k',
  };
  const code = codes[type];
  if (!code) throw new Error(`no code for the SDK's part type ${type}`);
  return code;
}

describe('data stream protocol: the client reads what the AI SDK (v4) writes', function () {
  let http: Server;
  let baseUrl: string;
  /** The SDK response the next POST /chat answers with. */
  let respond: () => Response;

  before(async () => {
    http = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const r = respond();
        res.writeHead(r.status, Object.fromEntries(r.headers.entries()));
        Readable.fromWeb(r.body as unknown as WebReadableStream<Uint8Array>).pipe(res);
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => http.close(() => resolve())));

  const usage = { promptTokens: 11, completionTokens: 7 };

  async function read(): Promise<{ events: StreamEvent[]; reply: ReplyAssembler }> {
    const client = new ChatServiceClient({ baseUrl, apiKey: () => DEMO_KEY, maxRetries: 0 });
    try {
      const stream = await client.chatStream({ messages: [{ role: 'user', content: 'hi' }], stream: true });
      const events: StreamEvent[] = [];
      const reply = new ReplyAssembler();
      await collectStream(stream, (ev) => {
        events.push(ev);
        reply.push(ev);
      });
      return { events, reply };
    } finally {
      await client.close();
    }
  }

  it('a reasoning reply with sources and a file: the text alone is the reply, the thinking and the sources are kept apart', async () => {
    respond = () =>
      streamText({
        model: new MockLanguageModelV1({
          doStream: async () => ({
            stream: simulateReadableStream({
              chunks: [
                { type: 'reasoning', textDelta: 'First, the question. ' },
                { type: 'reasoning-signature', signature: 'sig-1' },
                { type: 'redacted-reasoning', data: 'opaque' },
                { type: 'reasoning', textDelta: 'Then, the answer.' },
                { type: 'source', source: { sourceType: 'url', id: 's1', url: 'https://example.com/a', title: 'A <b>title</b>' } },
                { type: 'source', source: { sourceType: 'url', id: 's2', url: 'javascript:alert(1)' } },
                { type: 'file', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
                { type: 'text-delta', textDelta: 'Hello, ' },
                { type: 'text-delta', textDelta: 'world 🚀' },
                { type: 'finish', finishReason: 'stop', usage },
              ],
            }),
            rawCall: { rawPrompt: null, rawSettings: {} },
          }),
        }),
        prompt: 'hi',
      }).toDataStreamResponse({ sendReasoning: true, sendSources: true });
    const { events, reply } = await read();
    const codes = new Set(events.map((e) => e.event));
    for (const code of ['f', 'g', 'i', 'j', 'h', 'k', '0', 'e', 'd']) assert.ok(codes.has(code as StreamEvent['event']), `part ${code} decoded`);
    assert.equal(reply.text, 'Hello, world 🚀');
    assert.equal(reply.reasoningText, 'First, the question. Then, the answer.');
    // Only the http(s) source is kept; its title is text.
    assert.deepEqual(reply.sources, [{ url: 'https://example.com/a', title: 'A <b>title</b>' }]);
    const outcome = reply.outcome;
    assert.equal(outcome.ending, 'complete');
    assert.equal(outcome.finishReason, 'stop');
    assert.equal(outcome.done, true);
    assert.deepEqual(outcome.usage, usage);
    assert.equal(outcome.problems, undefined);
  });

  it('a tool step (streamed tool call, its result) then the answer: two steps, one reply, usage summed', async () => {
    let call = 0;
    const toolStep: LanguageModelV1StreamPart[] = [
      { type: 'tool-call-delta', toolCallType: 'function', toolCallId: 'c1', toolName: 'web_search', argsTextDelta: '{"query":' },
      { type: 'tool-call-delta', toolCallType: 'function', toolCallId: 'c1', toolName: 'web_search', argsTextDelta: '"ropes"}' },
      { type: 'tool-call', toolCallType: 'function', toolCallId: 'c1', toolName: 'web_search', args: '{"query":"ropes"}' },
      { type: 'finish', finishReason: 'tool-calls', usage },
    ];
    const answerStep: LanguageModelV1StreamPart[] = [
      { type: 'text-delta', textDelta: 'Ropes are twisted fibres.' },
      { type: 'finish', finishReason: 'stop', usage },
    ];
    respond = () =>
      streamText({
        model: new MockLanguageModelV1({
          doStream: async () => ({
            stream: simulateReadableStream({
              chunks: call++ === 0 ? toolStep : answerStep,
            }),
            rawCall: { rawPrompt: null, rawSettings: {} },
          }),
        }),
        prompt: 'hi',
        maxSteps: 2,
        toolCallStreaming: true,
        tools: {
          web_search: tool({
            parameters: jsonSchema<{ query: string }>({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }),
            execute: async ({ query }) => ({ results: [{ url: `https://example.com/${query}` }] }),
          }),
        },
      }).toDataStreamResponse();
    const { events, reply } = await read();
    const codes = events.map((e) => e.event);
    for (const code of ['b', 'c', '9', 'a']) assert.ok(codes.includes(code as StreamEvent['event']), `part ${code} decoded`);
    assert.equal(codes.filter((c) => c === 'f').length, 2);
    assert.equal(codes.filter((c) => c === 'e').length, 2);
    assert.equal(codes.at(-1), 'd');
    assert.equal(reply.text, 'Ropes are twisted fibres.');
    assert.equal(reply.outcome.ending, 'complete');
    assert.equal(reply.outcome.steps, 2);
    assert.deepEqual(reply.outcome.usage, { promptTokens: 22, completionTokens: 14 });
  });

  it('data and message annotations beside the text add nothing to it; an error part fails the reply', async () => {
    respond = () =>
      createDataStreamResponse({
        execute: (data) => {
          data.writeData({ step: 'started' });
          data.writeMessageAnnotation({ note: 'kept aside' });
          streamText({
            model: new MockLanguageModelV1({
              doStream: async () => ({
                stream: simulateReadableStream({
                  chunks: [
                    { type: 'text-delta', textDelta: 'Partial' },
                    { type: 'error', error: new Error('model overloaded') },
                  ],
                }),
                rawCall: { rawPrompt: null, rawSettings: {} },
              }),
            }),
            prompt: 'hi',
          }).mergeIntoDataStream(data);
        },
        onError: (e) => (e instanceof Error ? e.message : String(e)),
      });
    const client = new ChatServiceClient({ baseUrl, apiKey: () => DEMO_KEY, maxRetries: 0 });
    const events: StreamEvent[] = [];
    try {
      const stream = await client.chatStream({ messages: [{ role: 'user', content: 'hi' }], stream: true });
      await assert.rejects(
        collectStream(stream, (ev) => events.push(ev)),
        (e: Error & { partialText?: string }) => {
          assert.match(e.message, /model overloaded/);
          return true;
        },
      );
    } finally {
      await client.close();
    }
    const codes = events.map((e) => e.event);
    assert.ok(codes.includes('2') && codes.includes('8') && codes.includes('3'), codes.join(' '));
    const reply = new ReplyAssembler();
    for (const ev of events) reply.push(ev);
    assert.equal(reply.text, 'Partial');
  });
});
