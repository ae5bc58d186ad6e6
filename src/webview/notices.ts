// The lines above the conversation: the project instructions line (AGENTS.md: what is sent, Open,
// Turn off / on) and the notice of what keeps the chat from working as set up (no API key, a
// workspace's service address or model the user has not allowed), each with the button that
// settles it.
import * as l10n from '@vscode/l10n';
import type { ChatSettings, ChatStatus, WebviewMessage } from '../protocol';
import { button, clear, codicon, el, iconButton } from './dom';

export interface Notices {
  /** The project instructions line. */
  readonly instructions: HTMLElement;
  /** The setup notice. */
  readonly notice: HTMLElement;
  /** The instructions line for the settings' instructions file (hidden without one). */
  setInstructions(view: ChatSettings['instructions']): void;
  /** The notice for the settings and the status (no key: said only while the last send's error does not say it). */
  setNotice(settings: ChatSettings | undefined, status: ChatStatus): void;
}

export function createNotices(post: (m: WebviewMessage) => void): Notices {
  const notice = el('div', { class: 'notice', role: 'status', hidden: true });
  const instructions = el('div', { class: 'instructions', hidden: true });

  const setInstructions = (view: ChatSettings['instructions']) => {
    clear(instructions);
    instructions.hidden = !view;
    if (!view) return;
    instructions.classList.toggle('active', view.active);
    instructions.append(
      codicon(view.active ? 'book' : 'circle-slash'),
      el('span', { class: 'instructions-text', text: view.text, title: view.text }),
      el('span', { class: 'spacer' }),
      iconButton('go-to-file', l10n.t('Open {0}', view.name), () => post({ type: 'runCommand', command: 'openInstructions' })),
    );
    if (view.active || view.off) {
      const label = view.active ? l10n.t('Turn off {0} for this workspace', view.name) : l10n.t('Turn on {0} for this workspace', view.name);
      instructions.append(
        iconButton(view.active ? 'eye-closed' : 'eye', label, () => post({ type: 'runCommand', command: 'toggleInstructions' }), {
          'aria-pressed': view.active ? 'true' : 'false',
        }),
      );
    }
  };

  const setNotice = (settings: ChatSettings | undefined, status: ChatStatus) => {
    clear(notice);
    const addressNotice = settings?.addressNotice;
    if (addressNotice) {
      notice.append(
        el('p', { text: addressNotice.replace(/^AI Chat: /, '') }),
        button(l10n.t('Review Service Address'), () => post({ type: 'runCommand', command: 'reviewServiceAddress' }), { class: 'primary' }),
      );
    }
    const modelNotice = settings?.modelNotice;
    if (modelNotice) {
      notice.append(el('p', { text: modelNotice }), button(l10n.t('Select Model'), () => post({ type: 'selectModel' })));
    }
    const show = !!settings && !settings.hasKey && status.sendError?.kind !== 'auth';
    notice.hidden = !show && !addressNotice && !modelNotice;
    if (!show) return;
    notice.append(
      el('span', { text: l10n.t('No API key is set. Set your API key to start chatting.') }),
      button(l10n.t('Set API Key'), () => post({ type: 'runCommand', command: 'setApiKey' }), { class: 'primary' }),
    );
  };

  return { instructions, notice, setInstructions, setNotice };
}
