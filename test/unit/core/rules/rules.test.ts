import { strict as assert } from 'node:assert';
import {
  chooseRules,
  parseFrontMatter,
  patternList,
  readRule,
  readRules,
  reasonText,
  ruleFormatOf,
  rulesText,
  type Rule,
} from '../../../../src/core/rules';

const rule = (path: string, content: string | Uint8Array | Error, size?: number): Rule => readRule({ path, content, size })!;

describe('rules: front matter', () => {
  it('reads scalars, quoted strings, booleans, lists in [] and as - items, and keeps unknown keys', () => {
    const fm = parseFrontMatter('---\ndescription: "Say \\"hi\\""\nglobs: **/*.ts\nalwaysApply: false\npaths:\n  - "src/**"\n  - \'lib/*.js\' # a comment\nlist: [a, "b, c", \'d\']\nexcludeAgent: "coding-agent"\n---\n# Body\n');
    assert.equal(fm.ok, true);
    if (!fm.ok) return;
    assert.deepEqual({ ...fm.data }, {
      description: 'Say "hi"',
      globs: '**/*.ts',
      alwaysApply: false,
      paths: ['src/**', 'lib/*.js'],
      list: ['a', 'b, c', 'd'],
      excludeAgent: 'coding-agent',
    });
    assert.equal(fm.body, '# Body\n');
  });

  it('a file without front matter is all body; a | block keeps its lines', () => {
    assert.deepEqual(parseFrontMatter('# Just text\n---\n'), { ok: true, data: {}, body: '# Just text\n---\n', present: false });
    const fm = parseFrontMatter('---\ndescription: |\n  line one\n  line two\n---\nx');
    assert.ok(fm.ok && fm.data.description === 'line one\nline two\n');
  });

  it('broken front matter is an error with its line, never a throw', () => {
    const cases: Array<[string, RegExp]> = [
      ['---\nglobs: **/*.ts\n', /no closing ---/],
      ['---\nglobs "**/*.ts"\n---\n', /line 2: expected "key: value"/],
      ['---\na: 1\na: 2\n---\n', /line 3: the key "a" is written twice/],
      ['---\ndescription: "open\n---\n', /line 2: a quoted value is not closed/],
      ['---\nglobs: ["a", "b"\n---\n', /line 2: a list is not closed/],
      ['---\nalwaysApply: "true" yes\n---\n', /line 2: unexpected text after a quoted value/],
    ];
    for (const [text, error] of cases) {
      const fm = parseFrontMatter(text);
      assert.equal(fm.ok, false, text);
      if (!fm.ok) assert.match(fm.error, error);
    }
  });
});

describe('rules: patterns', () => {
  it('comma lists split outside braces, items unquoted, lists of lists flattened', () => {
    assert.deepEqual(patternList('src/**/*.ts, test/**/*.ts'), ['src/**/*.ts', 'test/**/*.ts']);
    assert.deepEqual(patternList('**/*.{ts,tsx}'), ['**/*.{ts,tsx}']);
    assert.deepEqual(patternList('"**/*.ts", "**/*.tsx"'), ['**/*.ts', '**/*.tsx']);
    assert.deepEqual(patternList(['a/**, b/**', "'c/*'"]), ['a/**', 'b/**', 'c/*']);
    assert.equal(patternList(true), undefined);
    assert.equal(patternList([1]), undefined);
  });

  it('a bare pattern: any depth for Copilot and Cursor, the root only for Claude Code and Cline', () => {
    const files = { files: ['lib/tool.py'] };
    const sentFor = (path: string, content: string) => chooseRules([rule(path, content)], files).sent.length;
    assert.equal(sentFor('.github/instructions/py.instructions.md', '---\napplyTo: "*.py"\n---\nx'), 1);
    assert.equal(sentFor('.cursor/rules/py.mdc', '---\nglobs: *.py\n---\nx'), 1);
    assert.equal(sentFor('.claude/rules/py.md', '---\npaths: "*.py"\n---\nx'), 0);
    assert.equal(sentFor('.clinerules/py.md', '---\npaths: ["*.py"]\n---\nx'), 0);
    assert.equal(chooseRules([rule('.claude/rules/py.md', '---\npaths: "*.py"\n---\nx')], { files: ['tool.py'] }).sent.length, 1);
  });

  it('paths given by the editor are normalized (backslashes, ./), and repeated files count once', () => {
    const r = rule('.cursor/rules/ts.mdc', '---\nglobs: src/**/*.ts\n---\nx');
    const choice = chooseRules([r], { files: ['./src\\a\\b.ts', 'src/a/b.ts'] });
    assert.deepEqual(choice.sent[0].reason, { kind: 'matched', file: 'src/a/b.ts', pattern: 'src/**/*.ts' });
  });
});

