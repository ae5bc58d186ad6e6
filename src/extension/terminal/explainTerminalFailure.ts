// AI Chat: Explain Last Terminal Failure. Where a terminal has shell integration (VS Code 1.93+:
// onDidStart/EndTerminalShellExecution, looked up at run time since the engine is 1.90), each
// command's output is read as it runs (its end kept) and the last one that exited non-zero is
// remembered; the command puts its command line, exit code and output in the chat's box as an
// editable prompt. Without shell integration it says why and offers the terminal-selection chip.
import * as vscode from 'vscode';
import { buildTerminalPrompt, OutputTail, type TerminalFailure } from '../../core/terminal/terminalFailure';

export const EXPLAIN_TERMINAL_COMMAND = 'aiChat.explainTerminalFailure';

// ---- The parts of the shell integration API (VS Code 1.93) used here. ----

export interface ShellExecution {
  readonly commandLine: { readonly value: string };
  readonly cwd?: vscode.Uri;
  read(): AsyncIterable<string>;
}

export interface ShellExecutionStart {
  readonly terminal: vscode.Terminal;
  readonly execution: ShellExecution;
}

export interface ShellExecutionEnd extends ShellExecutionStart {
  readonly exitCode: number | undefined;
}

/** `vscode.window`'s shell integration events, when the host has them. */
export interface ShellEvents {
  onDidStartTerminalShellExecution?: vscode.Event<ShellExecutionStart>;
  onDidEndTerminalShellExecution?: vscode.Event<ShellExecutionEnd>;
}

/** A remembered failure and the terminal it ran in. */
export interface Failure extends TerminalFailure {
  terminalRef: vscode.Terminal;
}

/** How long the end of a failed command waits for the rest of its output, in ms. */
const OUTPUT_SETTLE_MS = 300;

export class TerminalFailures implements vscode.Disposable {
  private readonly running = new Map<ShellExecution, { tail: OutputTail; done: Promise<void> }>();
  private readonly last = new Map<vscode.Terminal, Failure>();
  private latest: Failure | undefined;
  private readonly subs: vscode.Disposable[] = [];
  private readonly recorded = new vscode.EventEmitter<Failure>();
  /** A failure was remembered. */
  readonly onDidRecord = this.recorded.event;
  private readonly cleared = new vscode.EventEmitter<vscode.Terminal>();
  /** A command of this terminal went well: its failure is no longer the last word. */
  readonly onDidClear = this.cleared.event;
  /** The host has the shell integration events. */
  readonly supported: boolean;

  constructor(events: ShellEvents = vscode.window as unknown as ShellEvents) {
    const start = events.onDidStartTerminalShellExecution;
    const end = events.onDidEndTerminalShellExecution;
    this.supported = typeof start === 'function' && typeof end === 'function';
    if (!this.supported || !start || !end) return;
    this.subs.push(
      start((e) => this.started(e)),
      end((e) => void this.ended(e)),
      vscode.window.onDidCloseTerminal((t) => {
        this.last.delete(t);
        if (this.latest?.terminalRef === t) this.latest = undefined;
      }),
    );
  }

  private started(e: ShellExecutionStart): void {
    const tail = new OutputTail();
    // The output is only what is written after read() is first called: read from the start.
    const done = (async () => {
      try {
        for await (const data of e.execution.read()) tail.push(data);
      } catch {
        // The stream ended with the terminal: keep what was read.
      }
    })();
    this.running.set(e.execution, { tail, done });
  }

  private async ended(e: ShellExecutionEnd): Promise<void> {
    const run = this.running.get(e.execution);
    this.running.delete(e.execution);
    if (e.exitCode === undefined || e.exitCode === 0) {
      // A command that went well: the earlier failure of this terminal is no longer the last word.
      if (e.exitCode === 0) {
        this.last.delete(e.terminal);
        if (this.latest?.terminalRef === e.terminal) this.latest = undefined;
        this.cleared.fire(e.terminal);
      }
      return;
    }
    if (run) await Promise.race([run.done, new Promise((r) => setTimeout(r, OUTPUT_SETTLE_MS))]);
    const failure: Failure = {
      commandLine: e.execution.commandLine.value,
      exitCode: e.exitCode,
      output: run?.tail.text() ?? '',
      outputDropped: (run?.tail.dropped ?? 0) > 0,
      ...(e.execution.cwd ? { cwd: e.execution.cwd.fsPath } : {}),
      terminal: e.terminal.name,
      terminalRef: e.terminal,
    };
    this.last.set(e.terminal, failure);
    this.latest = failure;
    this.recorded.fire(failure);
  }

