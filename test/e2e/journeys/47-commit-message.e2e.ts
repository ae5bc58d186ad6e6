// Journey 47: AI Chat: Write Commit Message from the Source Control title bar. A Git repository in
// the workspace with two commits and a staged change: the button sends the staged diff with the
// file list and the recent subjects, and the reference server's reply (its first code block) fills
// the commit message box.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { commitMessageFromReply } from '../../../src/core/sourceControl/commitMessage';
import { generateReply } from '../../server/reply';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer } from '../steps';
import { squash, waitFor } from '../workbench';

describe('Journey 47: Write Commit Message in Source Control', () => {
  let repo = '';
  let settingsFile = '';
  let settingsBefore = '';

  after(async () => {
    const { wb } = e2e();
    if (settingsFile) {
      if (settingsBefore) writeFileSync(settingsFile, settingsBefore);
      else rmSync(settingsFile, { force: true });
    }
    if (repo) rmSync(repo, { recursive: true, force: true });
    await wb.runCommand('View: Show Explorer').catch(() => undefined);
  });

  it('the title bar button sends the staged diff with the recent subjects and fills the commit box with the reply', async () => {
    resetServer();
    const { demo, page } = e2e();
    repo = path.join(demo.profile.workspace, 'commit-demo');
    rmSync(repo, { recursive: true, force: true });
    mkdirSync(repo, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Demo', '-c', 'user.email=demo@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: repo });
    git('init', '-q', '-b', 'main');
    writeFileSync(path.join(repo, 'price.ts'), 'export const price = (n: number) => n * 1.2;\n');
    git('add', '.');
    git('commit', '-q', '-m', 'feat(price): add the price with tax');
    writeFileSync(path.join(repo, 'README.md'), '# Prices\n');
    git('add', '.');
    git('commit', '-q', '-m', 'docs: describe the prices');
    writeFileSync(path.join(repo, 'price.ts'), 'export const TAX = 1.2;\nexport const price = (n: number) => n * TAX;\n');
    git('add', 'price.ts');

    const wb = await readyWithKey();
    // Git is off in the test profile: the workspace turns it on for this journey (as a repository's settings would).
    const settingsDir = path.join(demo.profile.workspace, '.vscode');
    mkdirSync(settingsDir, { recursive: true });
    settingsFile = path.join(settingsDir, 'settings.json');
    settingsBefore = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : '';
    writeFileSync(settingsFile, JSON.stringify({ ...(settingsBefore ? (JSON.parse(settingsBefore) as Record<string, unknown>) : {}), 'git.enabled': true }, null, 2));

    await wb.runCommand('Source Control: Focus on Changes View');
    const button = page.locator('.action-label[aria-label*="Write Commit Message"] >> visible=true').first();
    let actions: Array<string | null> = [];
    await waitFor(
      async () => {
        // The view's title actions show while the pointer is over its header.
        await page.locator('.pane-header', { hasText: 'Changes' }).first().hover().catch(() => undefined);
        if (await button.isVisible()) return true;
        actions = await page.locator('.pane-header .action-label, .title-actions .action-label').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
        return false;
      },
      () => `no Write Commit Message button in the Source Control title bar; it shows: ${actions.join(' | ')}`,
      60_000,
    );
    const before = chatRequests().length;
    await button.click();

    const box = page.locator('.scm-editor .view-lines').first();
    let shown = '';
    await waitFor(
      async () => {
        shown = (await box.innerText().catch(() => '')).replace(/\u00a0/g, ' ').trim();
        return chatRequests().length > before && shown.length > 0;
      },
      () => `the commit box was never filled (requests ${chatRequests().length - before}, box ${JSON.stringify(shown)})`,
      60_000,
    );
    const sent = chatRequests().at(-1)?.messages ?? [];
    const prompt = sent.at(-1)?.content ?? '';
    assert.match(prompt, /^Write a commit message for these staged changes\./);
    assert.match(prompt, /\n- docs: describe the prices\n- feat\(price\): add the price with tax\n/);
    assert.match(prompt, /Changed files \(1\):\n- price\.ts \(modified\)\n/);
    assert.ok(prompt.includes('+export const TAX = 1.2;'), 'the staged diff');
    const expected = commitMessageFromReply(generateReply(sent));
    assert.ok(expected.length > 0);
    // The box wraps long lines: compare the words.
    const first = squash(expected.split('\n')[0]);
    assert.ok(squash(shown).startsWith(first), `the box starts with the reply's first code block: ${JSON.stringify(first)}; it shows ${JSON.stringify(shown.slice(0, 200))}`);
    await wb.screenshot('commit-message');
  });
});
