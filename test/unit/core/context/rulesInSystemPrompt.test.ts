// The repository's rules in the system text (core/context/instructions.ts splitSystemPrompt, and
// core/context/contextBudget.ts): the system text as the session builds it (the user's own prompt,
// the project instructions, then each rule under the header requestRules gives it) splits back into
// its parts, and a request that does not fit because of a large rule is refused naming that rule,
// with the button that turns a rule off.
import { strict as assert } from 'node:assert';
import {
  estimateTokens, messageTooLongError, readInstructions, readRules, requestBudget, requestRules, selectContext, splitSystemPrompt, systemPromptWith,
} from '../../../../src/core';

const agents = readInstructions({ name: 'AGENTS.md', content: new TextEncoder().encode('# Conventions\n- Run npm test.'), trusted: true, enabled: true });
const rules = (pyText = 'Python: use type hints.', webText = 'Web: no default exports.') =>
  readRules([
    { path: '.cursor/rules/py.mdc', content: `---\nglobs: **/*.py\n---\n${pyText}` },
    { path: 'web/AGENTS.md', content: webText },
  ]);
const FILES = ['src/a.py', 'web/app.ts'];
/** The system text as the session sends it: the setting with the project instructions, then the rules. */
const systemText = (own: string, ruleText: string) => [systemPromptWith(own, agents), ruleText].filter(Boolean).join('\n\n');

describe('splitSystemPrompt with the repository\'s rules (core/context/instructions.ts)', () => {
  it('own prompt, project instructions and two rules: each part apart, the rules with their paths and texts', () => {
    const r = requestRules(rules(), { files: FILES });
    assert.equal(r.sent.length, 2, 'two rule blocks');
    const parts = splitSystemPrompt(systemText('Be brief.', r.text));
    assert.equal(parts.own, 'Be brief.');
    assert.equal(parts.name, 'AGENTS.md');
    assert.equal(parts.project, 'Project instructions (AGENTS.md):\n\n# Conventions\n- Run npm test.', 'the project part without the rules');
    assert.deepEqual(parts.rules, [
      { path: '.cursor/rules/py.mdc', text: 'Python: use type hints.' },
      { path: 'web/AGENTS.md', text: 'Web: no default exports.' },
    ]);
  });

  it('rules without project instructions or an own prompt; a cut rule; a path with parentheses', () => {
    const cut = readRules([{ path: 'docs (old)/AGENTS.md', content: 'z'.repeat(33 * 1024) }]);
    const r = requestRules(cut, { files: ['docs (old)/x.md'] });
    assert.match(r.text, /^Project rules from docs \(old\)\/AGENTS\.md \(applies to files in docs \(old\)\/, such as docs \(old\)\/x\.md; .*, cut\):\n\n/);
    const parts = splitSystemPrompt(r.text);
    assert.equal(parts.own, '');
    assert.equal(parts.project, '');
    assert.deepEqual(parts.rules.map((x) => [x.path, x.text.length]), [['docs (old)/AGENTS.md', 32 * 1024]]);
    const withOwn = splitSystemPrompt(`Be brief.\n\n${requestRules(rules(), { files: FILES }).text}`);
    assert.equal(withOwn.own, 'Be brief.');
    assert.equal(withOwn.project, '');
    assert.deepEqual(withOwn.rules.map((x) => x.path), ['.cursor/rules/py.mdc', 'web/AGENTS.md']);
  });

  it('no rules: the parts as before, and an empty list', () => {
    const parts = splitSystemPrompt(systemPromptWith('Be brief.', agents));
    assert.deepEqual(parts, { own: 'Be brief.', project: 'Project instructions (AGENTS.md):\n\n# Conventions\n- Run npm test.', name: 'AGENTS.md', rules: [] });
  });
});

describe('a request too large because of a rule (core/context/contextBudget.ts)', () => {
  const budget = requestBudget(4096).inputTokens;
  const bigPy = '- Python: a long rule line about type hints and docstrings.\n'.repeat(330).trim(); // about 5,000 tokens

  it('instructions too large: the refusal names the largest rule and its size, with "Turn a Rule Off or On" (showRules)', () => {
    const r = requestRules(rules(bigPy), { files: FILES });
    const s = selectContext({ systemPrompt: systemText('Be brief.', r.text), message: 'hi', earlier: [], budget });
    assert.ok(!s.ok && s.reason === 'instructions-too-long', JSON.stringify(s.ok ? {} : s.tokens));
    const error = messageTooLongError(s);
    const tokens = estimateTokens(bigPy);
    assert.ok(error.message.includes(`The rule .cursor/rules/py.mdc alone takes about ${tokens} tokens: turn it off for this workspace`), error.message);
    assert.match(error.message, /^The instructions are too large for the model/);
    assert.doesNotMatch(error.message, /web\/AGENTS\.md/, 'the small rule is not named');
    assert.deepEqual(error.actions, ['showRules'], 'the small project instructions and own prompt get no button');
  });

  it('a message that then does not fit, the rule taking most of the budget: the rule is named too, with its button', () => {
    const r = requestRules(rules('- short rule', bigPy.slice(0, 8000)), { files: FILES });
    const s = selectContext({ systemPrompt: systemText('', r.text), message: 'x'.repeat(1200 * 4), earlier: [], budget });
    assert.ok(!s.ok && s.reason === 'message-too-long', JSON.stringify(s.ok ? {} : s.tokens));
    const error = messageTooLongError(s);
    assert.match(error.message, /^This message is too long for the model: .* The instructions alone take about .* The rule web\/AGENTS\.md alone takes about 2,?000 tokens/, error.message);
    assert.deepEqual(error.actions, ['showRules']);
  });

  it('rules that are a small part of the instructions are not named, and get no button', () => {
    const bigAgents = readInstructions({ name: 'AGENTS.md', content: new TextEncoder().encode('- keep functions small and documented.\n'.repeat(800)), trusted: true, enabled: true });
    const r = requestRules(rules(), { files: FILES });
    const s = selectContext({ systemPrompt: [systemPromptWith('', bigAgents), r.text].join('\n\n'), message: 'hi', earlier: [], budget });
    assert.ok(!s.ok);
    const error = messageTooLongError(s);
    assert.doesNotMatch(error.message, /The rule /);
    assert.deepEqual(error.actions, ['openInstructions', 'toggleInstructions']);
  });
});
