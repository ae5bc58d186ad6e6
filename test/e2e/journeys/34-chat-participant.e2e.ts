// Journey 34: @aichat in VS Code's Chat view (and the models as a language model provider,
// registered beside it). What this code-server offers: the Chat API
// (vscode.chat) exists, so @aichat is registered; but the Chat view itself is not set up: the
// only chat entry of the command palette is Copilot's setup ("Use AI Features with Copilot for
// free..."), which needs a GitHub sign-in, so no Chat view opens in which to ask @aichat. The
// journey asserts exactly that, so that a code-server that opens the Chat view makes it fail
// (and the journey then asks @aichat there).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { e2e, extensionLogs } from '../setup';
import { readyWithKey, resetServer } from '../steps';
import { waitFor } from '../workbench';

describe('Journey 34: @aichat in the Chat view', () => {
  it('registers @aichat and the models provider where the host has the APIs; this code-server has no Chat view to ask it in', async () => {
    resetServer();
    const wb = await readyWithKey();
    const { demo, page } = e2e();

    const log = await waitFor(
      () => {
        const text = extensionLogs(demo.profile.userDataDir)
          .map((f) => readFileSync(f, 'utf8'))
          .join('\n');
        return /@aichat (registered in the Chat view|is not registered)/.test(text) ? text : undefined;
      },
      'the log does not say whether @aichat was registered',
    );
    assert.match(log, /@aichat registered in the Chat view/, 'code-server 1.139 offers vscode.chat');
    assert.doesNotMatch(log, /@aichat could not be registered/);
    // The models as a language model provider: registered too (the extension-host tier uses them
    // through vscode.lm); the palette has no model management in which a user would pick them.
    assert.match(log, /The AI Chat models are offered to VS Code chat/, 'code-server 1.139 offers vscode.lm.registerLanguageModelChatProvider');

    await wb.openPalette();
    const chatCommands = async (query: string) => {
      await wb.quickInputBox().fill(query);
      await page.waitForTimeout(1000);
      return (await wb.quickPickLabels()).filter((l) => !l.startsWith('AI Chat:'));
    };
    const setup = await chatCommands('>Copilot');
    assert.ok(setup.some((l) => /Use AI Features with Copilot/.test(l)), `the Chat view's setup entry: ${setup.join(' | ')}`);
    const open = await chatCommands('>Chat: Open Chat');
    assert.deepEqual(
      open.filter((l) => /^Chat: (Open Chat|New Chat)/.test(l)),
      [],
      'a Chat view to open: ask @aichat in it here (this code-server did not offer one)',
    );
    const manage = await chatCommands('>Language Models');
    assert.deepEqual(
      manage.filter((l) => /Manage Language Models|Manage Models/i.test(l)),
      [],
      'a model manager to open: check the AI Chat models and their cost there (this code-server did not offer one)',
    );
    await wb.closeQuickInput();
  });
});
