// @aichat's handler against the real workspace, file system and secret-store API: instructions
// that hold the API key (the project's instructions file or the aiChat.systemPrompt setting)
// are refused before anything is sent, with a button to where the key is.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ApiKeyStore, API_KEY_SECRET } from '../../../../src/extension/account/keyStore';
import { answerRequest, type ParticipantDeps } from '../../../../src/extension/chat/native/participant';
import { SEND_HELD_COMMAND, sendHeld } from '../../../../src/extension/chat/native/slashCommands';
import { HeldSends } from '../../../../src/core/chat/heldSends';
import { answerLmRequest } from '../../../../src/extension/chat/native/lmProvider';
import { TurnService, type TurnServiceDeps } from '../../../../src/extension/pipeline/turnService';
import { InstructionsService } from '../../../../src/extension/pipeline/instructionsFile';
import { PromptFiles } from '../../../../src/extension/promptFiles/promptFileWatcher';
import type { ModelLike } from '../../../../src/core';
import { closeAllEditors, memento, secretStorage, silent } from './fakes';

const KEY = 'sk-participant-check-7f3a9c1e5b2d4068';

/**
 * The one turn pipeline as the extension builds it, over the real key store and instructions, with
 * the service's side stood in for: `client` answers (none: no client may be asked for), and
 * `onStart` is told when a turn's accounting starts (the first step of sending).
 */
function pipeline(
  keys: ApiKeyStore,
  instructions: InstructionsService,
  opts: { systemPrompt?: string; client?: unknown; onStart?: () => void; models?: ModelLike[] } = {},
): TurnService {
  const models = opts.models ?? [];
  return new TurnService({
    keys,
    instructions: () => instructions,
    config: { settings: { model: 'swift-chat', systemPrompt: opts.systemPrompt ?? '', contextMaxTokens: 8_000, temperature: 1, search: false, baseUrl: 'http://127.0.0.1:9' } },
    models: { models, costOf: (id: string) => models.find((m) => m.valueId === id)?.costInCreditPerUse ?? 1 },
    balance: { state: {} },
    accounting: {
      start: () => {
        opts.onStart?.();
        return { backend: (inner: unknown) => inner, settle: async () => ({ pending: false }) };
      },
    },
    clients: { get: () => opts.client ?? assert.fail('no client is asked for') },
    logger: silent,
  } as unknown as TurnServiceDeps);
}

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
    const turns = pipeline(keys, instructions, {
      systemPrompt,
      onStart: () => {
        sent = true;
        throw new Error('sent');
      },
    });
    const deps: ParticipantDeps = { extensionUri: vscode.Uri.file('/'), turns, logger: silent, openInChat: async () => undefined };
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
    // The gate's wording, the same as the panel's.
    assert.match(r.text, /project instructions file holds your AI Chat API key, so nothing was sent/);
    assert.ok(!r.text.includes(KEY), 'the answer does not repeat the key');
    assert.deepEqual(r.buttons.map((b) => b.command), ['aiChat.openInstructions', 'aiChat.toggleInstructions']);
  });

  it('the aiChat.systemPrompt setting that holds the key: nothing is sent, and the button opens that setting', async () => {
    await write('# Rules\n\nAnswer in English.\n');
    const r = await ask(`My key is ${KEY}.`);
    assert.equal(r.sent, false, 'the request was sent');
    assert.match(r.text, /system prompt \(the aiChat.systemPrompt setting\) holds your AI Chat API key, so nothing was sent/);
    assert.deepEqual(r.buttons.map((b) => [b.command, b.arguments]), [['workbench.action.openSettings', ['aiChat.systemPrompt']]]);
  });

  it('instructions without the key: the request goes on to be sent', async () => {
    await write('# Rules\n\nAnswer in English.\n');
    const r = await ask('Be brief.');
    assert.equal(r.text, '');
    assert.equal(r.sent, true, 'the request was not sent');
  });
});

