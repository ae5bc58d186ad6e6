// The one turn pipeline of the extension (common/turnService.ts, free of vscode), and what only
// VS Code has: a cancellation token as the AbortSignal of a request.
import type * as vscode from 'vscode';

export * from './common/turnService';

/** A VS Code cancellation token as an AbortSignal (for the request), with its listener to dispose. */
export function signalOf(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const listener = token.onCancellationRequested(() => {
    controller.abort();
  });
  return {
    signal: controller.signal,
    dispose: () => {
      listener.dispose();
    },
  };
}
