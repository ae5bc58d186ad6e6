// core/rules/requestRules.ts: the rules of one request as the chat keeps them: the text the model
// gets (the rules chosen, each under its header) and the list kept with the reply (the project
// instructions first, then each rule that went, with why).
import { strict as assert } from 'node:assert';
import { MAX_SENT_RULES, NO_RULES, chooseRules, readRules, reasonText, requestRules, rulesText, type SentRule } from '../../../../src/core';

const rules = readRules([
  { path: '.github/copilot-instructions.md', content: 'Copilot: always answer in English.' },
  { path: '.github/instructions/py.instructions.md', content: '---\napplyTo: "**/*.py"\n---\nPython: use type hints.' },
  { path: '.cursor/rules/ts.mdc', content: '---\nglobs: **/*.ts\n---\nTypeScript: no any.' },
  { path: 'web/AGENTS.md', content: 'Web: run npm test in web/.' },
]);
const INSTRUCTIONS: SentRule = { path: 'AGENTS.md', why: 'always (the project instructions)' };

describe('requestRules (core/rules/requestRules.ts)', () => {
  it('lists the project instructions first, then each rule chosen for the files, with the reason the rules list shows', () => {
    const got = requestRules(rules, { files: ['src/a.py'] }, INSTRUCTIONS);
    const choice = chooseRules(rules, { files: ['src/a.py'] });
    assert.deepEqual(got.sent, [
      INSTRUCTIONS,
      { path: '.github/copilot-instructions.md', why: 'always' },
      { path: '.github/instructions/py.instructions.md', why: 'matched `src/a.py` by `**/*.py`' },
    ]);
    assert.deepEqual(got.sent.slice(1), choice.sent.map((c) => ({ path: c.rule.path, why: reasonText(c.reason) })));
  });

  it('its text is exactly the rules text of the choice: the rules that went, not the project instructions', () => {
    const got = requestRules(rules, { files: ['src/a.py', 'web/app.ts'] }, INSTRUCTIONS);
    const text = rulesText(chooseRules(rules, { files: ['src/a.py', 'web/app.ts'] }));
    assert.equal(got.text, text);
    assert.match(got.text, /^Project rules from \.github\/copilot-instructions\.md \(applies to every request\):\n\nCopilot: always answer in English\./);
    for (const t of ['Python: use type hints.', 'TypeScript: no any.', 'Web: run npm test in web/.']) assert.ok(got.text.includes(t), t);
    assert.doesNotMatch(got.text, /Project rules from AGENTS\.md/, 'the project instructions are not in the rules text');
    assert.equal(got.sent.length, 5);
  });

  it('a reason past the stored limit (a very long matched path) is cut, so the reply keeps its facts and the panel takes them', async () => {
    const { ReplyFactsSchema } = await import('../../../../src/core');
    const { ReplyMetaSchema } = await import('../../../../src/protocol');
    const long = `packages/${'x/'.repeat(300)}a.py`;
    const got = requestRules(rules, { files: [long] });
    const why = got.sent.find((r) => r.path === '.github/instructions/py.instructions.md')?.why ?? '';
    assert.equal(why.length, 500);
    assert.ok(why.startsWith('matched `packages/x/') && why.endsWith('…'), why.slice(0, 40));
    assert.equal(ReplyFactsSchema.safeParse({ model: 'm', rules: got.sent }).success, true);
    assert.equal(ReplyMetaSchema.safeParse({ model: 'm', rules: got.sent }).success, true);
  });

  it('a rule turned off is neither in the text nor in the list', () => {
    const got = requestRules(rules, { files: ['src/a.py'], off: new Set(['.github/instructions/py.instructions.md']) }, INSTRUCTIONS);
    assert.deepEqual(got.sent.map((s) => s.path), ['AGENTS.md', '.github/copilot-instructions.md']);
    assert.ok(!got.text.includes('Python: use type hints.'), got.text);
    assert.ok(!got.text.includes('py.instructions.md'), got.text);
  });

  it('without the project instructions the list starts with the first rule; with no rule at all it is empty', () => {
    assert.equal(requestRules(rules, { files: [] }).sent[0].path, '.github/copilot-instructions.md');
    assert.deepEqual(requestRules([], { files: ['src/a.py'] }), NO_RULES);
    assert.deepEqual(requestRules([], { files: [] }, INSTRUCTIONS), { text: '', sent: [INSTRUCTIONS] });
  });

  it(`keeps at most ${MAX_SENT_RULES} entries (what a reply's facts accept), the project instructions first`, () => {
    const many = readRules(Array.from({ length: MAX_SENT_RULES + 20 }, (_, i) => ({ path: `.claude/rules/r${String(i).padStart(3, '0')}.md`, content: `rule ${i}` })));
    const got = requestRules(many, { files: [] }, INSTRUCTIONS);
    assert.equal(got.sent.length, MAX_SENT_RULES);
    assert.deepEqual(got.sent[0], INSTRUCTIONS);
  });
});
