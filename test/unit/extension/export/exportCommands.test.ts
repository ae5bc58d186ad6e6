// The export room's commands (src/extension/export/exportCommands.ts) run against a small
// stand-in of the `vscode` API whose file system is the real disk, and a real conversation store
// in memory: Export Chat's two formats, Copy Conversation, and Import Conversation… with what it
// stores, opens, refuses and offers.
import { strict as assert } from 'node:assert';
import { closeSync, ftruncateSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import NodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConversationStore, exportFileText, parseExportText, type Conversation } from '../../../../src/core';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { everyField } from '../../core/export/fixtures';

const USER_KEY = 'sk-export-check-9a8b7c6d5e4f';

describe('export room: Export Chat, Copy Conversation, Import Conversation…', () => {
  const Module = NodeModule as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const realResolve = Module._resolveFilename;
  const FAKE_ID = join(tmpdir(), 'aichat-fake-vscode-export.cjs');
  let dir = '';
  const handlers = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  const shown = { infos: [] as string[], errors: [] as string[], warnings: [] as string[], status: [] as string[], picks: 0, reads: 0, documents: [] as string[], progress: [] as string[] };
  /** What the dialogs answer: the quick pick item whose `format` is this, the save and open paths, the modal's button. */
  const answers = {
    format: undefined as string | undefined,
    save: undefined as string | undefined,
    open: undefined as string | undefined,
    button: undefined as string | undefined,
    /** The range step: the whole conversation unless turns are given (first and last question, 0-based). */
    turns: undefined as [number, number] | undefined,
    /** Cancel pressed in the notification once this is true. */
    cancelWhen: undefined as (() => boolean) | undefined,
  };
  /** The titles the range step's picks were shown with. */
  const rangePicks: string[] = [];
  let clipboard = '';

  class Uri {
    constructor(
      readonly scheme: string,
      readonly path: string,
    ) {}
    get fsPath() {
      return this.path;
    }
    static file(p: string) {
      return new Uri('file', p);
    }
    static joinPath(base: Uri, ...parts: string[]) {
      return new Uri(base.scheme, join(base.path, ...parts));
    }
  }
  const t = (s: string, ...args: unknown[]) => s.replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)]));
  const fake = {
    Uri,
    ProgressLocation: { Window: 10, Notification: 15 },
    l10n: { t },
    commands: {
      registerCommand: (id: string, fn: (...args: unknown[]) => Promise<unknown>) => {
        handlers.set(id, fn);
        return { dispose() {} };
      },
    },
    env: { clipboard: { writeText: async (text: string) => void (clipboard = text) } },
    window: {
      showQuickPick: async (items: Array<{ format?: string; scope?: string; turn?: number }>, options: { placeHolder?: string }) => {
        if (items[0] && 'scope' in items[0]) {
          rangePicks.push(options.placeHolder ?? '');
          return items.find((i) => i.scope === (answers.turns ? 'range' : 'whole'));
        }
        if (items[0] && 'turn' in items[0]) {
          rangePicks.push(options.placeHolder ?? '');
          const want = /first/.test(options.placeHolder ?? '') ? answers.turns?.[0] : answers.turns?.[1];
          return items.find((i) => i.turn === want);
        }
        shown.picks++;
        return items.find((i) => i.format === answers.format);
      },
      showSaveDialog: async () => (answers.save ? Uri.file(answers.save) : undefined),
      showOpenDialog: async () => (answers.open ? [Uri.file(answers.open)] : undefined),
      showInformationMessage: async (m: string, ...rest: unknown[]) => {
        shown.infos.push(m);
        return rest.find((r) => r === answers.button);
      },
      showErrorMessage: async (m: string) => void shown.errors.push(m),
      showWarningMessage: async (m: string) => void shown.warnings.push(m),
      setStatusBarMessage: (m: string) => {
        shown.status.push(m);
        return { dispose() {} };
      },
      withProgress: async (_o: unknown, task: (p: unknown, t: unknown) => Promise<unknown>) => {
        // Cancel pressed once answers.cancelWhen says so.
        const token = { get isCancellationRequested() { return answers.cancelWhen?.() === true; } };
        return task({ report: (r: { message?: string }) => void shown.progress.push(r.message ?? '') }, token);
      },
      showTextDocument: async () => undefined,
    },
    workspace: {
      get workspaceFolders() {
        return [{ uri: Uri.file(dir), index: 0, name: 'ws' }];
      },
      asRelativePath: (u: Uri) => u.path.slice(dir.length + 1),
      openTextDocument: async (o: { content: string }) => {
        shown.documents.push(o.content);
        return {};
      },
      fs: {
        stat: async (u: Uri) => ({ type: 1, size: statSync(u.path).size, ctime: 0, mtime: 0 }),
        readFile: async (u: Uri) => {
          shown.reads++;
          return new Uint8Array(readFileSync(u.path));
        },
        writeFile: async (u: Uri, bytes: Uint8Array) => writeFileSync(u.path, bytes),
      },
    },
  };

  const logger = { info() {}, warn() {}, error() {}, debug() {}, trace() {} };
  let storage: MemoryConversationStorage;
  let store: ConversationStore;
  let current: Conversation;
  let opened: string[];
  const run = (id: string, ...args: unknown[]) => handlers.get(id)!(...args);

  before(() => {
    (globalThis as Record<string, unknown>).__aichatFakeVscodeExport = fake;
    writeFileSync(FAKE_ID, 'module.exports = globalThis.__aichatFakeVscodeExport;\n');
    Module._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? FAKE_ID : realResolve.call(this, request, ...rest);
    };
    // Loaded with this stand-in, whatever another test loaded them with.
    for (const key of Object.keys(require.cache)) if (/src[\\/]extension[\\/](platform[\\/]commands|export[\\/])/.test(key)) delete require.cache[key];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { registerExportCommands } = require('../../../../src/extension/export/exportCommands') as typeof import('../../../../src/extension/export/exportCommands');
    registerExportCommands(
      {
        current: async () => current,
        store: async () => store,
        open: async (id) => {
          opened.push(id);
          return (await store.load(id)) !== undefined;
        },
        holdsKey: async (text) => text.includes(USER_KEY),
      },
      logger,
    );
  });
  after(() => {
    Module._resolveFilename = realResolve;
    rmSync(FAKE_ID, { force: true });
  });
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'aichat-export-')));
    for (const list of [shown.infos, shown.errors, shown.warnings, shown.status, shown.documents, shown.progress]) list.length = 0;
    shown.picks = 0;
    shown.reads = 0;
    Object.assign(answers, { format: undefined, save: undefined, open: undefined, button: undefined, turns: undefined, cancelWhen: undefined });
    shown.progress.length = 0;
    rangePicks.length = 0;
    clipboard = '';
    storage = new MemoryConversationStorage();
    store = new ConversationStore(storage, { searchPersistDelayMs: 0 });
    current = everyField();
    opened = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('registers Export Chat, Copy Conversation and Import Conversation…', () => {
    assert.deepEqual([...handlers.keys()].sort(), ['aiChat.copyConversation', 'aiChat.exportAll', 'aiChat.exportChat', 'aiChat.importAll', 'aiChat.importConversation']);
  });

  it('Export Chat → Conversation file: written where the user chose, the whole conversation in it', async () => {
    answers.format = 'file';
    answers.save = join(dir, 'saved.aichat.json');
    await run('aiChat.exportChat');
    const parsed = parseExportText(readFileSync(answers.save, 'utf8'));
    assert.ok(parsed.ok);
    const { version: _v, ...expected } = everyField();
    assert.deepEqual(parsed.file.conversation, expected);
    assert.equal(shown.infos.length, 1);
    assert.match(shown.infos[0], /^Exported “Every field.*” \(6 messages\) to saved\.aichat\.json\.$/);
  });

  it('Export Chat → Markdown opens the Markdown document; Escape on the pick or the save dialog writes nothing', async () => {
    answers.format = 'markdown';
    await run('aiChat.exportChat');
    assert.equal(shown.documents.length, 1);
    assert.match(shown.documents[0], /^# Every field/);
    answers.format = undefined;
    await run('aiChat.exportChat');
    answers.format = 'file';
    await run('aiChat.exportChat');
    assert.equal(shown.documents.length, 1);
    assert.equal(shown.infos.length, 0);
  });

  it('an empty conversation: nothing to export or copy, said, and no pick', async () => {
    current = store.create();
    await run('aiChat.exportChat');
    await run('aiChat.copyConversation');
    assert.equal(shown.picks, 0);
    assert.equal(clipboard, '');
    assert.deepEqual(shown.infos, ['AI Chat: the current conversation is empty; nothing to export.', 'AI Chat: the current conversation is empty; nothing to copy.']);
  });

  it('Copy Conversation puts the Markdown on the clipboard', async () => {
    await run('aiChat.copyConversation');
    assert.match(clipboard, /^# Every field/);
    assert.match(clipboard, /## You\n\nParse this/);
    assert.equal(shown.status.length, 1);
  });

  it('Import: stored under its own id and opened; the same file again offers the first (Open It opens it), nothing stored twice', async () => {
    answers.open = join(dir, 'in.aichat.json');
    writeFileSync(answers.open, exportFileText(everyField()));
    await run('aiChat.importConversation');
    const listed = await store.list();
    assert.equal(listed.length, 1);
    assert.notEqual(listed[0].id, everyField().id);
    assert.deepEqual(opened, [listed[0].id]);
    assert.match(shown.status[0], /^\$\(check\) Imported “Every field/);
    await run('aiChat.importConversation');
    assert.equal(shown.infos.length, 1);
    assert.match(shown.infos[0], /is already in History$/);
    assert.deepEqual(opened, [listed[0].id], 'not opened unless asked');
    answers.button = 'Open It';
    await run('aiChat.importConversation');
    assert.deepEqual(opened, [listed[0].id, listed[0].id]);
    assert.equal((await store.list()).length, 1);
    assert.equal(shown.errors.length, 0);
  });

  it('Import of a newer version or a broken file: an error naming the file and what is wrong; nothing stored or opened', async () => {
    const file = JSON.parse(exportFileText(everyField())) as { version: number; conversation: { messages: Array<{ status: string }> } };
    answers.open = join(dir, 'newer.aichat.json');
    writeFileSync(answers.open, JSON.stringify({ ...file, version: 2 }));
    await run('aiChat.importConversation');
    file.conversation.messages[0].status = 'done';
    answers.open = join(dir, 'broken.aichat.json');
    writeFileSync(answers.open, JSON.stringify(file));
    await run('aiChat.importConversation');
    assert.equal(shown.errors.length, 2);
    assert.match(shown.errors[0], /^“newer\.aichat\.json” was not imported: the file was written by a newer version of AI Chat \(conversation file version 2\); this version reads version 1\./);
    assert.match(shown.errors[1], /^“broken\.aichat\.json” was not imported: the file is damaged: conversation\.messages\[0\]\.status: /);
    assert.deepEqual(await store.list(), []);
    assert.deepEqual(opened, []);
    assert.equal(storage.data.size, 0);
  });

  it("Import of a file that holds the user's API key: refused saying so, nothing stored or opened (its turns would go with the next request)", async () => {
    const conv = everyField();
    conv.messages[0].content = `my key is ${USER_KEY}`;
    answers.open = join(dir, 'leaky.aichat.json');
    writeFileSync(answers.open, exportFileText(conv));
    await run('aiChat.importConversation');
    assert.equal(shown.errors.length, 1);
    assert.match(shown.errors[0], /^“leaky\.aichat\.json” was not imported: it holds your AI Chat API key/);
    assert.deepEqual(await store.list(), []);
    assert.deepEqual(opened, []);
  });

  it('Import of a file larger than the limit: refused from its size, never read', async () => {
    answers.open = join(dir, 'huge.aichat.json');
    const fd = openSync(answers.open, 'w');
    ftruncateSync(fd, 300 * 1024 * 1024);
    closeSync(fd);
    await run('aiChat.importConversation');
    assert.equal(shown.reads, 0);
    assert.equal(shown.errors.length, 1);
    assert.match(shown.errors[0], /the file is 300 MB; the largest conversation file AI Chat imports is 256 MB\./);
  });

  it('Export Chat with an id (History\'s Export button) exports that saved conversation, not the one on screen', async () => {
    const saved = everyField();
    saved.id = 'conv-saved';
    saved.title = 'Saved one';
    delete saved.importedFrom;
    await store.restore(saved);
    answers.format = 'file';
    answers.save = join(dir, 'from-history.aichat.json');
    await run('aiChat.exportChat', 'conv-saved');
    const parsed = parseExportText(readFileSync(answers.save, 'utf8'));
    assert.ok(parsed.ok);
    assert.equal(parsed.file.conversation.id, 'conv-saved');
    assert.equal(parsed.file.conversation.title, 'Saved one');
    await run('aiChat.exportChat', 'conv-missing');
    assert.deepEqual(shown.warnings, ['That conversation could not be read: its file is missing or damaged.']);
  });

  it('Export Chat asks for the whole conversation or a range of turns, and every format takes the range', async () => {
    answers.format = 'file';
    answers.turns = [1, 2];
    answers.save = join(dir, 'range.aichat.json');
    await run('aiChat.exportChat');
    assert.deepEqual(rangePicks, ['Which turns?', 'The first question to include', 'The last question to include (its replies go with it)']);
    const parsed = parseExportText(readFileSync(answers.save, 'utf8'));
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.file.conversation.messages.map((m) => m.id), ['msg_002', 'msg_003', 'msg_004', 'msg_005']);
    assert.match(parsed.file.conversation.title, /\(turns 2–3 of 3\)$/);
    answers.format = 'markdown';
    answers.turns = [0, 0];
    await run('aiChat.exportChat');
    assert.match(shown.documents[0], /Parse this/);
    assert.doesNotMatch(shown.documents[0], /And again/);
    answers.format = 'html';
    answers.turns = [2, 2];
    answers.save = join(dir, 'range.html');
    await run('aiChat.exportChat');
    const html = readFileSync(answers.save, 'utf8');
    assert.match(html, /Stop early/);
    assert.doesNotMatch(html, /Parse this|And again/);
    assert.equal(html.match(/<article /g)?.length, 2);
  });

  it('Copy Conversation takes a range too; Escape on the range step copies nothing', async () => {
    answers.turns = [1, 1];
    await run('aiChat.copyConversation');
    assert.match(clipboard, /And again/);
    assert.doesNotMatch(clipboard, /Parse this|Stop early/);
    clipboard = '';
    answers.turns = [9, 9];
    await run('aiChat.copyConversation');
    assert.equal(clipboard, '');
  });

  it('Export Chat → Web page: one .html file with no script, the conversation laid out as in the chat', async () => {
    answers.format = 'html';
    answers.save = join(dir, 'page.html');
    await run('aiChat.exportChat');
    const html = readFileSync(answers.save, 'utf8');
    assert.match(html, /^<!doctype html>/);
    assert.doesNotMatch(html, /<script/i);
    assert.match(html, /Content-Security-Policy/);
    assert.equal(html.match(/<article /g)?.length, 6);
    assert.match(shown.infos[0], /^Exported “Every field.*” \(6 messages\) to page\.html\.$/);
  });

  /** A History of `count` saved conversations (distinct titles and dates). */
  async function saved(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const conv = everyField();
      conv.id = `conv-all-${i}`;
      conv.title = `Saved ${i}`;
      conv.createdAt = new Date(Date.parse('2026-11-01T00:00:00.000Z') + i * 1000).toISOString();
      delete conv.importedFrom;
      await store.restore(conv);
    }
  }

  it('Export All writes every conversation into one archive; Import All brings them into another History with progress, then skips them as duplicates', async () => {
    await saved(3);
    answers.save = join(dir, 'all.aichat-archive.jsonl');
    await run('aiChat.exportAll');
    assert.deepEqual(shown.infos, ['Exported 3 conversations to all.aichat-archive.jsonl.']);
    assert.equal(readFileSync(answers.save, 'utf8').trimEnd().split('\n').length, 4);
    store = new ConversationStore(new MemoryConversationStorage(), { searchPersistDelayMs: 0 });
    answers.open = answers.save;
    await run('aiChat.importAll');
    assert.equal(shown.infos[1], 'Imported 3 conversations of 3.');
    assert.ok(shown.progress.includes('3 of 3'), shown.progress.join(' | '));
    assert.deepEqual((await store.list()).map((c) => c.title).sort(), ['Saved 0', 'Saved 1', 'Saved 2']);
    await run('aiChat.importAll');
    assert.equal(shown.infos[2], 'Imported 0 conversations of 3. 3 were already in History and were skipped.');
    assert.equal((await store.list()).length, 3);
    assert.deepEqual(shown.errors, []);
  });

  it('Import All cancelled half way says how many came in; a newer archive is refused saying so; Export All of an empty History says so', async () => {
    await run('aiChat.exportAll');
    assert.deepEqual(shown.infos, ['AI Chat: History has no conversation to export.']);
    await saved(40);
    answers.save = join(dir, 'all.aichat-archive.jsonl');
    await run('aiChat.exportAll');
    const disk = new MemoryConversationStorage();
    store = new ConversationStore(disk, { searchPersistDelayMs: 0 });
    answers.open = answers.save;
    answers.cancelWhen = () => disk.data.size >= 8;
    await run('aiChat.importAll');
    const listed = (await store.list()).length;
    assert.ok(listed >= 8 && listed < 40, `${listed} came in`);
    assert.equal(shown.infos.at(-1), `Import All was cancelled: ${listed} of 40 conversations came in, each whole; the others were not imported.`);
    answers.cancelWhen = undefined;
    const lines = readFileSync(answers.save, 'utf8').split('\n');
    lines[0] = lines[0].replace('"version":1', '"version":7');
    writeFileSync(answers.open, lines.join('\n'));
    await run('aiChat.importAll');
    assert.match(shown.errors[0], /^“all\.aichat-archive\.jsonl” was not imported: the archive was written by a newer version of AI Chat \(archive version 7\)/);
    assert.equal((await store.list()).length, listed);
  });
});
