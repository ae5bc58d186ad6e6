// core/rules/ruleFiles.ts: a rule file read from a real folder on disk, under the rules of the
// project instructions file: a regular file inside the folder; a link to a secret (.git/config,
// .env, a .pem) or out of the folder is an unreadable rule whose text is never read; a missing file
// is no rule; a large one is cut at 32 KB.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { INSTRUCTIONS_MAX_BYTES, chooseRules, loadRule, type Rule } from '../../../../src/core';

const SECRET = 'SECRET-CONTENT-7f3a9c';

/** Everything a rule carries, as one string: the secret must be nowhere in it. */
const everything = (rule: Rule | undefined) => JSON.stringify(rule);

describe('loadRule (core/rules/ruleFiles.ts) on a real folder', () => {
  let root: string;
  let folder: string;
  let outside: string;
  let linksWork = true;

  const write = async (rel: string, content: string | Uint8Array) => {
    const p = path.join(folder, rel);
    await fsp.mkdir(path.dirname(p), { recursive: true });
    await fsp.writeFile(p, content);
  };
  const link = async (rel: string, target: string) => {
    const p = path.join(folder, rel);
    await fsp.mkdir(path.dirname(p), { recursive: true });
    await fsp.symlink(target, p);
  };

  before(async function () {
    root = await fsp.mkdtemp(path.join(os.tmpdir(), 'aichat-rulefiles-'));
    folder = path.join(root, 'workspace');
    outside = path.join(root, 'elsewhere');
    await fsp.mkdir(folder);
    await fsp.mkdir(outside);
    await write('.cursor/rules/py.mdc', '---\nglobs: **/*.py\ndescription: Python\n---\n# Python\n- Use type hints.\n');
    await write('.git/config', `[remote "origin"]\n\turl = https://user:${SECRET}@example.com/repo.git\n`);
    await write('.env', `API_TOKEN=${SECRET}\n`);
    await write('secrets/prod.pem', `-----BEGIN PRIVATE KEY-----\n${SECRET}\n-----END PRIVATE KEY-----\n`);
    await write('docs/shared-rules.md', '- Shared rule, linked from CLAUDE.md in pkg.\n');
    await fsp.writeFile(path.join(outside, 'rules.md'), `outside the workspace ${SECRET}\n`);
    await fsp.writeFile(path.join(outside, 'AGENTS.md'), `outside the workspace ${SECRET}\n`);
    try {
      await link('CLAUDE.md', '.git/config');
      await link('.cursorrules', '.env');
      await link('.windsurfrules', 'secrets/prod.pem');
      await link('.github/copilot-instructions.md', path.join(outside, 'rules.md'));
      await link('pkg/CLAUDE.md', '../docs/shared-rules.md');
    } catch {
      // Symbolic links need a privilege on some Windows machines.
      linksWork = false;
    }
  });

  after(async () => {
    await fsp.rm(root, { recursive: true, force: true });
  });

  it('reads a regular rule file: its text without the front matter, its patterns, its size', async () => {
    const rule = await loadRule(folder, '.cursor/rules/py.mdc');
    assert.ok(rule);
    assert.equal(rule.state, 'ok');
    assert.equal(rule.format, 'cursorRules');
    assert.equal(rule.text, '# Python\n- Use type hints.');
    assert.equal(rule.description, 'Python');
    assert.equal(rule.cut, false);
    assert.equal(rule.bytes, (await fsp.stat(path.join(folder, '.cursor/rules/py.mdc'))).size);
    assert.deepEqual(chooseRules([rule], { files: ['src/a.py'] }).sent.map((c) => c.reason), [{ kind: 'matched', file: 'src/a.py', pattern: '**/*.py' }]);
  });

  const secretLinks: Array<[string, string]> = [
    ['CLAUDE.md', '.git/config'],
    ['.cursorrules', '.env'],
    ['.windsurfrules', 'secrets/prod.pem'],
  ];
  for (const [rel, target] of secretLinks) {
    it(`a rule file that is a link to ${target} inside the folder is unreadable ("secret"), and its text is never read`, async function () {
      if (!linksWork) this.skip();
      const rule = await loadRule(folder, rel);
      assert.ok(rule, 'listed, so the rules list says why');
      assert.equal(rule.state, 'unreadable');
      assert.match(rule.problem ?? '', /secret/);
      assert.ok(rule.problem?.includes(target), `names where it leads: ${rule.problem}`);
      assert.equal(rule.text, '');
      assert.ok(!everything(rule).includes(SECRET), everything(rule));
      const choice = chooseRules([rule], { files: ['src/a.py'] });
      assert.deepEqual(choice.sent, [], 'never sent');
      assert.equal(choice.rules[0].reason.kind, 'unreadable');
    });
  }

  it('a rule file whose own name looks like a secret is unreadable without being read', async () => {
    await write('.clinerules/api-key.md', `the key is ${SECRET}\n`);
    const rule = await loadRule(folder, '.clinerules/api-key.md');
    assert.ok(rule);
    assert.equal(rule.state, 'unreadable');
    assert.match(rule.problem ?? '', /secret/);
    assert.ok(!everything(rule).includes(SECRET));
  });

  it('a link out of the folder is unreadable ("outside"), its text never read', async function () {
    if (!linksWork) this.skip();
    const rule = await loadRule(folder, '.github/copilot-instructions.md');
    assert.ok(rule);
    assert.equal(rule.state, 'unreadable');
    assert.match(rule.problem ?? '', /outside/);
    assert.ok(!everything(rule).includes(SECRET));
    assert.deepEqual(chooseRules([rule], { files: [] }).sent, []);
  });

  it('a link to another file inside the folder is followed and read', async function () {
    if (!linksWork) this.skip();
    const rule = await loadRule(folder, 'pkg/CLAUDE.md');
    assert.equal(rule?.state, 'ok');
    assert.equal(rule?.text, '- Shared rule, linked from CLAUDE.md in pkg.');
  });

  it('a missing file is no rule (undefined), nor is a path above the folder', async () => {
    assert.equal(await loadRule(folder, '.cursor/rules/gone.mdc'), undefined);
    assert.equal(await loadRule(folder, 'AGENTS.md'), undefined);
    assert.equal(await loadRule(folder, '../elsewhere/AGENTS.md'), undefined);
  });

  it('a 40 KB file is cut to 32 KB, and says so', async () => {
    const line = 'x'.repeat(99) + '\n';
    const big = line.repeat(400) + 'y'.repeat(960); // 40,960 bytes
    assert.equal(big.length, 40 * 1024);
    await write('AGENTS.md', big);
    const rule = await loadRule(folder, 'AGENTS.md');
    assert.ok(rule);
    assert.equal(rule.state, 'ok');
    assert.equal(rule.cut, true);
    assert.equal(rule.bytes, 40 * 1024);
    assert.equal(INSTRUCTIONS_MAX_BYTES, 32 * 1024);
    assert.ok(rule.textBytes <= INSTRUCTIONS_MAX_BYTES, `${rule.textBytes} bytes`);
    assert.ok(rule.textBytes > INSTRUCTIONS_MAX_BYTES - 100, `cut at the cap, not far below: ${rule.textBytes}`);
    assert.ok(!rule.text.includes('y'), 'the end of the file is not sent');
    assert.match(chooseRules([rule], { files: [] }).sent[0].header ?? '', /, cut\):$/);
  });
});
