// The one turn pipeline (TurnService) over an in-memory account and settings, for tests: the key,
// the selected model, the models and their prices, the balance (each fetch counted, and able to
// change it: credits bought meanwhile), the user's system prompt and the project instructions.
// Each port may be replaced (`ports`) by one the test watches.
import { DEFAULT_CONTEXT_TOKENS, type ChatBackend, type ModelLike, type TurnCharge } from '../../src/core';
import { TurnService, type TurnServiceDeps } from '../../src/extension/pipeline/common/turnService';

export interface TurnsOptions {
  /** The stored API key (none: no key is set). */
  key?: () => string | undefined;
  /** The selected model ('' when none is). */
  model: () => string;
  models?: () => readonly ModelLike[] | undefined;
  costOf?: (id: string) => number | null;
  /** The balance as last read (undefined: not known). */
  balance?: () => number | undefined;
  /** What a fetch of the balance finds (e.g. credits bought since). */
  onFetch?: () => void;
  /** The user's aiChat.systemPrompt and the project instructions. */
  systemSetting?: () => string;
  instructions?: () => string;
  /** Whether a text holds the key (default: it contains it). */
  holds?: (text: string) => boolean;
  /** What answers a surface's request (TurnService.run). */
  backend?: ChatBackend;
  /** Ports that replace the in-memory ones. */
  ports?: Partial<TurnServiceDeps>;
}

export function makeTurns(opts: TurnsOptions): { turns: TurnService; fetches: () => number; deps: TurnServiceDeps } {
  let fetches = 0;
  const key = () => opts.key?.();
  const deps: TurnServiceDeps = {
    keys: {
      get: async () => key(),
      holds: (text: string) => (opts.holds ? opts.holds(text) : !!key() && text.includes(key()!)),
    },
    config: {
      get settings() {
        return { model: opts.model(), systemPrompt: opts.systemSetting?.() ?? '', temperature: 1, search: false, baseUrl: 'http://127.0.0.1:9', contextMaxTokens: DEFAULT_CONTEXT_TOKENS };
      },
    },
    models: {
      get models() {
        return opts.models?.();
      },
      costOf: (id: string) => (opts.costOf ? opts.costOf(id) : 1),
    },
    balance: {
      get state() {
        const total = opts.balance?.();
        return { balance: total === undefined ? undefined : { totalBalance: total }, error: undefined };
      },
      fetchTotal: async () => {
        fetches++;
        opts.onFetch?.();
        return opts.balance?.();
      },
    },
    accounting: {
      start: () => ({ backend: (inner: ChatBackend) => inner, settle: async (): Promise<TurnCharge> => ({ pending: false }) }),
    },
    clients: {
      get: () => opts.backend ?? { chat: () => Promise.reject(new Error('no requests here')), chatStream: () => Promise.reject(new Error('no requests here')) },
    },
    instructions: () => ({ ready: Promise.resolve(), systemPrompt: (own: string) => [own, opts.instructions?.() ?? ''].filter((t) => t !== '').join('\n\n') }),
    logger: { debug: () => undefined, warn: () => undefined },
    ...opts.ports,
  };
  return { turns: new TurnService(deps), fetches: () => fetches, deps };
}