describe('@aichat: a long reply reaches the Chat view in a bounded number of updates', () => {
  /** A streamed reply of `parts` text parts of `size` characters (with a code block in the middle), through the pipeline. */
  async function answer(parts: number, size: number): Promise<{ calls: string[]; buttons: vscode.Command[]; sent: string }> {
    const texts = Array.from({ length: parts }, (_, i) => (i === Math.floor(parts / 2) ? '\n```ts\nconst x = 1;\n```\n' : `w${i} `.padEnd(size, '.')));
    const r = await streamed([{ event: 'f', messageId: 'm' }, ...texts.map((data) => ({ event: '0', data }))]);
    return { calls: r.calls, buttons: r.buttons, sent: texts.join('') };
  }

  /** @aichat answering with a stream of `events` (then e and d), through the pipeline: what the Chat view was given. */
  async function streamed(events: unknown[]): Promise<{ calls: string[]; buttons: vscode.Command[]; progress: string[] }> {
    const keys = new ApiKeyStore(secretStorage({ [API_KEY_SECRET]: KEY }));
    const instructions = new InstructionsService(memento(), silent);
    const client = {
      chat: () => Promise.reject(new Error('not used')),
      chatStream: async () => ({
        abort() {},
        async *[Symbol.asyncIterator]() {
          for (const event of events) {
            await new Promise((r) => setImmediate(r));
            yield event;
          }
          yield { event: 'e', finishReason: 'stop', isContinued: false };
          yield { event: 'd', finishReason: 'stop' };
        },
      }),
    };
    const turns = pipeline(keys, instructions, { client });
    const calls: string[] = [];
    const buttons: vscode.Command[] = [];
    const progress: string[] = [];
    const stream = {
      markdown: (t: string) => void calls.push(t),
      button: (b: vscode.Command) => void buttons.push(b),
      progress: (p: string) => void progress.push(p),
    } as unknown as vscode.ChatResponseStream;
    try {
      await answerRequest({ extensionUri: vscode.Uri.file('/'), turns, logger: silent, openInChat: async () => undefined }, { prompt: 'a long one' } as unknown as vscode.ChatRequest, { history: [] }, stream, new vscode.CancellationTokenSource().token);
    } finally {
      instructions.dispose();
      keys.dispose();
    }
    return { calls, buttons, progress };
  }

  it('a reasoning reply shows Thinking…, a search Searching… and its sources, as the panel does', async function () {
    this.timeout(60_000);
    const r = await streamed([
      { event: 'f', messageId: 'm' },
      { event: 'g', data: 'Weighing the tides. ' },
      { event: '9', toolCallId: 't1', toolName: 'search', args: { q: 'neap tide' } },
      { event: 'a', toolCallId: 't1', result: { ok: true } },
      { event: 'h', sourceType: 'url', id: 's1', url: 'https://tides.example/neap', title: 'Neap tides' },
      { event: '0', data: 'Neap tides are the weakest.' },
    ]);
    assert.deepEqual(r.progress, ['Thinking…', 'Searching…']);
    const shown = r.calls.join('');
    assert.match(shown, /^Neap tides are the weakest\./);
    assert.match(shown, /Neap tides[\s\S]*https:\/\/tides\.example\/neap/, 'the source is listed after the reply');
  });

  it('5,000 parts (40 KB): the whole reply, in far fewer updates than parts, never split inside its code block', async function () {
    this.timeout(60_000);
    const r = await answer(5_000, 8);
    assert.equal(r.calls.join(''), r.sent, 'every character arrives, in order');
    assert.ok(r.calls.length < 500, `${r.calls.length} stream.markdown calls for 5,000 parts`);
    const fence = r.calls.findIndex((c) => c.includes('```ts'));
    assert.ok(fence >= 0 && r.calls[fence].includes('const x = 1;\n```'), 'the code block reached the Chat view in one update');
    assert.deepEqual(r.buttons, [], 'no cut, no button');
  });

  it('a reply past the size the Chat view shows well: its beginning, a note, and Open in AI Chat', async function () {
    this.timeout(60_000);
    const r = await answer(2_000, 50);
    const shown = r.calls.join('');
    assert.ok(shown.length < r.sent.length, 'the Chat view did not get all of it');
    assert.ok(r.sent.startsWith(shown.slice(0, 50_000)), 'what it got is the beginning');
    assert.match(shown, new RegExp(`The reply is ${r.sent.length.toLocaleString('en-US')} characters long; the Chat view shows its beginning`));
    assert.deepEqual(r.buttons.map((b) => [b.command, b.title]), [['aiChat.openReplyInChat', 'Open in AI Chat']]);
  });
});

