// Steps shared by several journeys, each done through the UI as a user would.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { DEMO_KEY } from '../server/fixtures';
import { e2e } from './setup';
import { waitFor, type Workbench } from './workbench';

/** Sets the API key with the command (the extension checks it against the server). */
export async function setKey(wb: Workbench, key = DEMO_KEY): Promise<void> {
  await wb.runCommand('AI Chat: Set API Key');
  // The key's box is a password box: not the palette's, which may be on screen a moment longer.
  const box = wb.quickInput().locator('input[type="password"]');
  await box.waitFor({ state: 'visible', timeout: 15_000 });
  // Put in without the keyboard: typed text goes wherever the focus is, and the box keeps its
  // place when the focus leaves it (ignoreFocusOut), so a focus change while it was typed sent a
  // CI run's key into the chat's message box instead.
  await box.evaluate((el, value) => {
    const input = el as HTMLInputElement;
    input.focus();
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, key);
  await box.press('Enter');
  await wb.quickInput().waitFor({ state: 'hidden', timeout: 15_000 });
}

/** The demo key set and the status bar showing the server's current balance. */
export async function readyWithKey(expectedCredits?: number): Promise<Workbench> {
  const { wb } = e2e();
  // A save prompt left by an earlier journey's test file (closed after it was changed or
  // deleted on disk) makes the whole workbench inert: those files are never saved.
  await waitFor(async () => !(await wb.answerDialog(/Don.t Save/).catch(() => false)), 'a save prompt kept coming back', 10_000).catch(() => undefined);
  await wb.closeQuickInput();
  await wb.clearNotifications();
  await setKey(wb);
  await wb.runCommand('AI Chat: Refresh Balance');
  await wb.waitForCredits(expectedCredits);
  // "API key saved. Balance: …" stays some 10 s over the lower right of the window, where the
  // chat's Send button is: a click there waits until the toast goes. The user has read it: clear it.
  await waitFor(async () => (await wb.notificationTexts()).some((t) => /API key saved/.test(t)), 'no "API key saved" notification', 10_000)
    .then(() => wb.clearNotifications())
    .catch(() => undefined);
  return wb;
}

/**
 * Picks a model with AI Chat: Select Model (or with `open`, another way to the same picker). A
 * picker closed by a focus change before its row was clicked (a busy machine) is opened again, so
 * that a journey always leaves the model it set.
 */
export async function selectModel(wb: Workbench, name: string, open: () => Promise<void> = () => wb.runCommand('AI Chat: Select Model')): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    await wb.closeQuickInput();
    await open();
    const row = wb.quickPickRows().filter({ hasText: name }).first();
    const picked = await row
      .click({ timeout: attempt < 2 ? 10_000 : 30_000 })
      .then(() => wb.quickInput().waitFor({ state: 'hidden', timeout: 10_000 }))
      .then(() => true, (err: unknown) => {
        if (attempt >= 2) throw err;
        return false;
      });
    if (picked) return;
    await wb.focusWorkbench();
  }
}

/** A setting of the user's settings.json in the demo profile (the source of VS Code's `config.` context keys). */
export function userSetting(key: string): unknown {
  const file = path.join(e2e().demo.profile.userDataDir, 'User', 'settings.json');
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** The reference server back to its start state, streaming at `chunkDelayMs`. */
export function resetServer(chunkDelayMs = 5): void {
  const { control } = e2e().demo.server;
  control.reset();
  control.configure({ chunkDelayMs });
}

/** Bodies of the POST /chat requests the reference server received. */
export function chatRequests(): Array<{ model?: string; messages?: Array<{ role: string; content: string }>; stream?: boolean; search?: boolean }> {
  return e2e()
    .demo.server.control.requests()
    .filter((r) => r.method === 'POST' && r.path === '/chat')
    .map((r) => (r.body ?? {}) as { model?: string; messages?: Array<{ role: string; content: string }> });
}

export async function waitForChatRequests(count: number): Promise<ReturnType<typeof chatRequests>> {
  return waitFor(
    () => {
      const reqs = chatRequests();
      return reqs.length >= count ? reqs : undefined;
    },
    `the reference server did not receive ${count} chat request(s)`,
  );
}

/** Switches the colour theme with "Preferences: Color Theme" and waits until the chat frame shows it. */
export async function useTheme(wb: Workbench, frame: Frame, theme: string, bodyClass: string): Promise<void> {
  await wb.focusWorkbench();
  await wb.runCommand('Preferences: Color Theme');
  await wb.quickInputBox().fill(theme);
  const row = wb.quickPickRows().filter({ hasText: theme }).first();
  await row.waitFor({ timeout: 15_000 }).catch(async () => {
    throw new Error(`no theme "${theme}"; listed: ${(await wb.quickPickLabels()).join(' | ')}`);
  });
  await row.click();
  await wb.quickInput().waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => wb.page.keyboard.press('Enter'));
  await waitFor(
    () => frame.evaluate((cls) => document.body.classList.contains(cls), bodyClass),
    `the chat never showed the theme "${theme}" (body class ${bodyClass})`,
  );
}