describe('rules: reading the formats', () => {
  it('knows each format by its path, and nothing in node_modules or .git', () => {
    assert.equal(ruleFormatOf('AGENTS.md'), 'agentsMd');
    assert.equal(ruleFormatOf('a/b/AGENTS.md'), 'agentsMd');
    assert.equal(ruleFormatOf('.claude/CLAUDE.md'), 'claudeMd');
    assert.equal(ruleFormatOf('.github/instructions/a/b.instructions.md'), 'copilotPathInstructions');
    assert.equal(ruleFormatOf('.github/instructions/readme.md'), undefined);
    assert.equal(ruleFormatOf('.cursor/rules/a.md'), undefined);
    assert.equal(ruleFormatOf('.clinerules'), 'clinerules');
    assert.equal(ruleFormatOf('.clinerules/notes.txt'), 'clinerules');
    assert.equal(ruleFormatOf('node_modules/x/AGENTS.md'), undefined);
    assert.equal(ruleFormatOf('.git/AGENTS.md'), undefined);
    assert.equal(readRule({ path: 'README.md', content: 'x' }), undefined);
  });

  it('a .clinerules file is always sent; .claude/CLAUDE.md is the root CLAUDE.md', () => {
    const choice = chooseRules(readRules([{ path: '.clinerules', content: '- tabs' }, { path: '.claude/CLAUDE.md', content: '- spaces' }]), { files: [] });
    assert.deepEqual(choice.sent.map((c) => [c.rule.path, c.reason]), [
      ['.claude/CLAUDE.md', { kind: 'always', why: 'root' }],
      ['.clinerules', { kind: 'always', why: 'root' }],
    ]);
  });

  it('Continue: alwaysApply false with globs only when they match; unset without globs always', () => {
    const a = rule('.continue/rules/a.md', '---\nname: A\nglobs: "**/*.go"\nalwaysApply: false\nregex: "^package"\n---\nx');
    const b = rule('.continue/rules/b.md', '---\nname: B\n---\ny');
    assert.deepEqual(chooseRules([a, b], { files: ['x.ts'] }).sent.map((c) => c.rule.path), ['.continue/rules/b.md']);
    assert.deepEqual(chooseRules([a, b], { files: ['cmd/x.go'] }).sent.map((c) => c.rule.path), ['.continue/rules/a.md', '.continue/rules/b.md']);
    assert.match(a.notes[0], /"regex" is not used/);
    assert.equal(a.frontMatter.regex, '^package');
  });

  it('a wrong type in the front matter makes the rule unreadable, with why', () => {
    assert.equal(rule('.cursor/rules/a.mdc', '---\nglobs: [1, 2]\n---\nx').problem, '"globs" should be a pattern or a list of patterns');
    assert.equal(rule('.cursor/rules/a.mdc', '---\ndescription: [a]\n---\nx').problem, '"description" should be text');
    assert.equal(rule('.cursor/rules/a.mdc', '---\nglobs: "a/**"\n---\n  \n').state, 'empty');
    assert.equal(rule('CLAUDE.md', new Uint8Array([0x23, 0, 1, 2])).state, 'binary');
    assert.match(rule('CLAUDE.md', new Error('EACCES')).problem!, /could not be read \(EACCES\)/);
  });

  it('a rule is cut at 32 KB, on a character, and says so', () => {
    const big = `${'é'.repeat(20_000)}`; // 40,000 bytes
    const r = rule('AGENTS.md', new TextEncoder().encode(big));
    assert.equal(r.cut, true);
    assert.equal(r.bytes, 40_000);
    assert.equal(r.text.length, 16_384);
    assert.equal(r.textBytes, 32_768);
    const choice = chooseRules([r], { files: [] });
    assert.match(choice.sent[0].header!, /^Project rules from AGENTS\.md \(applies to every request, cut\):$/);
  });
});

