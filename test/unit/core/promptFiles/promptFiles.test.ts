import { strict as assert } from 'node:assert';
import {
  buildPromptList,
  builtinPrompts,
  expandPrompt,
  isUserPromptFile,
  parseFrontMatter,
  parsePromptFile,
  promptFileKind,
  promptInputs,
  promptModel,
  promptSourceLabel,
  slashRequest,
  PROMPT_FILE_MAX_BYTES,
  sortPromptFiles,
  userPrompts,
  type PromptEntry,
} from '../../../../src/core/promptFiles/promptFiles';

const utf8 = (s: string) => new TextEncoder().encode(s);

const REVIEW = `---
description: 'Review the selected code for bugs and style'
argument-hint: focus area (e.g. security)
model: chat-large
mode: agent
tools: ['codebase', 'search']
---
Review this code from \${file} in \${workspaceFolder}:

\${selection}

Focus on: \${input:focus:security, naming, tests}
Ticket: \${input:ticket}
Again: \${input:focus}
`;

const CLAUDE = `---
description: Fix a GitHub issue
argument-hint: [issue-number]
allowed-tools: Bash(gh issue view:*)
---

Find and fix issue #$ARGUMENTS. Read it first.
`;

const CONTINUE = `name: check
description: Check for mistakes in my code
---
Please read the highlighted code and check for any mistakes:

{{{ input }}}
`;

describe('prompt files: parsing', () => {
  it('a Copilot .prompt.md: description, argument hint and model; tools and mode named as not supported', () => {
    const e = parsePromptFile({ kind: 'github', path: '.github/prompts/review.prompt.md', content: utf8(REVIEW) });
    assert.equal(e.error, undefined);
    assert.equal(e.name, 'review');
    assert.equal(e.description, 'Review the selected code for bugs and style');
    assert.equal(e.argumentHint, 'focus area (e.g. security)');
    assert.equal(e.model, 'chat-large');
    assert.deepEqual(e.unsupported, ['mode', 'tools']);
    assert.ok(e.body.startsWith('Review this code from ${file}'));
    assert.ok(!e.body.includes('---'));
  });

  it('a Claude command: $ARGUMENTS asked with the argument hint; allowed-tools not supported', () => {
    const e = parsePromptFile({ kind: 'claude', path: '.claude/commands/fix-issue.md', content: utf8(CLAUDE) });
    assert.equal(e.error, undefined);
    assert.equal(e.name, 'fix-issue');
    assert.equal(e.description, 'Fix a GitHub issue');
    assert.deepEqual(e.unsupported, ['allowed-tools']);
    assert.deepEqual(promptInputs(e), [{ name: 'arguments', placeholder: '[issue-number]' }]);
    assert.equal(expandPrompt(e, { inputs: { arguments: '42' } }).text, 'Find and fix issue #42. Read it first.');
  });

  it('a Claude command without front matter is all body', () => {
    const e = parsePromptFile({ kind: 'claude', path: '.claude/commands/optimize.md', content: utf8('Analyze this code for performance issues.\n') });
    assert.equal(e.error, undefined);
    assert.equal(e.body, 'Analyze this code for performance issues.');
    assert.equal(e.description, '');
  });

  it('a Continue .prompt: its header (no opening ---) gives the name; {{{ input }}} is asked', () => {
    const e = parsePromptFile({ kind: 'continue', path: '.continue/prompts/mistakes.prompt', content: utf8(CONTINUE) });
    assert.equal(e.error, undefined);
    assert.equal(e.name, 'check');
    assert.equal(e.description, 'Check for mistakes in my code');
    assert.ok(e.body.startsWith('Please read'));
    assert.deepEqual(promptInputs(e), [{ name: 'arguments' }]);
  });

  it('CRLF line ends and a BOM read as the same file', () => {
    const e = parsePromptFile({ kind: 'github', path: '.github/prompts/review.prompt.md', content: utf8('\uFEFF' + REVIEW.replace(/\n/g, '\r\n')) });
    assert.equal(e.error, undefined);
    assert.equal(e.description, 'Review the selected code for bugs and style');
    assert.equal(e.model, 'chat-large');
    assert.ok(!e.body.includes('\r'));
  });

  it('malformed files are entries with their error, with line numbers', () => {
    const unclosed = parsePromptFile({ kind: 'github', path: '.github/prompts/a.prompt.md', content: utf8('---\ndescription: x\nbody') });
    assert.match(unclosed.error ?? '', /never closed/);
    assert.equal(unclosed.name, 'a');
    const badLine = parsePromptFile({ kind: 'github', path: '.github/prompts/b.prompt.md', content: utf8('---\ndescription: x\nthis is not a field\n---\nbody') });
    assert.match(badLine.error ?? '', /line 3/);
    const twice = parsePromptFile({ kind: 'github', path: '.github/prompts/c.prompt.md', content: utf8('---\nmodel: a\nmodel: b\n---\nbody') });
    assert.match(twice.error ?? '', /twice/);
    const empty = parsePromptFile({ kind: 'claude', path: '.claude/commands/d.md', content: utf8('---\ndescription: nothing\n---\n\n') });
    assert.match(empty.error ?? '', /no prompt text/);
    const badName = parsePromptFile({ kind: 'github', path: '.github/prompts/my review.prompt.md', content: utf8('body') });
    assert.match(badName.error ?? '', /cannot be typed/);
    const unread = parsePromptFile({ kind: 'github', path: '.github/prompts/e.prompt.md', content: new Error('EACCES') });
    assert.match(unread.error ?? '', /could not be read/);
    const out = parsePromptFile({ kind: 'github', path: '.github/prompts/f.prompt.md', content: new Uint8Array(0), refused: 'outside' });
    assert.match(out.error ?? '', /outside the workspace folder/);
    assert.equal(out.name, 'f');
  });

  it('a file over 32 KB and a binary file are refused with their reason', () => {
    const big = parsePromptFile({ kind: 'github', path: '.github/prompts/big.prompt.md', content: utf8('x'.repeat(100)), size: PROMPT_FILE_MAX_BYTES + 1 });
    assert.match(big.error ?? '', /32 KB/);
    const bin = parsePromptFile({ kind: 'claude', path: '.claude/commands/bin.md', content: new Uint8Array([0x50, 0, 1, 2]) });
    assert.match(bin.error ?? '', /not a text file/);
  });

  it('front matter: lists continue their field, comments are skipped, a rule later in the body stays', () => {
    const f = parseFrontMatter('---\n# comment\ntools:\n  - a\n  - b\ndescription: "say \\"hi\\""\n---\nText\n---\nmore');
    assert.equal(f.error, undefined);
    assert.equal(f.fields.get('tools'), '- a\n- b');
    assert.equal(f.fields.get('description'), 'say "hi"');
    assert.equal(f.body, 'Text\n---\nmore');
    // Prose before a rule in a .prompt is not a header.
    assert.equal(parseFrontMatter('Just text here.\n---\nmore', true).body, 'Just text here.\n---\nmore');
  });

  it('kinds by path', () => {
    assert.equal(promptFileKind('.github/prompts/x.prompt.md'), 'github');
    assert.equal(promptFileKind('.github\\prompts\\x.prompt.md'), 'github');
    assert.equal(promptFileKind('.github/prompts/x.md'), undefined);
    assert.equal(promptFileKind('.claude/commands/x.md'), 'claude');
    assert.equal(promptFileKind('.claude/commands/sub/x.md'), undefined);
    assert.equal(promptFileKind('.continue/prompts/x.prompt'), 'continue');
  });
});

