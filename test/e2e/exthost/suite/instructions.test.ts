// The project's instructions file is read when the chat or @aichat first needs it, not at
// activation: what uses it first must wait for that read, against the real workspace and file
// system API.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { InstructionsService } from '../../../../src/extension/pipeline/instructionsFile';
import { closeAllEditors, memento, silent } from './fakes';

describe('Project instructions built on first use', () => {
  const folder = () => {
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'the test window has a workspace folder');
    return f.uri;
  };
  const file = () => vscode.Uri.joinPath(folder(), 'AGENTS.md');
  const rule = 'Answer in the style of a ship log (instructions check).';

  before(async () => {
    await vscode.workspace.fs.writeFile(file(), new TextEncoder().encode(`# Rules\n\n${rule}\n`));
  });
  after(async () => {
    await closeAllEditors();
    await vscode.workspace.fs.delete(file()).then(undefined, () => undefined);
  });

  it('a service built just now knows the file once `ready` settles; the system prompt then carries it', async () => {
    const service = new InstructionsService(memento(), silent);
    try {
      // Before the first read the service cannot know the file: this is why the first use waits.
      assert.equal(service.current.state, 'missing');
      await service.ready;
      assert.equal(service.current.state, 'active');
      const prompt = service.systemPrompt('Own prompt.');
      assert.ok(prompt.startsWith('Own prompt.'), prompt);
      assert.ok(prompt.includes(rule), prompt);
    } finally {
      service.dispose();
    }
  });

  it('Open Project Instructions on a service built just now opens the file instead of saying there is none', async () => {
    const service = new InstructionsService(memento(), silent);
    try {
      await service.open();
      assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), file().toString());
    } finally {
      service.dispose();
    }
  });
});
