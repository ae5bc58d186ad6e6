// Wire framings of the event stream of POST /chat. The events are those of the data stream protocol
// the service's stack sends (f step start, 0 text, e step finish, d message finished, 3 error part;
// g reasoning, 9 tool call and a tool result of a search step, h a source the reply cites).
//   sse:      text/event-stream, `data: {json}\n\n` per event, then `data: [DONE]\n\n`
//   ndjson:   application/x-ndjson, one event object per line
//   prefixed: text/plain; charset=utf-8 with `x-vercel-ai-data-stream: v1`, `f:{"messageId":..}`,
//             `0:"text"`, `e:{..}`, `d:{..}`, `3:"message"` per line
import type { Framing } from './fixtures';

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

export type StreamEvent =
  | { event: 'f'; messageId: string }
  | { event: '0'; data: string }
  | { event: 'e'; finishReason: string; usage: Usage; isContinued: boolean }
  | { event: 'd'; finishReason: string; usage: Usage }
  | { event: '3'; error: string }
  | { event: 'g'; data: string }
  | { event: '9'; toolCallId: string; toolName: string; args: Record<string, unknown> }
  | { event: 'a'; toolCallId: string; result: unknown }
  | { event: 'h'; sourceType: 'url'; id: string; url: string; title?: string };

export interface FramingWriter {
  readonly framing: Framing;
  readonly contentType: string;
  /** Extra response headers of the framing. */
  readonly headers: Record<string, string>;
  /** Serialised event. */
  event(ev: StreamEvent): string;
  /** Trailer after the last event (SSE's [DONE]), or '' when the framing has none. */
  done(): string;
  /** A frame a correct decoder must reject (unterminated JSON). */
  malformed(): string;
  /** A keep-alive that carries no event. */
  keepAlive(): string;
}

const sse: FramingWriter = {
  framing: 'sse',
  contentType: 'text/event-stream',
  headers: {},
  event: (ev) => `data: ${JSON.stringify(ev)}\n\n`,
  done: () => 'data: [DONE]\n\n',
  malformed: () => 'data: {"event":"0","data":"unterminated\n\n',
  keepAlive: () => ': keep-alive\n\n',
};

const ndjson: FramingWriter = {
  framing: 'ndjson',
  contentType: 'application/x-ndjson',
  headers: {},
  event: (ev) => JSON.stringify(ev) + '\n',
  done: () => '',
  malformed: () => '{"event":"0","data":"unterminated\n',
  keepAlive: () => '\n',
};

/** Line-prefixed framing: the event type is the prefix, the rest of the event is the payload. */
function prefixedLine(ev: StreamEvent): string {
  switch (ev.event) {
    case 'f':
      return `f:${JSON.stringify({ messageId: ev.messageId })}\n`;
    case '0':
      return `0:${JSON.stringify(ev.data)}\n`;
    case 'e':
      return `e:${JSON.stringify({ finishReason: ev.finishReason, usage: ev.usage, isContinued: ev.isContinued })}\n`;
    case 'd':
      return `d:${JSON.stringify({ finishReason: ev.finishReason, usage: ev.usage })}\n`;
    case '3':
      return `3:${JSON.stringify(ev.error)}\n`;
    case 'g':
      return `g:${JSON.stringify(ev.data)}\n`;
    case '9':
    case 'a':
    case 'h': {
      const { event, ...payload } = ev;
      return `${event}:${JSON.stringify(payload)}\n`;
    }
  }
}

const prefixed: FramingWriter = {
  framing: 'prefixed',
  contentType: 'text/plain; charset=utf-8',
  headers: { 'x-vercel-ai-data-stream': 'v1' },
  event: prefixedLine,
  done: () => '',
  malformed: () => '0:"unterminated\n',
  keepAlive: () => '\n',
};

export function framingWriter(framing: Framing): FramingWriter {
  switch (framing) {
    case 'sse':
      return sse;
    case 'ndjson':
      return ndjson;
    case 'prefixed':
      return prefixed;
  }
}
