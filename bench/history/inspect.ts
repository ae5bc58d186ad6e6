/**
 * The extension host seen from outside, for bench/history/vscode.ts: its JS heap and, with
 * `--profile`, where its time goes. Node opens its inspector when sent SIGUSR1; the product has no
 * command or code of its own for this. Nothing here is part of the extension.
 */
import { writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
// playwright-core carries a WebSocket client (Node 20 has none of its own without a flag).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ws: WebSocket } = require('playwright-core/lib/utilsBundle') as { ws: new (url: string) => WsLike };

interface WsLike {
  on(event: 'open' | 'error' | 'message' | 'close', cb: (data?: unknown) => void): void;
  send(text: string): void;
  close(): void;
}

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: CpuProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

const PORT = 9229;

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port });
    s.on('connect', () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
  });
}

export class HostInspector {
  private next = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private constructor(private readonly socket: WsLike) {
    socket.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
      const p = msg.id === undefined ? undefined : this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id as number);
      if (msg.error) p.reject(new Error(msg.error.message));
      else p.resolve(msg.result);
    });
  }

  /** Opens the inspector of the process `pid` (undefined when port 9229 is taken or it does not open). */
  static async attach(pid: number): Promise<HostInspector | undefined> {
    if (await portInUse(PORT)) return undefined;
    process.kill(pid, 'SIGUSR1');
    let url: string | undefined;
    for (let i = 0; i < 50 && !url; i++) {
      await new Promise((r) => setTimeout(r, 100));
      try {
        const list = (await (await fetch(`http://127.0.0.1:${PORT}/json/list`)).json()) as Array<{ webSocketDebuggerUrl?: string }>;
        url = list[0]?.webSocketDebuggerUrl;
      } catch {
        // not open yet
      }
    }
    if (!url) return undefined;
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.on('open', () => resolve());
      socket.on('error', (e) => reject(e instanceof Error ? e : new Error(String(e))));
    });
    return new HostInspector(socket);
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = ++this.next;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** JS heap in use after a full collection, bytes. */
  async heapUsed(): Promise<number> {
    await this.send('HeapProfiler.collectGarbage');
    await this.send('HeapProfiler.collectGarbage');
    return (await this.send<{ usedSize: number }>('Runtime.getHeapUsage')).usedSize;
  }

  async startProfile(): Promise<void> {
    await this.send('Profiler.enable');
    await this.send('Profiler.setSamplingInterval', { interval: 200 });
    await this.send('Profiler.start');
  }

  /** Stops the profile; writes it to `file` (for DevTools) and returns the functions with the most self time. */
  async stopProfile(file: string, top = 15): Promise<string[]> {
    const { profile } = await this.send<{ profile: CpuProfile }>('Profiler.stop');
    return summarize(profile, file, top);
  }

  close(): void {
    this.socket.close();
  }
}

/** Writes a CPU profile to `file` (for DevTools); the functions with the most self time. */
export function summarize(profile: CpuProfile, file: string, top = 15): string[] {
  writeFileSync(file, JSON.stringify(profile));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  (profile.samples ?? []).forEach((id, i) => {
    const n = byId.get(id);
    const dt = (profile.timeDeltas?.[i] ?? 0) / 1000;
    total += dt;
    if (!n) return;
    const f = n.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  const busy = total - (self.get('(idle) :0:0') ?? 0);
  return [
    `profiled ${total.toFixed(0)} ms, ${busy.toFixed(0)} ms not idle (${file})`,
    ...[...self.entries()]
      .filter(([k]) => !k.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${v.toFixed(1).padStart(8)} ms  ${k}`),
  ];
}
