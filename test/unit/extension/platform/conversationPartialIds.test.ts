import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileConversationStorage } from '../../../../src/extension/platform/conversationFiles';

describe('conversation files: side files listed in one look', () => {
  let root: string;
  beforeEach(async () => (root = await mkdtemp(join(tmpdir(), 'ai-chat-partials-'))));
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('names the conversations that have a side file, and only those', async () => {
    const storage = new FileConversationStorage(root);
    await storage.appendLog('plain', '{}\n');
    await storage.appendLog('with-reply', '{}\n');
    await storage.appendLog('two-writers', '{}\n');
    await storage.writePartial('with-reply', 'w1', '{}');
    await storage.writePartial('two-writers', 'w1', '{}');
    await storage.writePartial('two-writers', 'w2', '{}');
    await writeFile(join(root, 'conversations', 'notes.txt'), 'x');
    assert.deepEqual([...(await storage.partialIds())].sort(), ['two-writers', 'with-reply']);
    await storage.removePartials('with-reply');
    assert.deepEqual([...(await storage.partialIds())], ['two-writers']);
  });
});
