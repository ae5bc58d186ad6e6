// The manifest's side bar view, title actions, keybindings and walkthrough fit together.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PARTICIPANT_NAME } from '../../../src/core/chat/heldSends';
/** The view id registered in src/extension/chat/chatLocation.ts (CHAT_SIDEBAR_VIEW; that module needs vscode). */
const CHAT_SIDEBAR_VIEW = 'aiChat.chatView';
/** CHAT_SECONDARY_VIEW of src/extension/chat/chatLocation.ts. */
const CHAT_SECONDARY_VIEW = 'aiChat.chatViewSecondary';

const root = path.resolve(__dirname, '..', '..', '..');
/** The parts of package.json these tests read. */
interface Manifest {
  contributes: {
    commands: Array<{ command: string; icon?: string }>;
    viewsContainers: { activitybar: Array<{ id: string; icon: string }>; secondarySidebar?: Array<{ id: string; icon: string }> };
    views: Record<string, Array<{ id: string; type?: string; when?: string }>>;
    configuration: { properties: Record<string, { enum?: string[]; default?: unknown; scope?: string }> };
    menus: Record<string, Array<{ command: string; when?: string }>>;
    keybindings: Array<{ command: string; key: string }>;
    walkthroughs: Array<{ steps: Array<{ id: string; description: string; completionEvents: string[]; media: { markdown: string } }> }>;
  };
}
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const contributes = pkg.contributes;
/** The manifest's user-visible strings are `%key%` references into package.nls.json. */
const nls = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const text = (value: string): string => (/^%[^%]+%$/.test(value) ? (nls[value.slice(1, -1)] ?? value) : value);
const commandIds = new Set<string>(contributes.commands.map((c: { command: string }) => c.command));

