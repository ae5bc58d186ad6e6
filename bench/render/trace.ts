// Reading a Chromium trace: shared by the render and history benchmarks.

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * Longest top-level task on the renderer's main thread in a trace, in thread (CPU) time and in
 * wall time (ms). On this shared 2-core machine wall time includes time the thread was
 * descheduled by other processes; thread time is the task's own work.
 */
export function longestMainThreadTask(trace: Buffer): { cpu: number; wall: number } {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return { cpu: NaN, wall: NaN };
  let cpu = 0;
  let wall = 0;
  for (const e of events) {
    if (e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur && (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask')) {
      wall = Math.max(wall, e.dur / 1000);
      cpu = Math.max(cpu, (e.tdur ?? e.dur) / 1000);
    }
  }
  return { cpu, wall };
}
