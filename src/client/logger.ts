/**
 * Logger the client reports to. The client never passes the API key or message contents to it;
 * data holds method, path, status, durations, attempt numbers, trace ids and error kinds.
 */
export interface Logger {
  /** Most detailed level: error excerpts quoting what the service sent (may hold message text). */
  trace?(msg: string, data?: Record<string, unknown>): void;
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
