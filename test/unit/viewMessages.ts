// The messages the panel would receive for a session's events, through the real chat controller.
import type { ChatSession, SessionEvent } from '../../src/core';
import { ChatController } from '../../src/extension/chat/common/controller';
import type { HostMessage } from '../../src/protocol';
import { makeTurns } from '../support/turns';

export function viewMessages(session: ChatSession, events: readonly SessionEvent[]): HostMessage[] {
  const controller = new ChatController({
    session,
    settings: () => ({ model: 'swift-chat', search: false, temperature: 1, fontSize: 0, baseUrl: 'http://127.0.0.1' }),
    models: () => ({ models: undefined, loading: false, error: undefined, costOf: () => null }),
    hasKey: () => true,
    turns: makeTurns({ key: () => 'sk-test-key-0123456789', model: () => 'swift-chat', costOf: () => null }).turns,
    pickModel: async () => true,
    notifyBusy: () => undefined,
    post: () => undefined,
  });
  return events.flatMap((e) => controller.toMessages(e));
}