describe('prompt files: the list', () => {
  const file = (name: string, source: PromptEntry['source'], folder = 'app', path = `${name}`): PromptEntry => ({ name, description: '', body: 'b', source, folder, path, unsupported: [] });

  it('built-ins first, then the user\'s own, then workspace files; a later clash is listed as name:source', () => {
    const user = userPrompts({ review: 'Mine', explain: { prompt: 'My explain', description: 'd' } });
    const files = sortPromptFiles([file('review', 'claude'), file('review', 'github'), file('lint', 'continue', 'lib'), file('lint', 'github', 'app')], ['app', 'lib']);
    const list = buildPromptList(builtinPrompts(), user, files);
    const names = list.map((e) => `${e.name}|${e.source}`);
    assert.deepEqual(names, [
      'explain|builtin',
      'fix|builtin',
      'tests|builtin',
      'new|builtin',
      'summarize|builtin',
      'review|user',
      'explain:user|user',
      'lint|github',
      'review:github|github',
      'review:claude|claude',
      'lint:continue|continue',
    ]);
    assert.equal(list.find((e) => e.name === 'review:claude')?.shadowed, 'review');
    assert.equal(new Set(list.map((e) => e.name.toLowerCase())).size, list.length);
  });

  it('names clash without regard to case; a third of a name gets a number', () => {
    const list = buildPromptList([], [], [file('Review', 'github'), file('review', 'github', 'app', 'b'), file('REVIEW', 'github', 'app', 'c')]);
    assert.deepEqual(
      list.map((e) => e.name),
      ['Review', 'review:github', 'REVIEW:github:2'],
    );
  });

  it('aiChat.prompts: text or object; a wrong shape or name is listed with its error', () => {
    const list = userPrompts({ a: 'Text', b: { prompt: 'P', argumentHint: 'h', model: 'm', tools: [] }, c: 3, 'd e': 'x', f: '  ' });
    assert.deepEqual(list[0], { name: 'a', description: '', body: 'Text', source: 'user', unsupported: [] });
    assert.equal(list[1].argumentHint, 'h');
    assert.equal(list[1].model, 'm');
    assert.deepEqual(list[1].unsupported, ['tools']);
    assert.match(list[2].error ?? '', /must be a text/);
    assert.match(list[3].error ?? '', /cannot be typed/);
    assert.match(list[4].error ?? '', /no prompt text/);
    assert.deepEqual(userPrompts(undefined), []);
    assert.deepEqual(userPrompts(['x']), []);
  });

  it('/new and /summarize are actions, the others put the selection in a fence', () => {
    const b = builtinPrompts();
    assert.equal(b.find((e) => e.name === 'new')?.action, 'newChat');
    assert.equal(b.find((e) => e.name === 'summarize')?.action, 'summarize');
    const explain = b.find((e) => e.name === 'explain')!;
    assert.equal(expandPrompt(explain, { selection: 'let x = 1;', file: 'src/a.ts' }).text, 'Explain this code from src/a.ts:\n\n```\nlet x = 1;\n```');
  });
});

