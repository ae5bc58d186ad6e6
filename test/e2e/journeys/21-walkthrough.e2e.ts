// Journey 21: the "Get Started with AI Chat" walkthrough opens and its steps complete as the
// user does what they say, as a new user meets it: no key yet, no step done, a new window.
import assert from 'node:assert/strict';
import { e2e } from '../setup';
import { DEMO_KEY } from '../../server/fixtures';
import { readyWithKey, resetServer, selectModel } from '../steps';
import { waitFor } from '../workbench';

const STEPS = ['Set your API key', 'Pick a model', 'Send a selection', 'Check your balance'];

describe('Journey 21: Walkthrough', () => {
  it('opens from "Welcome: Open Walkthrough..." and each step is checked off by its own button', async () => {
    resetServer();
    const wb = await readyWithKey();
    const { page } = e2e();

    // A new user: no key, and no step done. The walkthrough notes each command once per window,
    // so the window is reloaded after its progress is reset (earlier journeys ran these commands).
    await wb.runCommand('AI Chat: Clear API Key');
    await wb.answerDialog(/clear|yes|remove/i);
    await waitFor(async () => /Set API Key/.test(await wb.statusText()), 'the status bar still shows a balance after Clear API Key');
    await wb.runCommand('Developer: Reset Welcome Page Walkthrough Progress');
    await wb.reloadWindow();

    await wb.runCommand('Welcome: Open Walkthrough...');
    const row = wb.quickPickRows().filter({ hasText: 'Get Started with AI Chat' }).first();
    await row.waitFor({ timeout: 15_000 }).catch(async () => {
      throw new Error(`the walkthrough is not offered; listed: ${(await wb.quickPickLabels()).join(' | ')}`);
    });
    await row.click();
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough.getByText('Get Started with AI Chat').first().waitFor({ timeout: 30_000 });
    for (const title of STEPS) await walkthrough.getByText(title, { exact: true }).first().waitFor({ timeout: 10_000 });

    const step = (title: string) => walkthrough.locator('.getting-started-step').filter({ hasText: title }).first();
    /** Whether the step titled `title` is checked off (its checkbox shows the done state). */
    const done = async (title: string): Promise<boolean> => {
      // The page updates its steps only while it shows the walkthrough; the welcome page behind
      // it keeps the steps as they were.
      if (!(await page.locator('.gettingStarted.showDetails').count())) throw new Error('the walkthrough is no longer shown');
      return step(title).evaluate((el) => el.classList.contains('complete') || !!el.querySelector('.codicon-pass-filled, .complete'));
    };
    const states = async () => Promise.all(STEPS.map(async (t) => `${t}: ${(await done(t).catch((e: Error) => e.message)) === true ? 'done' : 'not done'}`));
    /** Opens the step and clicks its button, as a user who reads the step first. */
    const runStep = async (title: string, button: string) => {
      await step(title).click();
      await step(title).and(page.locator('.expanded')).waitFor({ timeout: 10_000 });
      // The walkthrough moves the focus to the step it opened, which would close a picker opened
      // sooner. Without its animation (the e2e profile prefers reduced motion for the welcome
      // page) it does so at once: the focus on the step is awaited.
      await waitFor(
        () => step(title).evaluate((el) => el.ownerDocument.activeElement === (el.closest('[data-step-id]') ?? el.querySelector('[data-step-id]') ?? el)),
        `the walkthrough did not move the focus to the step "${title}"`,
        10_000,
      );
      await walkthrough.getByRole('button', { name: button }).first().click();
    };

    for (const title of STEPS) assert.equal(await done(title), false, `"${title}" is done before the user did anything (${(await states()).join(', ')})`);

    await runStep(STEPS[0], 'Set API Key');
    await wb.answerInput(DEMO_KEY);
    await wb.quickInput().waitFor({ state: 'hidden', timeout: 15_000 });
    await waitFor(() => done(STEPS[0]), 'the "Set your API key" step was not checked off once the key was set');
    await wb.waitForCredits();

    await runStep(STEPS[3], 'Show Balance');
    await wb.quickInput().waitFor({ state: 'visible', timeout: 15_000 });
    await wb.closeQuickInput();
    await waitFor(() => done(STEPS[3]), 'the "Check your balance" step was not checked off by Show Balance');
    assert.equal(await done(STEPS[1]), false, `"Pick a model" is done before a model was picked (${(await states()).join(', ')})`);

    // A picker closed by a focus change (a busy machine) is opened again with the step's button.
    await selectModel(wb, 'Swift Chat', () => runStep(STEPS[1], 'Select Model'));
    await waitFor(() => done(STEPS[1]), 'the "Pick a model" step was not checked off by Select Model').catch(async (err: Error) => {
      throw new Error(`${err.message} (${(await states().catch(() => [])).join(', ')})`);
    });
    await wb.screenshot('walkthrough');
    await page.keyboard.press('Escape');
  });
});
