// Steps shared by several journeys, each done through the UI as a user would.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { DEMO_KEY } from '../server/fixtures';
import { e2e } from './setup';
import { waitFor, type Workbench } from './workbench';

/** Sets the API key with the command (the extension checks it against the server). */
export async function setKey(wb: Workbench, key = DEMO_KEY): Promise<void> {
  await wb.runCommand('AI Chat: Set API Key');
  await wb.answerInput(key);
  await wb.quickInput().waitFor({ state: 'hidden', timeout: 15_000 });
}

/** The demo key set and the status bar showing the server's current balance. */
export async function readyWithKey(expectedCredits?: number): Promise<Workbench> {
  const { wb } = e2e();
  await wb.closeQuickInput();
  await wb.clearNotifications();
  await setKey(wb);
  await wb.runCommand('AI Chat: Refresh Balance');
  await wb.waitForCredits(expectedCredits);
  return wb;
}

/** The reference server back to its start state, streaming at `chunkDelayMs`. */
export function resetServer(chunkDelayMs = 5): void {
  const { control } = e2e().demo.server;
  control.reset();
  control.configure({ chunkDelayMs });
}

/** Bodies of the POST /chat requests the reference server received. */
export function chatRequests(): Array<{ model?: string; messages?: Array<{ role: string; content: string }>; stream?: boolean }> {
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

/** Writes one user setting into the profile's settings.json (VS Code applies it on change). */
export function setUserSetting(key: string, value: unknown): void {
  const file = path.join(e2e().demo.profile.userDataDir, 'User', 'settings.json');
  const current = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  if (value === undefined) delete current[key];
  else current[key] = value;
  writeFileSync(file, `${JSON.stringify(current, null, 2)}\n`);
}

/** Switches the colour theme and waits until the chat frame `frame` shows it (its body class). */
export async function useTheme(frame: Frame, theme: string, bodyClass: string): Promise<void> {
  setUserSetting('workbench.colorTheme', theme);
  await waitFor(
    () => frame.evaluate((cls) => document.body.classList.contains(cls), bodyClass),
    `the chat never showed the theme "${theme}" (body class ${bodyClass})`,
  );
}