describe('rules: choosing for a request', () => {
  const sources = [
    { path: 'AGENTS.md', content: '# Root' },
    { path: 'pkg/AGENTS.md', content: '# Pkg' },
    { path: 'pkg/sub/AGENTS.md', content: '# Sub' },
    { path: 'pkg/CLAUDE.md', content: '# Pkg Claude' },
    { path: '.github/instructions/py.instructions.md', content: '---\napplyTo: "**/*.py"\n---\nPython rules' },
    { path: '.cursor/rules/ts.mdc', content: '---\nglobs: **/*.ts\n---\nTypeScript rules' },
    { path: '.cursor/rules/db.mdc', content: '---\ndescription: Database migrations\n---\nDB rules' },
  ];
  const rules = readRules(sources);

  it('a .py file carries the Python rule and not the TypeScript one, with the reason', () => {
    const choice = chooseRules(rules, { files: ['src/a.py'] });
    assert.deepEqual(choice.sent.map((c) => c.rule.path), ['AGENTS.md', '.github/instructions/py.instructions.md']);
    assert.equal(reasonText(choice.sent[1].reason), 'matched `src/a.py` by `**/*.py`');
    assert.equal(reasonText(choice.rules.find((c) => c.rule.path === '.cursor/rules/ts.mdc')!.reason), 'not sent: no file of the request matches `**/*.ts`');
    assert.equal(reasonText(choice.rules.find((c) => c.rule.path === '.cursor/rules/db.mdc')!.reason), 'available, not sent: only a description');
  });

  it('the nearest AGENTS.md wins for a file; CLAUDE.md of every folder holding it goes; deeper ones come later', () => {
    const choice = chooseRules(rules, { files: ['pkg/sub/x.ts'] });
    assert.deepEqual(choice.sent.map((c) => c.rule.path), ['AGENTS.md', '.cursor/rules/ts.mdc', 'pkg/CLAUDE.md', 'pkg/sub/AGENTS.md']);
    assert.deepEqual(choice.rules.find((c) => c.rule.path === 'pkg/AGENTS.md')!.reason, { kind: 'nearerWins', nearer: 'pkg/sub/AGENTS.md' });
    // A second file directly in pkg/ brings pkg/AGENTS.md back.
    const both = chooseRules(rules, { files: ['pkg/sub/x.ts', 'pkg/y.ts'] });
    assert.deepEqual(both.rules.find((c) => c.rule.path === 'pkg/AGENTS.md')!.reason, { kind: 'inFolder', file: 'pkg/y.ts', folder: 'pkg/' });
  });

  it('a rule turned off is listed as turned off and not sent', () => {
    const choice = chooseRules(rules, { files: ['src/a.py'], off: new Set(['.github/instructions/py.instructions.md']) });
    assert.deepEqual(choice.sent.map((c) => c.rule.path), ['AGENTS.md']);
    assert.equal(reasonText(choice.rules.find((c) => c.rule.id === '.github/instructions/py.instructions.md')!.reason), 'turned off');
  });

  it('the text names each file, and its counted size is the size of the text', () => {
    const choice = chooseRules(rules, { files: ['src/a.py', 'pkg/ü.ts'] });
    const text = rulesText(choice);
    assert.equal(
      text,
      [
        'Project rules from AGENTS.md (applies to every request):\n\n# Root',
        'Project rules from .cursor/rules/ts.mdc (applies to pkg/ü.ts (its pattern **/*.ts)):\n\nTypeScript rules',
        'Project rules from .github/instructions/py.instructions.md (applies to src/a.py (its pattern **/*.py)):\n\nPython rules',
        'Project rules from pkg/AGENTS.md (applies to files in pkg/, such as pkg/ü.ts; it takes precedence over rules of folders above it):\n\n# Pkg',
        'Project rules from pkg/CLAUDE.md (applies to files in pkg/, such as pkg/ü.ts; it takes precedence over rules of folders above it):\n\n# Pkg Claude',
      ].join('\n\n'),
    );
    assert.equal(choice.chars, text.length);
    assert.equal(choice.bytes, new TextEncoder().encode(text).length);
    assert.equal(rulesText(chooseRules([], { files: [] })), '');
  });

  it('the same input gives the same choice, whatever order the files were read in', () => {
    const shuffled = readRules([...sources].reverse());
    const a = chooseRules(rules, { files: ['pkg/sub/x.ts'] }).sent.map((c) => c.rule.path);
    const b = chooseRules(shuffled, { files: ['pkg/sub/x.ts'] }).sent.map((c) => c.rule.path);
    assert.deepEqual(a, b);
  });
});
