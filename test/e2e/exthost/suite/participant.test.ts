// @aichat's handler against the real workspace, file system and secret-store API: instructions
// that hold the API key (the project's instructions file or the aiChat.systemPrompt setting)
// are refused before anything is sent, with a button to where the key is.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ApiKeyStore, API_KEY_SECRET } from '../../../../src/extension/account/keyStore';
import { answerRequest, type ParticipantDeps } from '../../../../src/extension/chat/native/participant';
import { InstructionsService } from '../../../../src/extension/editor/instructions';
import { memento, secretStorage, silent } from './fakes';

const KEY = 'sk-participant-check-7f3a9c1e5b2d4068';

describe('@aichat and instructions that hold the API key', () => {
  const file = () => {
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'the test window has a workspace folder');
    return vscode.Uri.joinPath(f.uri, 'AGENTS.md');
  };
  const write = (text: string) => vscode.workspace.fs.writeFile(file(), new TextEncoder().encode(text));
  after(async () => {
    await vscode.workspace.fs.delete(file()).then(undefined, () => undefined);
  });

  /** Runs one request; returns what the Chat view was shown and whether a turn was started. */
  async function ask(systemPrompt: string): Promise<{ text: string; buttons: vscode.Command[]; sent: boolean }> {
    const keys = new ApiKeyStore(secretStorage({ [API_KEY_SECRET]: KEY }));
    const instructions = new InstructionsService(memento(), silent);
    let sent = false;
    const deps = {
      keys,
      instructions,
      config: { settings: { model: 'swift-chat', systemPrompt, contextMaxTokens: 8_000 } },
      models: { models: [], costOf: () => 1 },
      // Starting a turn is the first step of sending: stop there.
      turns: {
        nativeTurn: () => {
          sent = true;
          throw new Error('sent');
        },
      },
      clients: { get: () => assert.fail('no client is asked for') },
      logger: silent,
    } as unknown as ParticipantDeps;
    const text: string[] = [];
    const buttons: vscode.Command[] = [];
    const stream = { markdown: (t: string) => void text.push(t), button: (b: vscode.Command) => void buttons.push(b), progress: () => undefined } as unknown as vscode.ChatResponseStream;
    const request = { prompt: 'What does this project do?' } as unknown as vscode.ChatRequest;
    try {
      await answerRequest(deps, request, { history: [] }, stream, new vscode.CancellationTokenSource().token).catch((err: Error) => {
        if (err.message !== 'sent') throw err;
      });
    } finally {
      instructions.dispose();
      keys.dispose();
    }
    return { text: text.join(''), buttons, sent };
  }

  it('a project instructions file that holds the key: nothing is sent, and the button opens the file', async () => {
    await write(`# Rules\n\nUse the key ${KEY} for the service.\n`);
    const r = await ask('Be brief.');
    assert.equal(r.sent, false, 'the request was sent');
    assert.match(r.text, /instructions sent with @aichat .* hold your AI Chat API key, so nothing was sent/);
    assert.ok(!r.text.includes(KEY), 'the answer does not repeat the key');
    assert.deepEqual(r.buttons.map((b) => b.command), ['aiChat.openInstructions']);
  });

  it('the aiChat.systemPrompt setting that holds the key: nothing is sent, and the button opens that setting', async () => {
    await write('# Rules\n\nAnswer in English.\n');
    const r = await ask(`My key is ${KEY}.`);
    assert.equal(r.sent, false, 'the request was sent');
    assert.match(r.text, /hold your AI Chat API key, so nothing was sent/);
    assert.deepEqual(r.buttons.map((b) => [b.command, b.arguments]), [['workbench.action.openSettings', ['aiChat.systemPrompt']]]);
  });

  it('instructions without the key: the request goes on to be sent', async () => {
    await write('# Rules\n\nAnswer in English.\n');
    const r = await ask('Be brief.');
    assert.equal(r.text, '');
    assert.equal(r.sent, true, 'the request was not sent');
  });
});