describe('manifest: side bar view and walkthrough', () => {
  it('declares the chat view in its own activity bar container, with an icon file that is packaged', () => {
    const container = contributes.viewsContainers.activitybar.find((c: { id: string }) => c.id === 'aiChat');
    assert.ok(container, 'an "aiChat" activity bar container');
    assert.ok(existsSync(path.join(root, container.icon)), `icon ${container.icon} exists`);
    const view = contributes.views.aiChat.find((v: { id: string }) => v.id === CHAT_SIDEBAR_VIEW);
    assert.equal(view?.type, 'webview');
    const source = readFileSync(path.join(root, 'src', 'extension', 'chat', 'chatLocation.ts'), 'utf8');
    assert.ok(source.includes(`export const CHAT_SIDEBAR_VIEW = '${CHAT_SIDEBAR_VIEW}';`), 'the provider is registered for this id');
    assert.match(readFileSync(path.join(root, '.vscodeignore'), 'utf8'), new RegExp(`^!${container.icon.replace(/[.]/g, '\\.')}$`, 'm'));
  });

  it('declares the same chat in the secondary side bar; aiChat.chatLocation shows exactly one of the two views', () => {
    const container = contributes.viewsContainers.secondarySidebar?.find((c) => c.id === 'aiChatSecondary');
    assert.ok(container, 'an "aiChatSecondary" container in the secondary side bar');
    const secondary = contributes.views.aiChatSecondary.find((v) => v.id === CHAT_SECONDARY_VIEW);
    const primary = contributes.views.aiChat.find((v) => v.id === CHAT_SIDEBAR_VIEW);
    assert.equal(secondary?.type, 'webview');
    const setting = contributes.configuration.properties['aiChat.chatLocation'];
    assert.deepEqual(setting.enum, ['sideBar', 'secondarySideBar']);
    assert.equal(setting.default, 'sideBar', 'a new user finds the chat by the activity bar icon');
    // The when clauses, evaluated for each value: one view shown, never both, never none.
    const shown = (when: string | undefined, value: string) => {
      const m = /^config\.aiChat\.chatLocation (==|!=) '(\w+)'$/.exec(when ?? '');
      assert.ok(m, `a when clause on aiChat.chatLocation: ${when}`);
      return m[1] === '==' ? value === m[2] : value !== m[2];
    };
    for (const value of setting.enum) {
      assert.equal([primary, secondary].filter((v) => shown(v?.when, value)).length, 1, `${value}: one view`);
    }
    const source = readFileSync(path.join(root, 'src', 'extension', 'chat', 'chatLocation.ts'), 'utf8');
    assert.ok(source.includes(`export const CHAT_SECONDARY_VIEW = '${CHAT_SECONDARY_VIEW}';`), 'the provider is registered for this id');
  });

  it('P4: aiChat.context.autoSummarize (each summary a paid request) is an application setting: a workspace cannot turn it on', () => {
    const setting = contributes.configuration.properties['aiChat.context.autoSummarize'];
    assert.equal(setting.default, false);
    assert.equal(setting.scope, 'application', 'only the user settings set it (VS Code ignores a workspace value)');
    const source = readFileSync(path.join(root, 'src', 'extension', 'chat', 'summaryRoom.ts'), 'utf8');
    assert.match(source, /inspect<[^>]*>\('context\.autoSummarize'\)/, 'the summary room reads the levels, not the merged value');
    assert.doesNotMatch(source, /\.get<[^>]*>\('context\.autoSummarize'/);
  });

  it('P5: the command of @aichat\'s Send button (a prompt that names another model) is declared, and hidden from the palette (it needs the button\'s argument)', () => {
    const source = readFileSync(path.join(root, 'src', 'extension', 'chat', 'native', 'slashCommands.ts'), 'utf8');
    const id = /export const SEND_HELD_COMMAND = '([^']+)';/.exec(source)?.[1];
    assert.ok(id && commandIds.has(id), `${id} is a declared command`);
    assert.equal(contributes.menus.commandPalette.find((m) => m.command === id)?.when, 'false');
    // The click asks the Chat view for `@aichat /prompt …` again: the participant's name and command as declared.
    const participant = (pkg as unknown as { contributes: { chatParticipants: Array<{ name: string; commands: Array<{ name: string }> }> } }).contributes.chatParticipants[0];
    assert.equal(participant.name, PARTICIPANT_NAME);
    assert.ok(participant.commands.some((c) => c.name === 'prompt'));
  });

  it('the view title has New Chat, History, Go to Question and Open in Editor, each a declared command with an icon', () => {
    const actions = contributes.menus['view/title'].filter((m) => m.when === `view == ${CHAT_SIDEBAR_VIEW} || view == ${CHAT_SECONDARY_VIEW}`);
    assert.deepEqual(
      actions.map((m: { command: string }) => m.command),
      ['aiChat.newChat', 'aiChat.showHistory', 'aiChat.goToQuestion', 'aiChat.openChat'],
    );
    for (const a of actions) {
      const cmd = contributes.commands.find((c: { command: string }) => c.command === a.command);
      assert.ok(cmd?.icon, `${a.command} has an icon`);
    }
  });

  it('Focus Chat Input has a keybinding that is not the core chat\'s Ctrl+Alt+I nor a common one', () => {
    const kb = contributes.keybindings.find((k: { command: string }) => k.command === 'aiChat.focusChatInput');
    assert.ok(kb, 'a keybinding');
    const taken = ['ctrl+alt+i', 'ctrl+shift+i', 'ctrl+i', 'ctrl+l', 'ctrl+alt+enter', 'ctrl+/', 'ctrl+shift+/'];
    assert.ok(!taken.includes(kb.key.toLowerCase()), `${kb.key} is free`);
    const keys = contributes.keybindings.map((k: { key: string }) => k.key.toLowerCase());
    assert.equal(new Set(keys).size, keys.length, 'no two of our keybindings share a key');
  });

  it('the walkthrough has its four steps, each with a declared command link, a completion event and packaged media', () => {
    const [walkthrough] = contributes.walkthroughs;
    assert.equal(walkthrough.steps.length, 4);
    const ignore = readFileSync(path.join(root, '.vscodeignore'), 'utf8');
    assert.match(ignore, /^!media\/walkthrough\/\*\.md$/m, 'walkthrough media is packaged');
    for (const step of walkthrough.steps) {
      const link = /\(command:([\w.]+)\)/.exec(text(step.description));
      assert.ok(link && commandIds.has(link[1]), `${step.id}: its action runs a declared command`);
      assert.ok(step.completionEvents.length > 0, `${step.id}: has a completion event`);
      for (const e of step.completionEvents) {
        assert.match(e, /^(onCommand:aiChat\.\w+|onContext:aiChat\.\w+|onSettingChanged:aiChat\.\w+)$/, `${step.id}: ${e}`);
        if (e.startsWith('onCommand:')) assert.ok(commandIds.has(e.slice('onCommand:'.length)), `${step.id}: ${e} is a declared command`);
      }
      assert.ok(existsSync(path.join(root, step.media.markdown)), `${step.id}: ${step.media.markdown} exists`);
    }
  });
});