describe('The language model provider through the turn pipeline: refusals are plain sentences', () => {
  /** One provider request with `key` stored (or none); what was thrown, and whether a turn started. */
  async function request(key: string | undefined, text: string): Promise<{ error: Error | undefined; sent: boolean }> {
    const keys = new ApiKeyStore(secretStorage(key ? { [API_KEY_SECRET]: key } : {}));
    const instructions = new InstructionsService(memento(), silent);
    let sent = false;
    const turns = pipeline(keys, instructions, {
      onStart: () => {
        sent = true;
        throw new Error('sent');
      },
    });
    let error: Error | undefined;
    try {
      await answerLmRequest(turns, { id: 'aichat-set-api-key', maxInputTokens: 3_000 }, [{ role: 1, content: [{ value: text }] }], () => undefined, new vscode.CancellationTokenSource().token);
    } catch (err) {
      error = err as Error;
    } finally {
      instructions.dispose();
      keys.dispose();
    }
    return { error, sent };
  }

  it('no key set: a plain sentence with the command that sets it, no stack of the extension\'s files', async () => {
    const r = await request(undefined, 'hello');
    assert.equal(r.sent, false);
    assert.match(r.error?.message ?? '', /^No API key is set\. Set your API key to chat\. Run "AI Chat: Set API Key" from the Command Palette\.$/);
    assert.doesNotMatch(r.error?.stack ?? '', /\.(ts|js):\d+/, 'no file path in what VS Code shows');
  });

  it('a request that holds the key: the gate\'s refusal, the same words as @aichat and the panel, nothing sent', async () => {
    const r = await request(KEY, `is ${KEY} right?`);
    assert.equal(r.sent, false);
    assert.match(r.error?.message ?? '', /holds your AI Chat API key \(in its text or an attached file\)\. Take the key out, then send again: nothing was sent or saved\./);
    assert.ok(!(r.error?.message ?? '').includes(KEY));
  });
});

