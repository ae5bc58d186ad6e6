// The chips of the next message's attachments, above the message box.
import * as l10n from '@vscode/l10n';
import type { ContextChip } from '../protocol';
import { clear, codicon, el, iconButton } from './dom';

export function renderContextChips(host: HTMLElement, chips: readonly ContextChip[], remove: (id: string) => void): void {
  clear(host);
  host.hidden = chips.length === 0;
  for (const c of chips) {
    const chip = el('span', { class: 'context-chip', title: c.path, 'data-id': c.id });
    chip.append(
      codicon(c.icon),
      el('span', { class: 'context-chip-name', text: c.name }),
      el('span', { class: 'context-chip-detail', text: c.detail }),
      iconButton('close', l10n.t('Remove {0}', c.name), () => remove(c.id), { class: 'context-chip-remove' }),
    );
    host.append(chip);
  }
}