describe('prompt files: expansion', () => {
  const review = parsePromptFile({ kind: 'github', path: '.github/prompts/review.prompt.md', content: utf8(REVIEW) });

  it('lists each ${input:…} once, with its placeholder', () => {
    assert.deepEqual(promptInputs(review), [{ name: 'focus', placeholder: 'security, naming, tests' }, { name: 'ticket' }]);
  });

  it('fills selection, file, workspace folder and inputs', () => {
    const out = expandPrompt(review, { selection: 'const a = 1;', file: 'src/a.ts', workspaceFolder: '/home/u/app', inputs: { focus: 'naming', ticket: 'T-1' } });
    assert.deepEqual(out.missing, []);
    assert.equal(out.text, 'Review this code from src/a.ts in /home/u/app:\n\nconst a = 1;\n\nFocus on: naming\nTicket: T-1\nAgain: naming');
  });

  it('names what had no value (left empty), and leaves unknown ${…} as written', () => {
    const out = expandPrompt({ body: 'A ${selection} B ${file} C ${input:x} D ${unknown} E ${fileBasenameNoExtension} F ${workspaceFolderBasename}' }, {});
    assert.deepEqual(out.missing.sort(), ['file', 'selection', 'workspaceFolder', 'x']);
    assert.equal(out.text, 'A  B  C  D ${unknown} E  F ');
    const named = expandPrompt({ body: '${fileBasename} ${fileDirname} ${fileBasenameNoExtension} ${workspaceFolderBasename}' }, { file: 'src/lib/a.test.ts', workspaceFolder: '/w/proj/' });
    assert.equal(named.text, 'a.test.ts src/lib a.test proj');
  });

  it('a value holding ${…} is not expanded again', () => {
    const out = expandPrompt({ body: '${input:a} ${selection}' }, { selection: '${file}', inputs: { a: '${selection}' } });
    assert.equal(out.text, '${selection} ${file}');
  });
});

describe('prompt files: the user\'s prompts folder', () => {
  const mine = (name: string, text: string) => parsePromptFile({ kind: 'github', path: `${name}.prompt.md`, inUserFolder: true, content: utf8(text) });

  it('its *.prompt.md files are prompts, read as Copilot\'s, with their source', () => {
    assert.equal(isUserPromptFile('review.prompt.md'), true);
    assert.equal(isUserPromptFile('Review.PROMPT.md'), true);
    assert.equal(isUserPromptFile('notes.md'), false);
    assert.equal(isUserPromptFile('sub/review.prompt.md'), false);
    const e = mine('standup', '---\ndescription: My standup notes\nmodel: chat-large\nmode: agent\n---\nSummarize ${selection}');
    assert.equal(e.error, undefined);
    assert.equal(e.source, 'userFolder');
    assert.equal(e.name, 'standup');
    assert.equal(e.model, 'chat-large');
    assert.deepEqual(e.unsupported, ['mode']);
    assert.equal(promptSourceLabel(e), 'your prompts folder: standup.prompt.md');
  });

  it('the same reading rules: a link out of the folder, a file too large, listed with their error', () => {
    const out = parsePromptFile({ kind: 'github', path: 'x.prompt.md', inUserFolder: true, content: new Uint8Array(0), refused: 'outside' });
    assert.match(out.error ?? '', /outside your prompts folder/);
    const big = parsePromptFile({ kind: 'github', path: 'big.prompt.md', inUserFolder: true, content: utf8('x'), size: PROMPT_FILE_MAX_BYTES + 1 });
    assert.match(big.error ?? '', /more than the 32 KB/);
  });

  it('after the user\'s own setting and before the workspace\'s files: a clash keeps the earlier one', () => {
    const user = userPrompts({ standup: 'From the setting' });
    const folderFiles = [mine('standup', 'From my folder'), mine('review', 'My review')];
    const workspace: PromptEntry[] = [{ name: 'review', description: '', body: 'Team review', source: 'github', path: '.github/prompts/review.prompt.md', unsupported: [] }];
    const list = buildPromptList(builtinPrompts(), user, [...folderFiles, ...workspace]);
    const names = list.filter((e) => e.source !== 'builtin').map((e) => `${e.name}|${e.source}`);
    assert.deepEqual(names, ['standup|user', 'standup:userFolder|userFolder', 'review|userFolder', 'review:github|github']);
  });
});

