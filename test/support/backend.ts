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
