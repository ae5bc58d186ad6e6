import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inDocuments, REVIEWED_DOCUMENTS, STREAMING_DOCUMENTS } from '../../../../src/core/inlineEdit/scope';

// Edit in the editor in the manifest: its commands, menus and keys. A key of ours must not take
// one VS Code already uses: the list below is VS Code's own bindings near ours (1.139 defaults).
const root = path.resolve(__dirname, '..', '..', '..', '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: {
    commands: Array<{ command: string; title: string; category?: string }>;
    keybindings: Array<{ command: string; key: string; mac?: string; when?: string }>;
    menus: Record<string, Array<{ command?: string; when?: string; group?: string }>>;
  };
};
const nls = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const { commands, keybindings, menus } = pkg.contributes;

/** Built-in keys (Windows/Linux and macOS) an extension's editor binding would shadow. */
const BUILT_IN: Record<string, string> = {
  'ctrl+i': 'editor.action.triggerSuggest (secondary); inlineChat.start when inline chat has a provider',
  'cmd+i': 'editor.action.triggerSuggest (secondary); inlineChat.start when inline chat has a provider',
  'ctrl+k i': 'inlineChat.start (chord)',
  'cmd+k i': 'inlineChat.start (chord)',
  'ctrl+k ctrl+i': 'editor.action.showHover',
  'cmd+k cmd+i': 'editor.action.showHover',
  'ctrl+alt+i': 'workbench.action.chat.open',
  'ctrl+cmd+i': 'workbench.action.chat.open',
  'ctrl+shift+i': 'editor.action.formatDocument (Linux); chat edit session',
  'cmd+shift+i': 'chat edit session',
  'cmd+alt+i': 'workbench.action.toggleDevTools',
  'ctrl+space': 'editor.action.triggerSuggest',
  'ctrl+l': 'expandLineSelection',
  'cmd+l': 'expandLineSelection',
  'ctrl+enter': 'editor.action.insertLineAfter',
  'cmd+enter': 'editor.action.insertLineAfter',
  'ctrl+backspace': 'deleteWordLeft',
  'ctrl+shift+alt+up': 'cursorColumnSelectUp',
  'ctrl+shift+alt+down': 'cursorColumnSelectDown',
  'ctrl+k ctrl+k': 'editor.action.defineKeybinding',
  'ctrl+.': 'editor.action.quickFix',
  'cmd+.': 'editor.action.quickFix',
};

const EDIT_COMMANDS = ['aiChat.editSelection', 'aiChat.keepEdit', 'aiChat.undoEdit', 'aiChat.keepHunk', 'aiChat.undoHunk', 'aiChat.stopEdit'];

describe('edit in the editor: the manifest', () => {
  it('declares each command in the AI Chat category with a title from package.nls.json', () => {
    for (const id of EDIT_COMMANDS) {
      const c = commands.find((x) => x.command === id);
      assert.ok(c, `${id} is declared`);
      assert.equal(c.category, '%category%');
      const key = /^%([^%]+)%$/.exec(c.title)?.[1];
      assert.ok(key && typeof nls[key] === 'string', `${id}: its title is a %key% of package.nls.json`);
    }
    assert.equal(nls['command.editSelection'], 'Edit Selection…');
    assert.deepEqual([nls['command.keepEdit'], nls['command.undoEdit']], ['Keep Edit', 'Undo Edit']);
  });

  it('its keys take no built-in key; Escape is ours only while a reply streams into the editor', () => {
    const ours = keybindings.filter((k) => EDIT_COMMANDS.includes(k.command));
    assert.ok(ours.some((k) => k.command === 'aiChat.editSelection'), 'Edit Selection… has a key');
    for (const k of ours) {
      if (k.key === 'escape') {
        assert.equal(k.command, 'aiChat.stopEdit');
        continue;
      }
      for (const key of [k.key, k.mac ?? k.key]) {
        const taken = BUILT_IN[key.toLowerCase()];
        assert.equal(taken, undefined, `${k.command}: ${key} is VS Code's ${taken}`);
      }
      assert.match(k.when ?? '', /editorTextFocus/, `${k.command} acts only in the editor`);
    }
    const edit = ours.find((k) => k.command === 'aiChat.editSelection');
    assert.match(edit?.when ?? '', /!editorReadonly/);
    const all = keybindings.map((k) => k.key.toLowerCase());
    assert.equal(new Set(all).size, all.length, 'no two of our keybindings share a key');
  });

  it('Escape stops an edit only in the editor of the document it streams into, and leaves Escape to what else it closes there', () => {
    const escape = keybindings.filter((k) => k.key === 'escape' && EDIT_COMMANDS.includes(k.command));
    assert.equal(escape.length, 1);
    const terms = (escape[0].when ?? '').split(' && ');
    assert.ok(terms.includes('editorTextFocus'), 'only with the focus in a text editor');
    assert.ok(terms.includes(inDocuments(STREAMING_DOCUMENTS)), `only where the reply streams: ${escape[0].when}`);
    // Escape first closes what VS Code itself closes with it: suggestions, the find widget, a
    // snippet's placeholders, extra cursors, parameter hints, an inline suggestion.
    for (const shown of ['suggestWidgetVisible', 'findWidgetVisible', 'inSnippetMode', 'editorHasMultipleSelections', 'parameterHintsVisible', 'inlineSuggestionVisible']) {
      assert.ok(terms.includes(`!${shown}`), `not while ${shown}: ${escape[0].when}`);
    }
    assert.doesNotMatch(escape[0].when ?? '', /aiChat\.inlineEditStreaming(?!Documents)/, 'no window-wide key');
  });

  it('the hunk keys act only in the editor of the document under review', () => {
    for (const id of ['aiChat.keepHunk', 'aiChat.undoHunk']) {
      const k = keybindings.find((x) => x.command === id);
      assert.equal(k?.when, `editorTextFocus && ${inDocuments(REVIEWED_DOCUMENTS)}`, id);
    }
  });

  it('the editor context menu offers Edit Selection…; the review\'s commands are in the palette only during a review', () => {
    const item = menus['editor/context'].find((m) => m.command === 'aiChat.editSelection');
    assert.ok(item, 'in the editor context menu');
    assert.match(item.group ?? '', /^9_aiChat@/);
    const palette = (id: string) => menus.commandPalette.find((m) => m.command === id)?.when;
    // The palette may be opened from the chat (no editor focused): its entries hold in the whole
    // window, and each command acts only on the active editor's document (core/inlineEdit/scope.ts).
    for (const id of ['aiChat.keepEdit', 'aiChat.undoEdit', 'aiChat.keepHunk', 'aiChat.undoHunk']) assert.equal(palette(id), 'aiChat.inlineEditReviewing', id);
    assert.equal(palette('aiChat.stopEdit'), 'aiChat.inlineEditStreaming');
  });
});
