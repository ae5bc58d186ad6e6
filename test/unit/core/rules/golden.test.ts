// The golden table: every rule file of test/fixtures/rules/workspace (written for the test, shaped
// like the public collections of each format), and which of a fixed set of files it applies to,
// asked one file at a time. Every pattern form of the formats is in it: `**/*.{ts,tsx}`, comma
// lists with and without spaces, quoted and unquoted patterns, bare `*.py` / `*.md` (any depth for
// Copilot and Cursor, the root only for Claude Code and Cline), `**` alone, `!` exclusions, YAML
// lists in [] and as "- item" lines, a folder's AGENTS.md (the nearest wins) and CLAUDE.md.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { chooseRules, readRules, ruleFormatOf, type Rule, type RuleFormat } from '../../../../src/core/rules';

const ROOT = join(__dirname, '../../../fixtures/rules/workspace');

/** The files a request may carry (attached, the selection's, the active editor's). */
const FILES = [
  'src/app.ts',
  'src/components/Button.tsx',
  'src/util/math.test.ts',
  'src/styles/App.CSS',
  'main.py',
  'scripts/build.py',
  'README.md',
  'docs/guide.md',
  'packages/web/vite.config.ts',
  'packages/web/src/index.ts',
  'packages/api/handler.go',
  'test/e2e/login.spec.ts',
  'Dockerfile',
  'eslint.config.js',
] as const;
type File = (typeof FILES)[number];
const ALL = 'every file';
const NONE: File[] = [];

/** For each rule file: the files it applies to. */
const GOLDEN: Record<string, File[] | typeof ALL> = {
  // AGENTS.md: the root's always; a folder's for its files, the nearest one winning.
  'AGENTS.md': ALL,
  'packages/web/AGENTS.md': ['packages/web/vite.config.ts'],
  'packages/web/src/AGENTS.md': ['packages/web/src/index.ts'],
  // CLAUDE.md: the root's always; a folder's for its files.
  'CLAUDE.md': ALL,
  'packages/api/CLAUDE.md': ['packages/api/handler.go'],
  // Copilot: the repository file always; applyTo as VS Code matches it (any depth, no case).
  '.github/copilot-instructions.md': ALL,
  '.github/instructions/python.instructions.md': ['main.py', 'scripts/build.py'],
  '.github/instructions/typescript.instructions.md': ['src/app.ts', 'src/components/Button.tsx', 'src/util/math.test.ts', 'packages/web/vite.config.ts', 'packages/web/src/index.ts', 'test/e2e/login.spec.ts'],
  '.github/instructions/markdown.instructions.md': ['README.md', 'docs/guide.md'],
  '.github/instructions/sources.instructions.md': ['src/app.ts', 'src/util/math.test.ts', 'packages/web/src/index.ts'],
  '.github/instructions/everything.instructions.md': ALL,
  '.github/instructions/frontend/react.instructions.md': ['src/components/Button.tsx'],
  '.github/instructions/release.instructions.md': NONE,
  '.github/instructions/styles.instructions.md': ['src/styles/App.CSS'],
  '.github/instructions/broken.instructions.md': NONE,
  // Claude Code rules: paths from the root; none = always.
  '.claude/rules/testing.md': ['src/util/math.test.ts', 'test/e2e/login.spec.ts'],
  '.claude/rules/root-docs.md': ['README.md'],
  '.claude/rules/general.md': ALL,
  '.claude/rules/frontend/components.md': ['src/components/Button.tsx'],
  // Cursor: alwaysApply, globs (bare = any depth, comma lists, YAML lists), description, manual.
  '.cursor/rules/typescript.mdc': ['src/app.ts', 'src/util/math.test.ts', 'packages/web/vite.config.ts', 'packages/web/src/index.ts', 'test/e2e/login.spec.ts'],
  '.cursor/rules/python.mdc': ['main.py', 'scripts/build.py'],
  '.cursor/rules/always.mdc': ALL,
  '.cursor/rules/database-migrations.mdc': NONE,
  '.cursor/rules/manual.mdc': NONE,
  '.cursor/rules/sources-and-tests.mdc': ['src/app.ts', 'src/util/math.test.ts', 'test/e2e/login.spec.ts'],
  '.cursor/rules/go-docker.mdc': ['packages/api/handler.go', 'Dockerfile'],
  '.cursor/rules/string-true.mdc': NONE,
  '.cursorrules': ALL,
  // Continue: alwaysApply unset and no globs = always; globs with braces, lists, `!` exclusions.
  '.continue/rules/01-general.md': ALL,
  '.continue/rules/02-docs.md': ['docs/guide.md'],
  '.continue/rules/03-typescript.md': ['src/app.ts', 'src/components/Button.tsx', 'src/util/math.test.ts', 'packages/web/vite.config.ts', 'packages/web/src/index.ts', 'test/e2e/login.spec.ts'],
  '.continue/rules/04-sources-not-tests.md': ['src/app.ts'],
  '.continue/rules/05-described.md': NONE,
  // Cline: a folder of rules; paths from the root; [] never.
  '.clinerules/01-coding.md': ALL,
  '.clinerules/02-react.md': ['src/components/Button.tsx'],
  '.clinerules/03-config.md': ['eslint.config.js'],
  '.clinerules/04-paused.md': NONE,
  '.windsurfrules': ALL,
};

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [relative(ROOT, join(dir, e.name)).replaceAll('\\', '/')]));
}

