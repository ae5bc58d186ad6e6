// The chat's compact header: the model as a dropdown (with "More models…", the quick pick), web
// search and the temperature as icons, New Chat and History at the end. It shows the settings the
// host sends and posts the user's changes; a control being used is not redrawn under the user.
import * as l10n from '@vscode/l10n';
import type { ChatSettings, WebviewMessage } from '../protocol';
import { clear, codicon, el, iconButton } from './dom';

export interface Toolbar {
  readonly element: HTMLElement;
  update(settings: ChatSettings): void;
}

export function createToolbar(post: (m: WebviewMessage) => void): Toolbar {
  let settings: ChatSettings | undefined;
  const newChatButton = iconButton('add', l10n.t('New Chat'), () => post({ type: 'newChat' }));
  const historyButton = iconButton('history', l10n.t('History'), () => post({ type: 'openHistory' }));
  const modelSelect = el('select', { id: 'model', 'aria-label': l10n.t('Model') });
  modelSelect.addEventListener('change', () => {
    const value = modelSelect.value;
    if (value === '__more__') {
      modelSelect.value = settings?.selectedModel ?? '';
      post({ type: 'selectModel' });
      return;
    }
    if (value) post({ type: 'selectModel', valueId: value });
  });
  const searchToggle = iconButton('globe', l10n.t('Web search'), () => post({ type: 'setSearch', value: !settings?.search }), {
    'aria-pressed': 'false',
    class: 'toggle',
  });
  const temperatureInput = el('input', {
    type: 'number',
    id: 'temperature',
    min: 0,
    max: 2,
    step: 0.1,
    inputmode: 'decimal',
    'aria-label': l10n.t('Temperature'),
    title: l10n.t('Temperature (0 to 2)'),
  });
  temperatureInput.addEventListener('change', () => {
    const v = Number(temperatureInput.value);
    if (temperatureInput.value.trim() === '' || !Number.isFinite(v) || v < 0 || v > 2) {
      temperatureInput.setCustomValidity(l10n.t('Temperature must be between 0 and 2'));
      temperatureInput.reportValidity();
      return;
    }
    temperatureInput.setCustomValidity('');
    post({ type: 'setTemperature', value: v });
  });

  const element = el(
    'div',
    { class: 'toolbar', role: 'toolbar', 'aria-label': l10n.t('Chat settings') },
    el('span', { class: 'dropdown' }, modelSelect, el('span', { class: 'dropdown-chevron' }, codicon('chevron-down'))),
    searchToggle,
    el('label', { class: 'field', for: 'temperature', title: l10n.t('Temperature (0 to 2)') }, codicon('flame'), temperatureInput),
    el('span', { class: 'spacer' }),
    el('span', { class: 'actions' }, newChatButton, historyButton),
  );

  const update = (state: ChatSettings) => {
    settings = state;
    const select = modelSelect;
    const focused = document.activeElement === select;
    if (!focused) {
      clear(select);
      if (!state.selectedModel) select.append(el('option', { value: '', text: l10n.t('Choose a model…') }));
      const known = new Set<string>();
      for (const m of state.models) {
        known.add(m.valueId);
        const label = m.usable ? `${m.name} (${m.cost} ${m.cost === 1 ? 'credit' : 'credits'})` : `${m.name} (unavailable)`;
        const opt = el('option', { value: m.valueId, text: label, disabled: !m.usable, title: m.reason });
        select.append(opt);
      }
      if (state.selectedModel && !known.has(state.selectedModel)) {
        select.append(el('option', { value: state.selectedModel, text: state.modelsLoading ? `${state.selectedModel} (loading…)` : state.selectedModel }));
      }
      select.append(el('option', { value: '__more__', text: l10n.t('More models…') }));
      select.value = state.selectedModel;
      select.title = state.modelsError ? l10n.t('Could not load the models: {0}', state.modelsError) : '';
    }
    searchToggle.setAttribute('aria-pressed', String(state.search));
    searchToggle.classList.toggle('checked', state.search);
    if (document.activeElement !== temperatureInput) temperatureInput.value = String(state.temperature);
  };

  return { element, update };
}
