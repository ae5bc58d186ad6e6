// A room whose code loads on its first use, not when the extension activates. Its commands are
// registered at activation by stand-ins; the first one run loads the room (a file of its own in
// the build, see esbuild.js), lets it register its real commands in their place, then runs the
// command again with the same arguments and gives back its result. A room that cannot be loaded
// (a file missing after a partial update) is said as a damaged extension, logged, and tried again
// on the next use.
import * as vscode from 'vscode';
import { extensionDamagedText } from '../../core/chat/errors';
import type { Logger } from './log';

export interface LazyRoom {
  /** Its name in the log. */
  name: string;
  /** Every command the room registers: a stand-in is registered for each at activation. */
  commands: readonly string[];
  /** Loads the room's code; what it gives registers the room (its commands among the rest). */
  load: () => Promise<() => vscode.Disposable[]>;
}

/**
 * `load` run on the first call, its result kept for every later one. A load that fails is logged,
 * said as a damaged extension and rejected; the next call tries again.
 */
export function roomLoader<T>(name: string, load: () => Promise<T>, logger: Logger): () => Promise<T> {
  let loading: Promise<T> | undefined;
  const first = async (): Promise<T> => {
    const started = performance.now();
    try {
      const loaded = await load();
      logger.info('AI Chat loaded a part on its first use', { room: name, loadMs: Math.round((performance.now() - started) * 10) / 10 });
      return loaded;
    } catch (err) {
      loading = undefined;
      logger.error('AI Chat is damaged: a part of it could not be loaded; a reload or a reinstall is needed', {
        room: name,
        cause: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      });
      void vscode.window.showErrorMessage(extensionDamagedText());
      throw err;
    }
  };
  return () => (loading ??= first());
}

/** Registers `room`'s stand-ins; disposing it disposes them, or the room once it is loaded. */
export function registerLazyRoom(room: LazyRoom, logger: Logger): vscode.Disposable {
  let registered: vscode.Disposable[] | undefined;
  let disposed = false;
  const load = roomLoader(
    room.name,
    async () => {
      const register = await room.load();
      if (disposed) return;
      for (const d of standIns) d.dispose();
      registered = register();
    },
    logger,
  );
  const standIns = room.commands.map((id) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      if (!(await load().then(() => !disposed, () => false))) return undefined;
      return vscode.commands.executeCommand(id, ...args);
    }),
  );
  return {
    dispose: () => {
      disposed = true;
      for (const d of [...standIns, ...(registered ?? [])]) d.dispose();
    },
  };
}