describe('rules: the golden table of 38 rule files', () => {
  const paths = walk(ROOT).sort();
  const rules: Rule[] = readRules(paths.map((path) => ({ path, content: readFileSync(join(ROOT, path)) })));

  it('every fixture is a rule file of its format and has a row (at least 30, every format)', () => {
    assert.ok(paths.length >= 30, `${paths.length} rule files`);
    assert.deepEqual(paths, Object.keys(GOLDEN).sort());
    assert.equal(rules.length, paths.length);
    const formats = new Set(paths.map((p) => ruleFormatOf(p)));
    const every: RuleFormat[] = ['agentsMd', 'copilotInstructions', 'copilotPathInstructions', 'claudeMd', 'claudeRules', 'cursorRules', 'cursorrules', 'continueRules', 'clinerules', 'windsurfrules'];
    assert.deepEqual([...formats].sort(), every.sort());
  });

  it('each rule applies to exactly the files of its row', () => {
    const wrong: string[] = [];
    for (const rule of rules) {
      const want = GOLDEN[rule.path];
      const expected = want === ALL ? [...FILES] : want;
      const got = FILES.filter((file) => chooseRules(rules, { files: [file] }).sent.some((c) => c.rule.id === rule.id));
      if (JSON.stringify(got) !== JSON.stringify(expected)) wrong.push(`${rule.path}: got ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('with no file in the request, only the rules for every request go', () => {
    const sent = chooseRules(rules, { files: [] }).sent.map((c) => c.rule.path);
    const always = Object.entries(GOLDEN).filter(([, v]) => v === ALL).map(([k]) => k);
    assert.deepEqual([...sent].sort(), always.sort());
  });

  it('the rules that never go say why: a description, manual, unreadable with the cause, an empty list', () => {
    const choice = chooseRules(rules, { files: [...FILES] });
    const reason = (path: string) => choice.rules.find((c) => c.rule.path === path)!.reason;
    assert.deepEqual(reason('.cursor/rules/database-migrations.mdc'), { kind: 'description', description: 'Use when writing or reviewing database migrations' });
    assert.deepEqual(reason('.github/instructions/release.instructions.md'), { kind: 'description', description: 'How to cut a release (tags, changelog, npm publish)' });
    assert.deepEqual(reason('.continue/rules/05-described.md'), { kind: 'description', description: 'Use when optimizing hot paths' });
    assert.deepEqual(reason('.cursor/rules/manual.mdc'), { kind: 'manual' });
    assert.deepEqual(reason('.clinerules/04-paused.md'), { kind: 'never' });
    assert.deepEqual(reason('.cursor/rules/string-true.mdc'), { kind: 'unreadable', why: '"alwaysApply" is "true", not true or false' });
    assert.deepEqual(reason('.github/instructions/broken.instructions.md'), { kind: 'unreadable', why: 'its front matter is broken: the front matter has no closing --- line' });
  });
});
