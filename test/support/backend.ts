// A service backend for tests: its stream yields the events given, one by one (or its call throws),
// and it records the requests sent.
import type { ChatBackend, SessionChatRequest, SessionStreamEvent } from '../../src/core';

export interface ScriptedBackend extends ChatBackend {
  /** The requests sent, in order. */
  sent: SessionChatRequest[];
}

/**
 * `fail`: the call throws (nothing of a reply); `hold`: the stream waits for it after its events;
 * `failAfter`: the stream throws after its events.
 */
export function scriptedBackend(events: SessionStreamEvent[], opts: { fail?: Error; failAfter?: Error; hold?: Promise<void> } = {}): ScriptedBackend {
  const sent: SessionChatRequest[] = [];
  return {
    sent,
    chat: () => Promise.reject(new Error('not used')),
    chatStream: async (req) => {
      sent.push(req);
      if (opts.fail) throw opts.fail;
      let aborted = false;
      return {
        abort: () => (aborted = true),
        async *[Symbol.asyncIterator]() {
          for (const e of events) {
            if (aborted) return;
            await Promise.resolve();
            yield e;
          }
          if (opts.hold) await opts.hold;
          if (opts.failAfter) throw opts.failAfter;
        },
      };
    },
  };
}

/** A backend that answers every request at once with `reply(request)` (default: "reply"), recording the requests. */
export function echoBackend(requests: SessionChatRequest[], reply: (req: SessionChatRequest) => string = () => 'reply'): ChatBackend {
  return {
    async chat() {
      throw new Error('not used');
    },
    async chatStream(req) {
      requests.push(structuredClone(req));
      return {
        abort() {},
        async *[Symbol.asyncIterator]() {
          yield { event: 'f', messageId: 'x' } as const;
          yield { event: '0', data: reply(req) } as const;
          yield { event: 'd', finishReason: 'stop' } as const;
        },
      };
    },
  };
}
