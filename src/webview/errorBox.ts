// An error as the chat shows it (under a failed reply, or above the box for a refused send): its
// message and the buttons that fix it. A rate limit's Retry counts down before it can be used;
// one countdown runs at a time (the newest error's).
import * as l10n from '@vscode/l10n';
import type { ErrorAction, ErrorView, WebviewMessage } from '../protocol';
import { button, el } from './dom';

const actionLabels = (): Record<ErrorAction, string> => ({
  setApiKey: l10n.t('Set API Key'),
  showSubscriptions: l10n.t('Show Subscriptions'),
  retry: l10n.t('Retry'),
  openSettings: l10n.t('Open Settings'),
  fewerMessages: l10n.t('Send with fewer earlier messages'),
  selectModel: l10n.t('Select Model'),
  openInstructions: l10n.t('Open Project Instructions'),
  toggleInstructions: l10n.t('Turn Project Instructions Off'),
  openSystemPrompt: l10n.t('Open the System Prompt Setting'),
  showRules: l10n.t('Turn a Rule Off or On'),
});

export interface ErrorBoxes {
  /**
   * An error with the buttons that fix it (`withActions`), role=alert when `asAlert`. `onRetry`:
   * what Retry does (default: the host retries).
   */
  box(error: ErrorView, withActions: boolean, onRetry?: () => void, asAlert?: boolean): HTMLElement;
  /** Stops the countdown of a Retry (its error is no longer shown). */
  stopCountdown(): void;
}

/** `sendFewer`: "Send with fewer earlier messages" (the composer knows what to send). */
export function createErrorBoxes(post: (m: WebviewMessage) => void, sendFewer: () => void): ErrorBoxes {
  let timer: ReturnType<typeof setInterval> | undefined;

  const stopCountdown = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };

  /** "Retry in N s", counting down, then "Retry". */
  const countdown = (retry: HTMLButtonElement, seconds: number) => {
    stopCountdown();
    let left = seconds;
    const tick = () => {
      if (left <= 0) {
        retry.textContent = l10n.t('Retry');
        retry.disabled = false;
        stopCountdown();
        return;
      }
      retry.textContent = l10n.t('Retry in {0} s', left);
      retry.disabled = true;
      left--;
    };
    tick();
    timer = setInterval(tick, 1000);
  };

  const box = (error: ErrorView, withActions: boolean, onRetry?: () => void, asAlert = true): HTMLElement => {
    const box = el('div', { class: `error-box kind-${error.kind}`, role: asAlert ? 'alert' : undefined });
    box.append(el('p', { class: 'error-message', text: error.message }));
    if (!withActions || error.actions.length === 0) return box;
    const actions = el('div', { class: 'error-actions' });
    for (const action of error.actions) {
      if (action === 'retry') {
        const retry = button(l10n.t('Retry'), () => (onRetry ? onRetry() : post({ type: 'retry' })), { class: 'secondary' });
        if (error.kind === 'rate-limit' && error.retryAfterSeconds) countdown(retry, error.retryAfterSeconds);
        actions.append(retry);
      } else if (action === 'fewerMessages') {
        // Sends the text of the box again (or the failed one the host keeps) with half the earlier turns.
        actions.append(button(actionLabels()[action], () => sendFewer(), { class: 'primary' }));
      } else {
        const command = action;
        actions.append(button(actionLabels()[action], () => post({ type: 'runCommand', command }), { class: 'primary' }));
      }
    }
    box.append(actions);
    return box;
  };

  return { box, stopCountdown };
}