describe('prompt files: the model a prompt names', () => {
  const models = [
    { valueId: 'chat-small', name: 'Chat Small', type: 'text', costInCreditPerUse: 1, isActive: true },
    { valueId: 'chat-large', name: 'Chat Large', type: 'text', costInCreditPerUse: 3, isActive: true },
    { valueId: 'old-chat', name: 'Old Chat', type: 'text', costInCreditPerUse: 1, isActive: false },
    { valueId: 'image-gen', name: 'Image Gen', type: 'image', costInCreditPerUse: 5, isActive: true },
  ];

  it('none, or the selected one: the selected model answers, nothing to say', () => {
    assert.deepEqual(promptModel(undefined, models, 'chat-small'), { kind: 'selected' });
    assert.deepEqual(promptModel('Chat Small', models, 'chat-small'), { kind: 'selected' });
    assert.deepEqual(promptModel('CHAT-SMALL', models, 'chat-small'), { kind: 'selected' });
  });

  it('a usable model, by id or name: that model for this send', () => {
    assert.deepEqual(promptModel('chat-large', models, 'chat-small'), { kind: 'use', model: models[1] });
    assert.deepEqual(promptModel(' chat large ', models, 'chat-small'), { kind: 'use', model: models[1] });
    assert.deepEqual(promptModel('chat-large', models, ''), { kind: 'use', model: models[1] });
  });

  it('not listed, the list not loaded, inactive or not a text model: unusable, with the reason when known', () => {
    assert.deepEqual(promptModel('gpt-4o', models, 'chat-small'), { kind: 'unusable', named: 'gpt-4o' });
    assert.deepEqual(promptModel('chat-large', undefined, 'chat-small'), { kind: 'unusable', named: 'chat-large' });
    const inactive = promptModel('old-chat', models, 'chat-small');
    assert.equal(inactive.kind, 'unusable');
    assert.match(inactive.kind === 'unusable' ? (inactive.reason ?? '') : '', /Inactive/);
    const image = promptModel('image-gen', models, 'chat-small');
    assert.match(image.kind === 'unusable' ? (image.reason ?? '') : '', /text model/);
  });
});

describe('prompt files: @aichat\'s slash commands', () => {
  it('/prompt takes the name as its first word (a leading / too), the rest are its words; alone it lists', () => {
    assert.deepEqual(slashRequest('prompt', 'review naming and tests'), { name: 'review', args: 'naming and tests' });
    assert.deepEqual(slashRequest('prompt', '  /fix-issue 42 '), { name: 'fix-issue', args: '42' });
    assert.deepEqual(slashRequest('prompt', ''), { name: '', args: '' });
  });

  it('a built-in command takes the whole text as its words', () => {
    assert.deepEqual(slashRequest('explain', 'why the loop?'), { name: 'explain', args: 'why the loop?' });
    assert.deepEqual(slashRequest('tests', ''), { name: 'tests', args: '' });
  });

  it('without a command, a text that starts with /name names a prompt; other text is not a command', () => {
    assert.deepEqual(slashRequest(undefined, '/review focus on names'), { name: 'review', args: 'focus on names' });
    assert.deepEqual(slashRequest(undefined, '/review:claude'), { name: 'review:claude', args: '' });
    assert.equal(slashRequest(undefined, 'what does /etc/hosts hold?'), undefined);
    assert.equal(slashRequest(undefined, 'plain question'), undefined);
  });
});