describe('@aichat slash commands: the chat\'s commands and prompt files, expanded as the panel expands them', function () {
  this.timeout(60_000);
  const MODELS: ModelLike[] = [
    { valueId: 'swift-chat', name: 'Swift Chat', type: 'text', costInCreditPerUse: 1, isActive: true },
    { valueId: 'deep-think', name: 'Deep Think', type: 'text', costInCreditPerUse: 3, isActive: true },
  ];
  const root = () => {
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'the test window has a workspace folder');
    return f.uri;
  };
  const uri = (...parts: string[]) => vscode.Uri.joinPath(root(), ...parts);
  const write = (path: string, text: string) => vscode.workspace.fs.writeFile(uri(...path.split('/')), new TextEncoder().encode(text));
  const files = ['.github/prompts/aichat-review.prompt.md', '.github/prompts/aichat-other.prompt.md', '.claude/commands/aichat-issue.md', 'aichat-target.ts'];
  let prompts: PromptFiles;
  let editor: vscode.TextEditor;

  before(async () => {
    await write('.github/prompts/aichat-review.prompt.md', '---\ndescription: Review for the team\nmodel: deep-think\ntools: [codebase]\n---\nReview ${file} for ${input:focus}:\n\n${selection}\n');
    await write('.github/prompts/aichat-other.prompt.md', '---\nmodel: gpt-unknown\n---\nCheck ${selection}\n');
    await write('.claude/commands/aichat-issue.md', 'Fix issue #$ARGUMENTS.\n');
    await write('aichat-target.ts', 'export const total = 40 + 2;\n');
    editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri('aichat-target.ts')));
    editor.selection = new vscode.Selection(0, 0, 0, 29);
    prompts = new PromptFiles(silent);
    await prompts.ready;
  });

  after(async () => {
    prompts?.dispose();
    await closeAllEditors();
    for (const f of files) await vscode.workspace.fs.delete(uri(...f.split('/'))).then(undefined, () => undefined);
  });

  /** One @aichat request through the pipeline: what the Chat view showed, and the request sent (if any). */
  async function ask(
    request: { prompt: string; command?: string; references?: vscode.ChatPromptReference[] },
    answers: string[] = [],
    opts: { unloaded?: boolean; held?: HeldSends; contextMaxTokens?: number } = {},
  ): Promise<{ shown: string; buttons: vscode.Command[]; sent?: { model: string; last: string }; asked: vscode.InputBoxOptions[]; result: vscode.ChatResult; references: unknown[] }> {
    const keys = new ApiKeyStore(secretStorage({ [API_KEY_SECRET]: KEY }));
    const instructions = new InstructionsService(memento(), silent);
    let sent: { model: string; last: string } | undefined;
    const client = {
      chat: () => Promise.reject(new Error('not used')),
      chatStream: async (req: { model: string; messages: { role: string; content: string }[] }) => {
        sent = { model: req.model, last: req.messages[req.messages.length - 1]?.content ?? '' };
        return {
          abort() {},
          async *[Symbol.asyncIterator]() {
            yield { event: 'f', messageId: 'm' };
            yield { event: '0', data: 'Done.' };
            yield { event: 'e', finishReason: 'stop', isContinued: false };
            yield { event: 'd', finishReason: 'stop' };
          },
        };
      },
    };
    const turns = pipeline(keys, instructions, { client, models: MODELS });
    const shown: string[] = [];
    const buttons: vscode.Command[] = [];
    const asked: vscode.InputBoxOptions[] = [];
    let loaded: ModelLike[] | undefined = opts.unloaded ? undefined : MODELS;
    const references: unknown[] = [];
    const stream = { markdown: (t: string) => void shown.push(t), button: (b: vscode.Command) => void buttons.push(b), progress: () => undefined, reference: (r: unknown) => void references.push(r) } as unknown as vscode.ChatResponseStream;
    const deps: ParticipantDeps = {
      extensionUri: vscode.Uri.file('/'),
      turns,
      logger: silent,
      openInChat: async () => undefined,
      prompts: async () => prompts,
      models: () => loaded,
      loadModels: async () => {
        loaded = MODELS;
      },
      selectedModel: () => 'swift-chat',
      ...(opts.contextMaxTokens ? { contextMaxTokens: () => opts.contextMaxTokens ?? 0 } : {}),
      ask: async (o) => (asked.push(o), answers.shift()),
    };
    let result: vscode.ChatResult;
    try {
      result = await answerRequest(deps, { prompt: request.prompt, command: request.command, references: request.references ?? [] }, { history: [] }, stream, new vscode.CancellationTokenSource().token, undefined, opts.held);
    } finally {
      instructions.dispose();
      keys.dispose();
    }
    return { shown: shown.join(''), buttons, ...(sent ? { sent } : {}), asked, result, references };
  }

  it('#file and selections the Chat view attached go after the question as the panel\'s chips go: each once, listed as references', async () => {
    await write('aichat-other.ts', 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n');
    try {
      const target = uri('aichat-target.ts');
      const other = uri('aichat-other.ts');
      const r = await ask({
        prompt: 'What do these do?',
        references: [
          { id: 'vscode.file', value: target },
          // Inside the file attached: it goes with the file.
          { id: 'vscode.selection', value: new vscode.Location(target, new vscode.Range(0, 0, 0, 12)) },
          { id: 'vscode.file', value: target },
          { id: 'vscode.selection', value: new vscode.Location(other, new vscode.Range(1, 0, 2, 0)) },
          { id: 'vscode.variable', value: 'a value of the view itself' },
        ],
      });
      assert.ok(r.sent, 'the request was sent');
      assert.equal(
        r.sent.last,
        'What do these do?\n\n`aichat-target.ts`:\n\n```typescript\nexport const total = 40 + 2;\n```\n\n`aichat-other.ts`, line 2:\n\n```typescript\nexport const b = 2;\n```',
      );
      assert.equal(r.references.length, 3, 'each reference read is listed once');
      assert.deepEqual((r.result.metadata as { sent?: { prompt: string } }).sent?.prompt, r.sent.last, 'later requests read back what was sent');
    } finally {
      await vscode.workspace.fs.delete(uri('aichat-other.ts')).then(undefined, () => undefined);
    }
  });

  it('a folder the Chat view attached goes within three quarters of the model\'s budget, shallow first, as the chat\'s + takes it', async () => {
    // A model of 1,000 tokens (the setting; the service gives no size): 750 for the request, 2,250 characters for a folder.
    const text = (n: number) => `// file ${n}
${'x'.repeat(980)}
`;
    await write('aichat-folder/a.ts', text(1));
    await write('aichat-folder/b.ts', text(2));
    await write('aichat-folder/c.ts', text(3));
    try {
      const r = await ask({ prompt: 'What is here?', references: [{ id: 'vscode.file', value: uri('aichat-folder') }] }, [], { contextMaxTokens: 1000 });
      assert.ok(r.sent, 'the request was sent');
      const files = [...r.sent.last.matchAll(/^`aichat-folder\/(\w+)\.ts`:$/gm)].map((m) => m[1]);
      assert.equal(files.length, 2, `two of the three files fit: ${files.join(', ')}`);
    } finally {
      await vscode.workspace.fs.delete(uri('aichat-folder'), { recursive: true }).then(undefined, () => undefined);
    }
  });

  it('/explain (a command of the participant): the built-in with the editor\'s selection and file, the words after it too', async () => {
    const r = await ask({ command: 'explain', prompt: 'why 42?' });
    assert.ok(r.sent, 'the request was sent');
    assert.equal(r.sent.model, 'swift-chat');
    assert.equal(r.sent.last, 'Explain this code from aichat-target.ts:\n\n```\nexport const total = 40 + 2;\n```\n\nwhy 42?');
    assert.match(r.shown, /\/explain · Swift Chat · 1 credit/);
  });

  /** The click on a held send's Send button: the query its command asks the Chat view for, as a request again. */
  async function click(held: HeldSends, button: vscode.Command | undefined): Promise<{ prompt: string; command?: string }> {
    assert.equal(button?.command, SEND_HELD_COMMAND);
    const queries: string[] = [];
    assert.equal(await sendHeld(held, button?.arguments?.[0], async (query) => void queries.push(query)), true);
    const m = /^@aichat \/(\S+) ?([\s\S]*)$/.exec(queries[0] ?? '');
    assert.ok(m, `the Chat view is asked for @aichat again: ${queries[0]}`);
    return { command: m[1], prompt: m[2] };
  }

  it('/prompt name: the prompt file expanded (its input asked); it names another model, so nothing is sent until its Send button (with that model\'s price) is clicked; what is not supported is named', async () => {
    const held = new HeldSends();
    const offer = await ask({ command: 'prompt', prompt: 'aichat-review' }, ['naming'], { held });
    assert.equal(offer.asked[0]?.title, '/aichat-review');
    assert.equal(offer.sent, undefined, 'nothing was sent without the click');
    assert.match(offer.shown, /\/aichat\\-review · Deep Think · 3 credits/);
    assert.match(offer.shown, /Not supported, left out: tools\\\./);
    assert.match(offer.shown, /Nothing was sent yet: \/aichat\\-review names the model Deep Think, not your selected model, Swift Chat\\\./);
    assert.deepEqual(offer.buttons.map((b) => b.title), ['Send with Deep Think · 3 credits']);
    assert.deepEqual(offer.result.metadata, { answeredHere: true }, 'later requests do not send the offer');
    const r = await ask(await click(held, offer.buttons[0]), [], { held });
    assert.equal(r.asked.length, 0, 'its input is not asked again');
    assert.ok(r.sent, 'the click sent the request');
    assert.equal(r.sent.model, 'deep-think', 'the model the prompt names');
    assert.equal(r.sent.last, 'Review aichat-target.ts for naming:\n\nexport const total = 40 + 2;');
    assert.match(r.shown, /\/aichat\\-review · Deep Think · 3 credits/);
    assert.match(r.shown, /Done\./);
    // A later request reads back the expanded text and the reply alone, not the price line shown above it.
    assert.deepEqual(r.result.metadata, { sent: { prompt: 'Review aichat-target.ts for naming:\n\nexport const total = 40 + 2;', reply: 'Done.' } });
    // The same button again sends nothing more.
    assert.equal(await sendHeld(held, offer.buttons[0]?.arguments?.[0], async () => assert.fail('not asked again')), false);
  });

  it('the models not loaded yet: they are loaded, and the model the prompt names is offered, then answers', async () => {
    const held = new HeldSends();
    const offer = await ask({ command: 'prompt', prompt: 'aichat-review' }, ['naming'], { unloaded: true, held });
    assert.equal(offer.sent, undefined);
    assert.deepEqual(offer.buttons.map((b) => b.title), ['Send with Deep Think · 3 credits']);
    const r = await ask(await click(held, offer.buttons[0]), [], { held });
    assert.equal(r.sent?.model, 'deep-think');
  });

  it('/name typed without /prompt runs the same prompt; words after it answer $ARGUMENTS', async () => {
    const r = await ask({ prompt: '/aichat-issue 42' });
    assert.equal(r.asked.length, 0);
    assert.equal(r.sent?.last, 'Fix issue #42.');
  });

  it('a model that cannot be used: the selected model answers and the Chat view says so', async () => {
    const r = await ask({ command: 'prompt', prompt: 'aichat-other' });
    assert.equal(r.sent?.model, 'swift-chat');
    assert.match(r.shown, /names the model gpt\\-unknown, which is not among the models available now: the selected model answers/);
  });

  it('/prompt alone lists the prompts with their source; an unknown one says so; nothing is sent', async () => {
    const list = await ask({ command: 'prompt', prompt: '' });
    assert.equal(list.sent, undefined);
    assert.match(list.shown, /`\/aichat-review` — Review for the team \*\(\\\.github\/prompts\/aichat\\-review\\\.prompt\\\.md\)\*/);
    assert.match(list.shown, /`\/explain`/);
    assert.doesNotMatch(list.shown, /`\/new`/, 'an action of the chat is not offered here');
    const unknown = await ask({ command: 'prompt', prompt: 'no-such-prompt' });
    assert.equal(unknown.sent, undefined);
    assert.match(unknown.shown, /There is no prompt \/no\\-such\\-prompt\\\./);
    // A question that starts with a path is a question.
    const plain = await ask({ prompt: '/etc/hosts: what is it?' });
    assert.equal(plain.sent?.last, '/etc/hosts: what is it?');
  });

  it('a cancelled question sends nothing', async () => {
    const r = await ask({ command: 'prompt', prompt: 'aichat-review' }, []);
    assert.equal(r.sent, undefined);
    assert.match(r.shown, /Nothing was sent/);
  });
});