  /** The last failure of `terminal` (default: the active one), else the last one of any terminal. */
  lastFailure(terminal: vscode.Terminal | undefined = vscode.window.activeTerminal): Failure | undefined {
    return (terminal && this.last.get(terminal)) ?? this.latest;
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.recorded.dispose();
    this.cleared.dispose();
    this.running.clear();
    this.last.clear();
  }
}

export interface ExplainDeps {
  failures: TerminalFailures;
  insertPrompt: (text: string) => Promise<void>;
  /** A message with buttons; resolves with the chosen one. */
  say: (message: string, ...buttons: string[]) => Thenable<string | undefined>;
}

/** The command: 'prompt' when the failure went to the chat's box, else why not. */
export async function explainLastFailure(deps: ExplainDeps): Promise<'prompt' | 'unsupported' | 'noIntegration' | 'none'> {
  const failure = deps.failures.lastFailure();
  if (failure) {
    await deps.insertPrompt(buildTerminalPrompt(failure));
    return 'prompt';
  }
  const addContext = vscode.l10n.t('Add Context…');
  let outcome: 'unsupported' | 'noIntegration' | 'none';
  let message: string;
  const terminal = vscode.window.activeTerminal;
  const integrated = !!terminal && !!(terminal as unknown as { shellIntegration?: unknown }).shellIntegration;
  if (!deps.failures.supported) {
    outcome = 'unsupported';
    message = vscode.l10n.t('AI Chat sees terminal commands through shell integration, which needs VS Code 1.93 or later. Select the output in the terminal and add it with Add Context… → Terminal Selection instead.');
  } else if (!integrated) {
    outcome = 'noIntegration';
    message = terminal
      ? vscode.l10n.t('The terminal "{0}" has no shell integration, so AI Chat cannot see its commands or their exit codes. Turn on terminal.integrated.shellIntegration.enabled (bash, zsh, fish or PowerShell) and open a new terminal, or select the output and add it with Add Context… → Terminal Selection.', terminal.name)
      : vscode.l10n.t('No terminal is open. Run the command in a terminal, then explain its failure.');
  } else {
    outcome = 'none';
    message = vscode.l10n.t('No command has failed in this terminal since AI Chat started. Run the command again, then explain its failure.');
  }
  const chosen = await deps.say(message, ...(outcome === 'none' ? [] : [addContext]));
  if (chosen === addContext) await vscode.commands.executeCommand('aiChat.addContext');
  return outcome;
}

/**
 * The status bar's hint after a command failed: Explain with AI Chat (one per failure, the newest
 * replacing the last), gone once a command of that terminal goes well or the failure is explained;
 * off with aiChat.terminal.offerExplain.
 */
export class FailureHint implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subs: vscode.Disposable[];
  private shownFor: vscode.Terminal | undefined;

  constructor(failures: TerminalFailures) {
    this.item = vscode.window.createStatusBarItem('aiChat.terminalFailure', vscode.StatusBarAlignment.Left, 50);
    this.item.name = vscode.l10n.t('AI Chat: Explain the Failed Command');
    this.item.command = EXPLAIN_TERMINAL_COMMAND;
    this.subs = [
      failures.onDidRecord((f) => this.show(f)),
      failures.onDidClear((t) => {
        if (this.shownFor === t) this.hide();
      }),
    ];
  }

  /** The hint is on screen now (for tests). */
  get visible(): boolean {
    return this.shownFor !== undefined;
  }

  private show(f: Failure): void {
    if (!vscode.workspace.getConfiguration('aiChat').get<boolean>('terminal.offerExplain', true)) return;
    this.shownFor = f.terminalRef;
    this.item.text = vscode.l10n.t('$(sparkle) Explain the failed command');
    this.item.tooltip = vscode.l10n.t('"{0}" exited with code {1} in the terminal "{2}". Click to put it, with the end of its output, in AI Chat\'s message box (nothing is sent until you send it).', f.commandLine.slice(0, 200), String(f.exitCode), f.terminal ?? '');
    this.item.show();
  }

  hide(): void {
    this.shownFor = undefined;
    this.item.hide();
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.item.dispose();
  }
}

/** The watcher, its hint and the command. */
export function registerTerminalFailure(insertPrompt: (text: string) => Promise<void>): vscode.Disposable[] {
  const failures = new TerminalFailures();
  const hint = new FailureHint(failures);
  const deps: ExplainDeps = { failures, insertPrompt, say: (message, ...buttons) => vscode.window.showInformationMessage(message, ...buttons) };
  return [
    failures,
    hint,
    vscode.commands.registerCommand(EXPLAIN_TERMINAL_COMMAND, async () => {
      hint.hide();
      try {
        return await explainLastFailure(deps);
      } catch (err) {
        void vscode.window.showErrorMessage(vscode.l10n.t('AI Chat: {0}', err instanceof Error ? err.message : String(err)));
        return undefined;
      }
    }),
  ];
}
