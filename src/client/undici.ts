/**
 * The parts of undici the client uses, loaded from undici's own modules. The package's entry
 * point also loads fetch, WebSocket, the caches and the mocks, which would double the size of
 * the extension bundle for code that never runs.
 */
import type { Dispatcher } from 'undici';
import AgentImpl from 'undici/lib/dispatcher/agent.js';
import ProxyAgentImpl from 'undici/lib/dispatcher/proxy-agent.js';
import DispatcherImpl from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';

// As undici's entry point does: every dispatcher gets request/stream/pipeline/connect/upgrade
// (ProxyAgent itself calls `connect` on its client).
Object.assign(DispatcherImpl.prototype, api);

export type { Dispatcher };
export const Agent = AgentImpl;
export const ProxyAgent = ProxyAgentImpl;

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher };

/** undici's `request(url, options)` for a given dispatcher (the URL gives origin and path). */
export function request(url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { origin, pathname, search } = new URL(url);
  const { dispatcher, ...rest } = options;
  return dispatcher.request({ ...rest, origin, path: pathname + search });
}
