// Journey 11: a cloned repository names another service address in .vscode/settings.json.
// Nothing reaches that address (with or without the key) until the user allows it; the user is
// told, in a notification and in the panel; declining keeps everything working against their own
// address; allowing sends the next request there. A model the workspace names is not used until
// the user allows it (picking it there), the chat says so, and a pick of another model stays.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEMO_KEY } from '../../server/fixtures';
import { startReferenceServer, type ReferenceServer } from '../../server/server';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer, selectModel } from '../steps';
import { waitFor } from '../workbench';

describe('Journey 11: a workspace that names another service address', () => {
  let collector: ReferenceServer | undefined;
  let settingsDir = '';
  after(async () => {
    if (settingsDir) rmSync(settingsDir, { recursive: true, force: true });
    await collector?.close();
  });

  it('sends nothing there until the user allows it, says so, and keeps working against the own address', async function () {
    this.timeout(240_000);
    const { wb, demo } = e2e();
    resetServer(0);
    collector = await startReferenceServer({ port: 0, quiet: true, chunkDelayMs: 0 });
    const collectorUrl = collector.url;
    await readyWithKey();

    // The repository's settings arrive (as after a clone or a pull) while the window is open.
    settingsDir = path.join(demo.profile.workspace, '.vscode');
    mkdirSync(settingsDir, { recursive: true });
    writeFileSync(path.join(settingsDir, 'settings.json'), JSON.stringify({ 'aiChat.baseUrl': collectorUrl }, null, 2));

    const notice = await wb.waitForNotification(/this workspace sets the service address/i);
    assert.ok(notice.includes(collectorUrl), `the notification names the address: ${notice}`);
    assert.match(notice, /not used until you allow it/);
    // The user declines (Keep My Address).
    const toast = wb.notifications().filter({ hasText: 'this workspace sets the service address' }).first();
    const message = (await toast.locator('.notification-list-item-message').innerText()).trim();
    assert.ok(message.startsWith(`AI Chat: this workspace sets the service address to ${collectorUrl}`), `the message: ${message}`);
    await toast.getByRole('button', { name: 'Review…' }).waitFor({ timeout: 5_000 });
    await toast.getByRole('button', { name: 'Keep My Address' }).click();

    // The panel still says why, and chatting works: against the user's own address.
    const chat = await wb.openChat();
    await waitFor(async () => (await chat.frame.locator('.notice').innerText().catch(() => '')).includes(collectorUrl), 'the panel names the workspace address', 15_000);
    const ownBefore = demo.server.control.requests().length;
    await chat.ask('Which address answers me?');
    await wb.runCommand('AI Chat: Refresh Balance');
    await wb.waitForCredits();
    assert.ok(demo.server.control.requests().length > ownBefore, 'the own address answered');
    assert.deepEqual(collector.control.requests(), [], 'nothing reached the workspace address');

    await chat.ask('Still here?');
    assert.deepEqual(collector.control.requests(), [], 'nothing reached the workspace address after declining');
    assert.ok(
      !(await wb.notificationTexts()).some((t) => t.includes('this workspace sets the service address')),
      'the declined address is announced again',
    );

    // The status bar says which address is in use and why the workspace's is not.
    await wb.clearNotifications();
    const tooltip = await wb.statusTooltip();
    assert.ok(tooltip.includes(demo.server.url), `the tooltip names the address in use: ${tooltip}`);
    assert.ok(tooltip.includes(collectorUrl), `the tooltip names the workspace address it does not use: ${tooltip}`);
    await wb.page.mouse.move(0, 0);

    // Review Service Address -> Allow: the next request goes to the workspace address.
    await wb.runCommand('AI Chat: Review Service Address');
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 15_000 });
    const question = (await dialog.innerText()).replace(/\s+/g, ' ');
    assert.ok(question.includes(`Send your AI Chat API key to ${collectorUrl}?`), `the dialog names the address: ${question}`);
    assert.match(question, /your API key and your messages are sent there/);
    await dialog.getByRole('button', { name: 'Allow' }).click();
    // The palette cannot take typing while the modal is still closing (the workbench is inert).
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    // The allowed address has a balance of its own for the key: the status bar shows it once read.
    collector.control.setBalance({ key: DEMO_KEY, regular: 777, daily: 0 });
    await wb.runCommand('AI Chat: Refresh Balance');
    await waitFor(async () => collector!.control.requests().some((r) => r.path.endsWith('/user/balance') && r.hasKey), 'the allowed address received the balance request', 20_000);
    await waitFor(async () => (await wb.statusText()).includes('777'), "the status bar does not show the allowed address's balance", 20_000);
    // Nothing the balance brought (a notification) covers the chat's Send button.
    await wb.clearNotifications();

    // The next chat goes there too, with the key; the own address gets no chat.
    const ownChats = () => demo.server.control.requests().filter((r) => r.method === 'POST' && r.path === '/chat').length;
    const ownChatsBefore = ownChats();
    const chat2 = await wb.openChat();
    await chat2.ask('Now at the workspace address');
    const there = collector.control.requests().filter((r) => r.method === 'POST' && r.path === '/chat');
    assert.equal(there.length, 1, 'one chat request at the allowed address');
    assert.equal(there[0].hasKey, true, 'the allowed address gets the key');
    assert.equal(ownChats(), ownChatsBefore, 'a chat still went to the own address after Allow');

    // Another address, plain http to a host that is not this machine (TEST-NET, never reached):
    // Review… on the notification asks, and says the key would travel in clear text; Cancel declines.
    const plain = 'http://192.0.2.10:8080';
    writeFileSync(path.join(settingsDir, 'settings.json'), JSON.stringify({ 'aiChat.baseUrl': plain }, null, 2));
    await wb.waitForNotification(/this workspace sets the service address to http:\/\/192\.0\.2\.10:8080/);
    await wb.notifications().filter({ hasText: plain }).first().getByRole('button', { name: 'Review…' }).click();
    await dialog.waitFor({ timeout: 15_000 });
    const clear = (await dialog.innerText()).replace(/\s+/g, ' ');
    assert.ok(clear.includes(`Send your AI Chat API key to ${plain}?`), `the dialog names the address: ${clear}`);
    assert.match(clear, /clear text/i, `the dialog says the key would travel in clear text: ${clear}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 5_000 });
  });

  it("a workspace's model is not used until the user allows it, and the chat says so", async function () {
    this.timeout(180_000);
    const { wb, demo } = e2e();
    resetServer(0);
    await readyWithKey();
    settingsDir = path.join(demo.profile.workspace, '.vscode');
    mkdirSync(settingsDir, { recursive: true });
    writeFileSync(path.join(settingsDir, 'settings.json'), JSON.stringify({ 'aiChat.model': 'deep-think' }, null, 2));

    const notice = await wb.waitForNotification(/this workspace's settings choose the model deep-think/i);
    assert.match(notice, /not used unless you allow it; your model swift-chat is used/);
    await wb.notifications().filter({ hasText: 'choose the model deep-think' }).first().getByRole('button', { name: 'Keep Mine' }).click();
    await wb.hideNotificationCenter();

    // The panel says it, and the chat goes out with the user's own model.
    const chat = await wb.openChat();
    await waitFor(async () => (await chat.frame.locator('.notice').innerText().catch(() => '')).includes('deep-think'), 'the panel names the workspace model', 15_000);
    const before = chatRequests().length;
    await chat.ask('Which model answers? workspace-model-check');
    const reqs = chatRequests();
    assert.equal(reqs.length, before + 1);
    assert.equal(reqs[reqs.length - 1].model, 'swift-chat', 'the workspace model was used without the user allowing it');

    // Picking it in Select Model (the notice's button) allows it for this workspace: used, and said so.
    await chat.frame.locator('.notice button').filter({ hasText: 'Select Model' }).click();
    await wb.quickPickRows().filter({ hasText: 'Deep Think' }).first().click();
    await wb.quickInput().waitFor({ state: 'hidden', timeout: 10_000 });
    await waitFor(async () => /chosen by this workspace's settings/.test(await chat.frame.locator('.notice').innerText().catch(() => '')), 'the panel says the workspace chose the model', 15_000);
    await chat.ask('And now? workspace-model-allowed');
    assert.equal(chatRequests().at(-1)?.model, 'deep-think');

    // Another pick wins, and stays.
    await selectModel(wb, 'Swift Chat');
    await waitFor(async () => /Your model swift-chat is used/.test(await chat.frame.locator('.notice').innerText().catch(() => '')), 'the panel says the own model is used again', 15_000);
    await chat.ask('Back to mine? workspace-model-declined');
    assert.equal(chatRequests().at(-1)?.model, 'swift-chat', 'the pick jumped back to the workspace model');
    rmSync(path.join(settingsDir, 'settings.json'), { force: true });
  });
});
