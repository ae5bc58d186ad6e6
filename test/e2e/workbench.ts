// What a user does in VS Code, as Playwright steps: the command palette (F1), quick
// picks and input boxes, notifications, the status bar, the editor, and the chat
// webview (inside nested iframes). Only UI: no VS Code API, no extension internals.
import path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';

const EXT_PREFIX = 'ai-chat-assistant.ai-chat-assistant';
export const SCREENSHOT_DIR = path.resolve(__dirname, '..', '..', 'test-results', 'screenshots');

/** Polls `fn` until it returns a truthy value; throws `message` with the last value after `timeoutMs`. */
export async function waitFor<T>(
  fn: () => Promise<T> | T,
  message: string | ((last: T | undefined) => string),
  timeoutMs = 30_000,
  intervalMs = 100,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastErr: unknown;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (err) {
      lastErr = err;
    }
    if (Date.now() > deadline) {
      const text = typeof message === 'function' ? message(last) : message;
      throw new Error(`${text}${lastErr instanceof Error ? ` (last error: ${lastErr.message})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * Lets `ms` go by so that the caller can then check that something did *not* happen meanwhile (no
 * request went out, nothing reopened, nothing more arrived). The one wait on time a journey may
 * use; `what` names what is proven (for the reader). Everything else waits for a state the product
 * shows or announces.
 */
export async function provesNothingHappensFor(ms: number, what: string): Promise<void> {
  void what;
  await new Promise((r) => setTimeout(r, ms));
}

/** Kept for older callers: a journey waits on a state, or uses provesNothingHappensFor. */
export const sleep = (ms: number) => provesNothingHappensFor(ms, 'time');

/** What the chat page marks on its root (src/webview/main.ts, markState). */
export interface PageState {
  /** Version of the host's state the page shows (-1 before the first). */
  sessionVersion: number;
  /** A reply is running. */
  busy: boolean;
  /** Status of the conversation's last message ('none' when empty). */
  lastStatus: 'complete' | 'streaming' | 'stopped' | 'error' | 'none';
  /** Messages in the conversation (rendered or not). */
  messages: number;
}

/** Whitespace runs to one space, trimmed. */
export const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Parses "1,234" out of a status bar label like "AI Chat credits: 1,234". */
export function creditsOf(label: string | null | undefined): number | undefined {
  const m = /([\d,]+)/.exec(label ?? '');
  return m ? Number(m[1].replace(/,/g, '')) : undefined;
}

export class Workbench {
  constructor(
    readonly page: Page,
    readonly url: string,
  ) {}

  /** Loads the workbench and waits until the extension's status bar item is there. */
  async open(): Promise<void> {
    await this.page.goto(this.url);
    await this.waitForWorkbench();
  }

  async reload(): Promise<void> {
    await this.page.reload();
    await this.waitForWorkbench();
  }

  /**
   * A reload a user would do (Developer: Reload Window), after the workbench saved its layout in
   * the background: a page reload can come back to an older layout (the editors and side bar
   * view of a few seconds before).
   */
  async reloadWindow(): Promise<void> {
    // No wait first: Reload Window saves the workbench's state (layout, editors, webview state)
    // before it reloads, and the extension's deactivate waits for its last save.
    // A mark on the page that goes with it: the workbench found afterwards is the new one.
    await this.page.evaluate(() => Object.assign(window, { e2eBeforeReload: true }));
    await this.runCommand('Developer: Reload Window');
    await waitFor(
      () => this.page.evaluate(() => !(window as unknown as { e2eBeforeReload?: boolean }).e2eBeforeReload).catch(() => false),
      'Developer: Reload Window did not reload the page',
      60_000,
    );
    await this.waitForWorkbench();
  }

  private async waitForWorkbench(): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await this.statusItem().waitFor({ timeout: 60_000 });
  }

  async screenshot(name: string): Promise<string> {
    const file = path.join(SCREENSHOT_DIR, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  // ---- status bar ---------------------------------------------------------------

  /** The "AI Chat Balance" status bar item (ids of an extension's items start with its id). */
  statusItem(): Locator {
    return this.page.locator(`.statusbar-item[id^="${EXT_PREFIX}"]`).filter({ hasText: /credit|API Key|Credits/i }).first();
  }

  async statusText(): Promise<string> {
    return ((await this.statusItem().innerText()) ?? '').trim();
  }

  /** The item's accessible label, e.g. "AI Chat credits: 1,000". */
  async statusLabel(): Promise<string> {
    const item = this.statusItem();
    const own = await item.getAttribute('aria-label');
    if (own) return own;
    return (await item.locator('[aria-label]').first().getAttribute('aria-label')) ?? '';
  }

  /** Waits until the status bar shows a number of credits, and returns it. */
  async waitForCredits(expected?: number, timeoutMs = 30_000): Promise<number> {
    let seen = '';
    return waitFor(
      async () => {
        seen = `${await this.statusLabel()} | ${await this.statusText()}`;
        if (!/credits?:?\s*[\d,]+|[\d,]+\s+credits?/i.test(seen)) return undefined;
        const n = creditsOf(seen.replace(/^[^\d]*?(?=[\d])/, ''));
        if (n === undefined) return undefined;
        return expected === undefined || n === expected ? { n } : undefined;
      },
      () => `status bar never showed ${expected ?? 'a'} credits; it showed "${seen}"`,
      timeoutMs,
    ).then((v) => v.n);
  }

  /** Hovers the status bar item and waits for its tooltip; returns the tooltip text. */
  async statusTooltip(): Promise<string> {
    await this.page.mouse.move(0, 0);
    await this.statusItem().hover();
    const hover = this.page.locator('.monaco-hover, .workbench-hover, .monaco-hover-content').filter({ hasText: /\S/ }).last();
    await hover.waitFor({ timeout: 10_000 });
    return (await hover.innerText()).trim();
  }

  // ---- command palette, quick input --------------------------------------------

  quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  quickInputBox(): Locator {
    return this.quickInput().locator('.quick-input-box input, input.input').first();
  }

  /** Rows currently shown in the quick pick. */
  quickPickRows(): Locator {
    return this.quickInput().locator('.monaco-list-row');
  }

  /**
   * Runs `command` and chooses the row holding `row` in the list it opens. Asked again when the list
   * closed before the pick (on a loaded machine the chat, settling after its reply, can take the
   * focus back from it).
   */
  async runCommandAndPick(command: string, row: string): Promise<void> {
    await waitFor(async () => {
      await this.runCommand(command);
      return this.quickPickRows()
        .filter({ hasText: row })
        .first()
        .click({ timeout: 10_000 })
        .then(
          () => true,
          async () => {
            await this.closeQuickInput().catch(() => undefined);
            return false;
          },
        );
    }, `${command} did not offer "${row}"`, 60_000);
  }

  async quickPickLabels(): Promise<string[]> {
    return (await this.quickPickRows().allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  }

  /** Closes whatever a failed step may have left open (menus, pickers, dialogs, toasts). */
  async resetUi(): Promise<void> {
    for (let i = 0; i < 3; i++) await this.page.keyboard.press('Escape');
    await this.answerDialog(/cancel|close|ok/i).catch(() => false);
    await this.clearNotifications();
    await this.page.mouse.move(0, 0);
  }

  /** Gives the keyboard back to the workbench (a focused webview keeps F1 for itself otherwise). */
  async focusWorkbench(): Promise<void> {
    const title = this.page.locator('.part.sidebar .composite.title, .part.sidebar .title-label').first();
    if (await title.isVisible().catch(() => false)) await title.click();
    else await this.page.locator('.part.statusbar').click({ position: { x: 300, y: 5 } });
  }

  async openPalette(): Promise<void> {
    // A picker that is still closing makes the next one inert for a moment.
    await this.quickInput().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => this.page.keyboard.press('Escape'));
    // F1 inside a webview reaches the workbench, but the frame takes the focus back and the
    // palette closes on blur: start from the workbench.
    if (await this.page.evaluate(() => document.activeElement?.tagName === 'IFRAME').catch(() => false)) await this.focusWorkbench();
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.page.keyboard.press('F1');
      try {
        await this.quickInput().waitFor({ state: 'visible', timeout: 4_000 });
        return;
      } catch {
        await this.page.keyboard.press('Escape');
        await this.focusWorkbench();
      }
    }
    throw new Error('the command palette (F1) did not open');
  }

  /** F1, type the command's full title ("AI Chat: Set API Key"), run it. */
  async runCommand(title: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= 2;
      await this.openPalette();
      // A palette closed by a focus change before it was typed into: open it again.
      const typed = await this.quickInputBox()
        .fill(`>${title}`, { timeout: last ? 30_000 : 5_000 })
        .then(() => true, (err: unknown) => {
          if (last) throw err;
          return false;
        });
      // The command itself, not a longer one that starts with its title ("Open Chat" and "Open Chat
      // in Editor"): a row's label is the title, then ", " and its keybinding or group, if any.
      const quoted = JSON.stringify(title);
      const row = this.quickInput().locator(`.monaco-list-row[aria-label=${quoted}], .monaco-list-row[aria-label^=${JSON.stringify(`${title},`)}]`).first();
      // A palette that lost its text (or closed) before it listed the command: open it again.
      const listed = typed && (await row.waitFor({ timeout: last ? 15_000 : 8_000 }).then(() => true, () => false));
      if (!listed) {
        if (last) throw new Error(`no command "${title}" in the palette; it listed: ${(await this.quickPickLabels()).join(' | ')}`);
        await this.closeQuickInput();
        await this.focusWorkbench();
        continue;
      }
      // Enter on the palette's own box runs the focused row (keys pressed on the page go wherever
      // the focus is); a click can miss a list that is still being laid out.
      if (await row.and(this.page.locator('.focused')).count()) {
        await this.quickInputBox().press('Enter');
      } else {
        await row.click();
      }
      return;
    }
  }

  /** Types into the visible input box (or quick pick filter) and presses Enter. */
  async answerInput(text: string): Promise<void> {
    const box = this.quickInputBox();
    await box.waitFor({ state: 'visible', timeout: 15_000 });
    await box.fill(text);
    // On the box itself: a key pressed on the page goes wherever the focus moved meanwhile.
    await box.press('Enter');
  }

  /** The validation/help message line of the quick input. */
  async quickInputMessage(): Promise<string> {
    const msg = this.quickInput().locator('.quick-input-message');
    return (await msg.count()) ? (await msg.first().innerText()).trim() : '';
  }

  /**
   * Starts watching the quick input; the returned function stops and says what happened since:
   * "the quick input closed" for each time it closed, and each element outside it that took the
   * focus. Going from one picker to the next should leave it empty (a closed one gives the focus
   * back to where it was, which can close the next picker at once).
   */
  async watchQuickInput(): Promise<() => Promise<string[]>> {
    // A script as text: the bundler would add a helper to named functions, unknown in the page.
    await this.page.evaluate(`(() => {
      const left = [];
      const onFocus = (e) => {
        const t = e.target;
        if (!t.closest || !t.closest('.quick-input-widget')) left.push(t.tagName + '.' + String(t.className).slice(0, 40));
      };
      document.addEventListener('focusin', onFocus, true);
      const widget = document.querySelector('.quick-input-widget');
      const closed = new MutationObserver((records) => {
        for (const r of records) if (/display: none/.test(r.oldValue || '') || widget.style.display === 'none') left.push('the quick input closed');
      });
      closed.observe(widget, { attributes: true, attributeFilter: ['style'], attributeOldValue: true });
      window.e2eQuickInputWatch = () => (document.removeEventListener('focusin', onFocus, true), closed.disconnect(), left);
    })()`);
    return () => this.page.evaluate(() => (window as unknown as { e2eQuickInputWatch: () => string[] }).e2eQuickInputWatch());
  }

  async closeQuickInput(): Promise<void> {
    if (await this.quickInput().isVisible().catch(() => false)) {
      // On the picker's own box: a picker that has just shown may not have the focus yet, and
      // an Escape pressed on the page then reaches the editor behind it (a walkthrough goes back).
      const box = this.quickInputBox();
      if (await box.isVisible().catch(() => false)) await box.press('Escape', { timeout: 5_000 }).catch(() => this.page.keyboard.press('Escape'));
      else await this.page.keyboard.press('Escape');
    }
    await this.quickInput().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
  }

  // ---- notifications --------------------------------------------------------------

  notifications(): Locator {
    return this.page.locator('.notifications-toasts .notification-toast, .notifications-center .notification-list-item');
  }

  async notificationTexts(): Promise<string[]> {
    // Read at once: a toast that goes away between a count and a read would hold the read up.
    return (await this.notifications().allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  }

  async waitForNotification(re: RegExp, timeoutMs = 20_000): Promise<string> {
    let seen: string[] = [];
    const start = Date.now();
    let centerShown = false;
    return waitFor(
      async () => {
        seen = await this.notificationTexts();
        const found = seen.find((t) => re.test(t));
        // A notification may be in the Notifications center without a toast on screen (the
        // workbench keeps few toasts and hides some while others show): look there too.
        if (!found && !centerShown && Date.now() - start > Math.min(5_000, timeoutMs / 3)) {
          centerShown = true;
          await this.runCommand('Notifications: Show Notifications').catch(() => undefined);
        }
        return found;
      },
      () => `no notification matching ${re}; shown: ${JSON.stringify(seen)}`,
      timeoutMs,
    );
  }

  /** Hides the Notifications center when it is open (it covers the lower right of the window). */
  async hideNotificationCenter(): Promise<void> {
    const center = this.page.locator('.notifications-center.visible');
    if (!(await center.count())) return;
    await this.runCommand('Notifications: Hide Notifications').catch(() => undefined);
    await center.waitFor({ state: 'detached', timeout: 5_000 }).catch(() => {});
  }

  async clearNotifications(): Promise<void> {
    await this.hideNotificationCenter();
    const toasts = this.page.locator('.notifications-toasts .notification-toast');
    if ((await toasts.count()) === 0) return;
    await this.runCommand('Notifications: Clear All Notifications');
    await toasts.first().waitFor({ state: 'detached', timeout: 5_000 }).catch(() => {});
  }

  /** A modal dialog's button, if a dialog is shown. */
  async answerDialog(button: RegExp): Promise<boolean> {
    const dialog = this.page.locator('.monaco-dialog-box');
    if (!(await dialog.isVisible().catch(() => false))) return false;
    await dialog.getByRole('button', { name: button }).first().click();
    return true;
  }

  // ---- editor ---------------------------------------------------------------------

  /** Quick Open (Ctrl+P) a file of the workspace by name. */
  async openFile(name: string): Promise<void> {
    const row = this.quickPickRows().filter({ hasText: name }).first();
    const tab = this.page.locator(`.tab.active[aria-label*="${name}"], .tab.active:has-text("${name}")`).first();
    // A file written a moment ago may be missing from the first search, a focus change can close
    // Quick Open as it opens, and a click on a list still being laid out can miss: ask again until
    // the file's tab is the active one.
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= 3;
      await this.quickInput().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => this.page.keyboard.press('Escape'));
      await this.focusWorkbench();
      await this.page.keyboard.press('Control+P');
      // Quick Open closed by a focus change before it was typed into counts as a miss too.
      const opened = await this.quickInput()
        .waitFor({ state: 'visible', timeout: 10_000 })
        .then(() => this.quickInputBox().fill(name, { timeout: last ? 30_000 : 5_000 }))
        .then(() => row.waitFor({ timeout: last ? 15_000 : 5_000 }))
        .then(async () => {
          // Enter on Quick Open's own box opens the focused row; a click only when another row has the focus.
          if (await row.and(this.page.locator('.focused')).count()) await this.quickInputBox().press('Enter');
          else await row.click();
        })
        .then(() => tab.waitFor({ timeout: last ? 15_000 : 8_000 }))
        .then(() => true, (err: unknown) => {
          if (last) throw err;
          return false;
        });
      if (opened) break;
      await this.page.keyboard.press('Escape');
    }
    await this.editor().waitFor();
  }

  editor(): Locator {
    return this.page.locator('.editor-group-container.active .monaco-editor').first();
  }

  /** Selects whole lines `from`..`to` (1-based) of the active editor with the keyboard. */
  async selectLines(from: number, to: number): Promise<void> {
    await this.editor().locator('.view-lines').click();
    await this.page.keyboard.press('Control+G');
    await this.page.keyboard.type(String(from));
    await this.page.keyboard.press('Enter');
    await this.page.keyboard.press('Home');
    await this.page.keyboard.press('Home');
    for (let i = from; i < to; i++) await this.page.keyboard.press('Shift+ArrowDown');
    await this.page.keyboard.press('Shift+End');
    await this.editor().locator('.selected-text').first().waitFor({ timeout: 10_000 });
  }

  /**
   * Opens the editor's context menu on the selection (the context-menu key, Shift+F10, which
   * keeps the selection exactly as it is; a right-click if that shows no menu) and chooses `item`.
   */
  async editorContextMenu(item: string | RegExp): Promise<void> {
    const menu = this.page.locator('.context-view .monaco-menu, .monaco-menu-container');
    await this.page.keyboard.press('Shift+F10');
    try {
      await menu.first().waitFor({ timeout: 3_000 });
    } catch {
      const sel = this.editor().locator('.selected-text').first();
      const box = await sel.boundingBox();
      if (!box) throw new Error('no selection in the editor');
      await this.page.mouse.click(box.x + Math.min(20, box.width / 2), box.y + box.height / 2, { button: 'right' });
      await menu.first().waitFor({ timeout: 10_000 });
    }
    const entry = menu.locator('.action-item .action-label, .action-menu-item').filter({ hasText: item }).first();
    await entry.waitFor({ timeout: 10_000 }).catch(async () => {
      const all = await menu.locator('.action-label').allInnerTexts();
      throw new Error(`no "${String(item)}" in the editor context menu; it has: ${all.filter(Boolean).join(' | ')}`);
    });
    // The menu takes the item under the pointer on Enter; a synthetic click right after
    // the menu opened is sometimes swallowed (the menu guards against the right-click's mouse-up).
    await entry.hover();
    await this.page.keyboard.press('Enter');
    await menu.first().waitFor({ state: 'hidden', timeout: 5_000 });
  }

  // ---- the chat webview -----------------------------------------------------------

  /** Whether the iframes holding `frame` are all shown (a hidden webview keeps its frames). */
  private async frameShown(frame: Frame): Promise<boolean> {
    for (let f: Frame | null = frame; f && f !== this.page.mainFrame(); f = f.parentFrame()) {
      const el = await f.frameElement();
      const shown = await el.isVisible();
      await el.dispose();
      if (!shown) return false;
    }
    return true;
  }

  /** The frame of the shown chat panel (a webview: iframe inside iframe), found by its "Message" box. */
  async chatFrame(timeoutMs = 30_000, surface?: 'panel' | 'view'): Promise<Frame> {
    return waitFor(
      async () => {
        for (const f of this.page.frames()) {
          if (f.isDetached() || f === this.page.mainFrame()) continue;
          try {
            // The page says where it is shown (#app's data-surface): the editor tab, or a side bar view.
            if (surface && !(await f.locator(`#app[data-surface="${surface}"]`).count())) continue;
            if ((await f.getByRole('textbox', { name: 'Message' }).count()) && (await this.frameShown(f))) return f;
          } catch {
            /* frame navigating */
          }
        }
        return undefined;
      },
      'the chat panel (webview with a "Message" box) did not appear',
      timeoutMs,
      200,
    );
  }

  /** Opens (or reveals) the chat panel with the command and returns its view. */
  async openChat(): Promise<Chat> {
    await this.runCommand('AI Chat: Open Chat in Editor');
    // The editor tab's page, never the side bar's chat page that the command replaces with a placeholder.
    return this.settledChat('panel');
  }

  /**
   * The chat where it settles (`surface`: only a page shown there). Opening in the editor, or a
   * reload that restores an editor tab, turns the side bar's chat into a placeholder and may load
   * the tab's webview twice: the frame found first may be the one going away. Take a frame that is
   * still the chat a moment later.
   */
  async settledChat(surface?: 'panel' | 'view'): Promise<Chat> {
    const frame = await waitFor(
      async () => {
        const f = await this.chatFrame(30_000, surface);
        await provesNothingHappensFor(300, 'the frame found is not one going away');
        if (f.isDetached()) return undefined;
        return (await f.getByRole('textbox', { name: 'Message' }).count().catch(() => 0)) ? f : undefined;
      },
      'the chat did not settle in one place',
    );
    return new Chat(this, frame);
  }

  /** The chat panel, brought to the front with "AI Chat: Open Chat" (opened if needed). */
  async chat(): Promise<Chat> {
    return this.openChat();
  }
}

/** The chat panel, by its accessible roles and names. */
export class Chat {
  constructor(
    readonly wb: Workbench,
    readonly frame: Frame,
  ) {}

  message(): Locator {
    return this.frame.getByRole('textbox', { name: 'Message', exact: true });
  }
  sendButton(): Locator {
    return this.frame.getByRole('button', { name: 'Send', exact: true });
  }
  stopButton(): Locator {
    return this.frame.getByRole('button', { name: 'Stop', exact: true });
  }
  button(name: string | RegExp): Locator {
    return this.frame.getByRole('button', { name });
  }
  /** The + button, then the `#` menu's `#name` (file, problems, selection...), as a user attaches. */
  async attach(name: string): Promise<void> {
    await this.button('Attach to the next message').click();
    const option = this.frame.locator('#hash-menu [role="option"]').filter({ hasText: new RegExp(`^\\s*#${name}\\s`) });
    await option.first().waitFor({ state: 'visible', timeout: 15_000 });
    await option.first().click();
  }
  /** The messages; a reply's name goes on with its model and charge ("Assistant, swift-chat, 1 credit"). */
  articles(who?: 'You' | 'Assistant'): Locator {
    if (who === 'Assistant') return this.frame.getByRole('article', { name: /^Assistant(?:, |$)/ });
    return who ? this.frame.getByRole('article', { name: who, exact: true }) : this.frame.getByRole('article');
  }
  lastReply(): Locator {
    return this.articles('Assistant').last();
  }
  alert(): Locator {
    return this.frame.getByRole('alert').filter({ hasText: /\S/ });
  }

  /** Clicks "New Chat" and waits for the empty conversation. */
  async newChat(): Promise<void> {
    await this.button('New Chat').first().click();
    await waitFor(async () => (await this.articles().count()) === 0, 'New Chat did not clear the panel', 15_000);
  }

  /** Texts of the alerts shown in the panel. */
  async alertTexts(): Promise<string[]> {
    return (await this.frame.getByRole('alert').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  }

  async type(text: string): Promise<void> {
    await this.message().fill(text);
  }

  /** Types and clicks Send (does not wait for the reply). */
  async send(text: string): Promise<void> {
    await this.type(text);
    await this.sendButton().click();
  }

  /** What the page marks on its root, once it has heard from the host (else undefined). */
  async pageState(): Promise<PageState | undefined> {
    return this.frame.evaluate(() => {
      const root = document.querySelector<HTMLElement>('[data-session-version]');
      if (!root) return undefined;
      const d = root.dataset;
      return { sessionVersion: Number(d.sessionVersion), busy: d.busy === 'true', lastStatus: d.lastStatus, messages: Number(d.messages) } as PageState;
    });
  }

  /** Waits until the page marks a state for which `test` holds; returns it. */
  async waitForState(test: (s: PageState) => boolean, what: string, timeoutMs = 30_000): Promise<PageState> {
    let last: PageState | undefined;
    return waitFor(
      async () => {
        last = await this.pageState();
        return last && test(last) ? last : undefined;
      },
      () => `${what}; the page marks ${JSON.stringify(last)}`,
      timeoutMs,
    );
  }

  /**
   * Waits until no reply is streaming (the page marks itself idle, its last message is not
   * streaming, and Send is back), then returns the last reply's text.
   */
  async waitForIdle(timeoutMs = 60_000): Promise<string> {
    await this.waitForState((s) => !s.busy && s.lastStatus !== 'streaming', 'the reply never finished', timeoutMs);
    await this.stopButton().waitFor({ state: 'detached', timeout: timeoutMs }).catch(async () => {
      if (await this.stopButton().isVisible()) throw new Error('the reply never finished (Stop still shown)');
    });
    await this.sendButton().waitFor({ state: 'visible', timeout: timeoutMs });
    return (await this.articles('Assistant').count()) ? this.replyText() : '';
  }

  /**
   * Waits for a reply after `before` replies to appear, then for it to finish; returns its text.
   * The reference server can see a request before the webview is told that the turn started: idle
   * alone would then be the idle before the turn.
   */
  async waitForNewReply(before: number, timeoutMs = 60_000): Promise<string> {
    await waitFor(async () => (await this.articles('Assistant').count()) > before, 'no reply article appeared', timeoutMs);
    return this.waitForIdle(timeoutMs);
  }

  /**
   * Waits for the last reply to show `text` (a reply to a known question), then for it to finish;
   * for a long chat, whose far turns are not all on the page to be counted.
   */
  async waitForReplyShowing(text: RegExp, timeoutMs = 60_000): Promise<string> {
    await waitFor(async () => text.test(await this.replyText()), `no reply showing ${text}`, timeoutMs);
    return this.waitForIdle(timeoutMs);
  }

  /** Sends and waits for the complete reply; returns its text. */
  async ask(text: string, timeoutMs = 60_000): Promise<string> {
    const before = await this.articles('Assistant').count();
    await this.send(text);
    return this.waitForNewReply(before, timeoutMs);
  }

  /** All message texts currently shown, in order. */
  async transcript(): Promise<string[]> {
    return (await this.articles().allTextContents()).map(squash);
  }

  /**
   * Text of the last reply. textContent, not innerText: finished blocks of a long reply
   * use content-visibility:auto, and innerText leaves out whatever is scrolled away.
   */
  async replyText(): Promise<string> {
    return squash((await this.lastReply().textContent().catch(() => '')) ?? '');
  }
}
