// Files dragged onto the panel become chips: while a drag with files is over it, the panel shows
// where to drop (VS Code hands a drop to a webview only with Shift held); the drop's URIs go to
// the host, which reads and checks each file.
import * as l10n from '@vscode/l10n';
import { carriesFiles, droppedUris, type WebviewMessage } from '../protocol';
import { codicon, el } from './dom';

export function installDropTarget(root: HTMLElement, post: (m: WebviewMessage) => void): void {
  const hint = el(
    'div',
    { class: 'drop-hint', 'aria-hidden': 'true', hidden: true },
    codicon('attach'),
    el('span', { text: l10n.t('Drop to attach to the next message') }),
    el('span', { class: 'drop-hint-detail', text: l10n.t('From the Explorer or an editor tab, hold Shift while dropping.') }),
  );
  root.append(hint);
  let depth = 0;
  const show = (on: boolean) => {
    hint.hidden = !on;
    root.classList.toggle('dragging-files', on);
  };
  const types = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []);

  root.addEventListener('dragenter', (e) => {
    if (!carriesFiles(types(e))) return;
    e.preventDefault();
    depth++;
    show(true);
  });
  root.addEventListener('dragover', (e) => {
    // The data cannot be read while dragging, only its types.
    if (!carriesFiles(types(e))) return;
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
  });
  root.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) show(false);
  });
  root.addEventListener('drop', (e) => {
    depth = 0;
    show(false);
    const dt = e.dataTransfer;
    if (!dt || !carriesFiles(types(e))) return;
    e.preventDefault();
    const { uris, dropped } = droppedUris((t) => dt.getData(t), types(e));
    post({ type: 'dropUris', uris, total: dropped, outsideFiles: uris.length ? 0 : dt.files.length });
  });
}
