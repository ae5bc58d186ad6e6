// The "AI Chat" log channel as the client's Logger, with secrets redacted.
import * as vscode from 'vscode';
import { formatLogLine } from './redact';

export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

export function createChannelLogger(channel: vscode.LogOutputChannel, secrets: () => Array<string | undefined>): Logger {
  const line = (msg: string, data?: Record<string, unknown>) =>
    formatLogLine(msg, data, secrets().filter((s): s is string => typeof s === 'string'));
  return {
    debug: (msg, data) => channel.debug(line(msg, data)),
    info: (msg, data) => channel.info(line(msg, data)),
    warn: (msg, data) => channel.warn(line(msg, data)),
    error: (msg, data) => channel.error(line(msg, data)),
  };
}
