// The "AI Chat" log channel as the client's Logger, with secrets redacted and message text kept
// to the trace level (see logLines).
import * as vscode from 'vscode';
import { logLines, type LogLevel } from './redact';

export interface Logger {
  trace(msg: string, data?: Record<string, unknown>): void;
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

export function createChannelLogger(channel: vscode.LogOutputChannel, secrets: () => Array<string | undefined>): Logger {
  const write = (level: LogLevel) => (msg: string, data?: Record<string, unknown>) => {
    const known = secrets().filter((s): s is string => typeof s === 'string');
    for (const l of logLines(level, msg, data, known)) channel[l.level](l.line);
  };
  return { trace: write('trace'), debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
