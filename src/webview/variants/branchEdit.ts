// Edit of an earlier question: its text comes into the message box, and a bar above the box says
// "Editing question 3" with Cancel. The next send carries the question's id (`editOf`): the host
// starts a branch there, and the question with every turn after it stays, one page back on the
// question's pager. After a switch of branch the page is drawn again: the keyboard goes back to
// the pager of the question now shown in the same place.
import * as l10n from '@vscode/l10n';
import { button, el } from '../dom';

export interface BranchEdit {
  /** "Editing question 3 · Cancel", above the box (hidden while no question is edited). */
  readonly bar: HTMLElement;
  /** Edit of the question `id`, the `ordinal`-th question of the conversation (1-based). */
  start(id: string, ordinal: number): void;
  cancel(): void;
  /** The question the message being sent edits, taken once (the bar goes). */
  take(): string | undefined;
  /** The conversation shown changed: an edit of a question no longer shown ends. */
  check(shown: (id: string) => boolean): void;
}

/** `cancelled`: the edit ended without a send (the box's text is the caller's). */
export function createBranchEdit(cancelled: () => void): BranchEdit {
  let editing: string | undefined;
  const text = el('span', { class: 'branch-edit-text' });
  const cancelButton = button(l10n.t('Cancel'), () => cancel(), { class: 'link', title: l10n.t('Cancel the edit: nothing is sent') });
  const bar = el('div', { class: 'branch-edit', role: 'status', hidden: true }, text, ' ', cancelButton);
  const end = () => {
    editing = undefined;
    bar.hidden = true;
    text.textContent = '';
  };
  const cancel = () => {
    if (editing === undefined) return;
    end();
    cancelled();
  };
  return {
    bar,
    start(id, ordinal) {
      editing = id;
      text.textContent = l10n.t('Editing question {0}: sending it starts a branch there, and the question as it was stays.', ordinal);
      bar.hidden = false;
    },
    cancel,
    take() {
      const id = editing;
      end();
      return id;
    },
    check(shown) {
      if (editing !== undefined && !shown(editing)) end();
    },
  };
}

/** Where the keyboard was when a branch pager was used: the question's place and the button. */
export interface PagerFocus {
  index: number;
  which: 'prev' | 'next';
}
