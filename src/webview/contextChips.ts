// The chips of the next message's attachments, above the message box; the conversation's pins
// first (marked, their × unpins), each other file or range with a pin button.
import * as l10n from '@vscode/l10n';
import type { ContextChip } from '../protocol';
import { clear, codicon, el, iconButton } from './dom';

export function renderContextChips(host: HTMLElement, chips: readonly ContextChip[], remove: (id: string) => void, pin: (id: string) => void = () => undefined): void {
  clear(host);
  host.hidden = chips.length === 0;
  for (const c of chips) {
    const chip = el('span', { class: `context-chip${c.pinned ? ' pinned' : ''}`, title: c.pinned ? `${c.path} · ${c.detail}` : c.path, 'data-id': c.id });
    chip.append(
      codicon(c.icon),
      chipName(c.name),
      el('span', { class: 'context-chip-detail', text: c.detail }),
      ...(c.pinnable ? [iconButton('pin', l10n.t('Pin {0} to this conversation: sent with every message, read again each time', c.name), () => pin(c.id), { class: 'context-chip-pin' })] : []),
      iconButton('close', c.pinned ? l10n.t('Unpin {0}', c.name) : l10n.t('Remove {0}', c.name), () => remove(c.id), { class: 'context-chip-remove' }),
    );
    host.append(chip);
  }
}

/** A chip's name; a range's lines ("src/a.ts:12-40") stay in view when a narrow bar cuts the path. */
function chipName(name: string): HTMLElement {
  const range = /^(.+)(:\d+(?:-\d+)?)$/.exec(name);
  if (!range) return el('span', { class: 'context-chip-name', text: name });
  return el('span', { class: 'context-chip-name context-chip-range' }, el('span', { class: 'context-chip-path', text: range[1] }), el('span', { class: 'context-chip-lines', text: range[2] }));
}
