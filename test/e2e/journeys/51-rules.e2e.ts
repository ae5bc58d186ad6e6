// Journey 51: the repository's rules. The workspace keeps a Copilot path rule for Python
// (`.github/instructions/py.instructions.md`, applyTo "**/*.py") and a Cursor rule for TypeScript
// (`.cursor/rules/ts.mdc`, globs **/*.ts). A question with a .py file attached carries the Python
// rule and not the TypeScript one; the reply shows "Rules: 1" with why; AI Chat's Rules list shows
// both with why; turned off there, the Python rule no longer goes.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer } from '../steps';
import { waitFor } from '../workbench';

const PY_RULE = 'Use type hints everywhere e2e-py-rule';
const TS_RULE = 'Prefer readonly arrays e2e-ts-rule';
const RULES_COMMAND = 'AI Chat: Rules of This Workspace (Turn One Off or On)';

/** The system message of the last chat request the reference server received. */
function lastSystem(): string {
  const reqs = chatRequests();
  return reqs[reqs.length - 1]?.messages?.find((m) => m.role === 'system')?.content ?? '';
}

describe('Journey 51: The repository\'s rules', () => {
  const made: string[] = [];

  after(async () => {
    const { wb } = e2e();
    await wb.closeQuickInput().catch(() => undefined);
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    for (const p of made) rmSync(p, { recursive: true, force: true });
  });

  it('a .py file attached carries the Python rule only, the reply says why, and a rule turned off no longer goes', async () => {
    resetServer();
    const { demo } = e2e();
    const root = demo.profile.workspace;
    mkdirSync(path.join(root, '.github', 'instructions'), { recursive: true });
    mkdirSync(path.join(root, '.cursor', 'rules'), { recursive: true });
    writeFileSync(path.join(root, '.github', 'instructions', 'py.instructions.md'), `---\napplyTo: "**/*.py"\n---\n${PY_RULE}\n`);
    writeFileSync(path.join(root, '.cursor', 'rules', 'ts.mdc'), `---\nglobs: **/*.ts\nalwaysApply: false\n---\n${TS_RULE}\n`);
    writeFileSync(path.join(root, 'src', 'tally.py'), 'def tally(xs):\n    return sum(xs)\n');
    made.push(path.join(root, '.github', 'instructions'), path.join(root, '.cursor'), path.join(root, 'src', 'tally.py'));
    const wb = await readyWithKey();

    // The Rules list shows both, each with why it would go now (no editor open: neither).
    // The list opens at once and fills when the rule files are read again: its rows are waited for.
    const bothListed = (listed: string[]) => listed.some((l) => l.includes('py.instructions.md')) && listed.some((l) => l.includes('ts.mdc'));
    await waitFor(async () => {
      await wb.runCommand(RULES_COMMAND);
      const shown = await wb.quickInput().waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false);
      const both = shown && (await waitFor(async () => bothListed(await wb.quickPickLabels()), 'rows', 10_000).then(() => true, () => false));
      if (!both) await wb.closeQuickInput();
      return both;
    }, 'the Rules list did not show both rule files', 60_000);
    const labels = await wb.quickPickLabels();
    assert.ok(labels.some((l) => /py\.instructions\.md.*not sent: no file of the request matches `\*\*\/\*\.py`/.test(l)), labels.join(' | '));
    await wb.closeQuickInput();

    // The .py file attached (its chip), and no editor left open: the attachment is what counts.
    await wb.openFile('tally.py');
    const chat = await wb.chat();
    await chat.newChat();
    await chat.attach('file');
    const chips = chat.frame.locator('.context-chip');
    await waitFor(async () => (await chips.count()) === 1, 'no chip for tally.py');
    await wb.runCommand('View: Close All Editors');

    const chatAgain = await wb.chat();
    await chatAgain.ask('Any advice for this file? e2e-rules-one');
    const system = lastSystem();
    assert.ok(system.includes(PY_RULE), `the Python rule went: ${system.slice(0, 400)}`);
    assert.match(system, /Project rules from \.github\/instructions\/py\.instructions\.md \(applies to src\/tally\.py/);
    assert.ok(!system.includes(TS_RULE), 'the TypeScript rule went with a request that has no .ts file');

    // Under the reply: "Rules: 1", and why.
    const rules = chatAgain.lastReply().locator('.reply-rules');
    await rules.locator('summary').waitFor({ timeout: 15_000 });
    assert.equal((await rules.locator('summary').textContent())?.trim(), 'Rules: 1');
    await rules.locator('summary').click();
    const item = ((await rules.locator('li').first().textContent()) ?? '').replace(/\s+/g, ' ');
    assert.match(item, /\.github\/instructions\/py\.instructions\.md · matched src\/tally\.py by \*\*\/\*\.py/);
    await wb.screenshot('rules-under-reply');

    // Turned off from the list (the reply's own link opens it): the next .py question goes without it.
    await rules.getByRole('button', { name: 'Turn a rule off or on…' }).click();
    await wb.quickInput().waitFor({ state: 'visible', timeout: 15_000 });
    await wb.quickPickRows().filter({ hasText: 'py.instructions.md' }).first().locator('.quick-input-list-checkbox, input[type=checkbox], .monaco-checkbox').first().click();
    await wb.quickInputBox().press('Enter');
    await wb.quickInput().waitFor({ state: 'hidden', timeout: 10_000 });

    // The .py file is the active editor now: it would match, but the rule is off.
    await wb.openFile('tally.py');
    const chatThird = await wb.chat();
    await chatThird.ask('And now? e2e-rules-two');
    assert.ok(!lastSystem().includes(PY_RULE), 'the Python rule went although it was turned off');
    assert.equal(await chatThird.lastReply().locator('.reply-rules').count(), 0, 'a reply without rules shows no rules list');
  });
});
