// A room whose code loads on its first use, not when the extension activates. Its commands are
// registered at activation by stand-ins; the first one run loads the room (a file of its own in
// the build, see esbuild.js), lets it register its real commands in their place, then runs the
// command again with the same arguments and gives back its result. A room whose file cannot be
// loaded (missing after a partial update) is said as a damaged extension, logged, and tried again
// on the next use; a room that fails while it is built or registered says its own error, and its
// stand-ins stay to try again.
import * as vscode from 'vscode';
import { extensionDamagedText } from '../../core/chat/errors';
import type { Logger } from './log';

/** A room's file could not be loaded (said to the user already, as a damaged extension). */
export class RoomLoadError extends Error {
  constructor(readonly room: string, readonly loadError: unknown) {
    super(extensionDamagedText());
    this.name = 'RoomLoadError';
  }
}

export interface LazyRoom<M = unknown> {
  /** Its name in the log. */
  name: string;
  /** Every command the room registers: a stand-in is registered for each at activation. */
  commands: readonly string[];
  /** Loads the room's code (an `import()`). */
  load: () => Promise<M>;
  /** Registers the loaded room (its commands among the rest). */
  register: (room: M) => vscode.Disposable[];
}

/**
 * The room's code loaded (`load`) and built (`build`) on the first call, the result kept for
 * every later one. A load that fails is logged, said as a damaged extension and rejected with a
 * RoomLoadError; a build that fails rejects with its own error; either way the next call tries again.
 */
export function roomLoader<M, T>(name: string, load: () => Promise<M>, build: (room: M) => T, logger: Logger): () => Promise<T> {
  let loading: Promise<T> | undefined;
  const first = async (): Promise<T> => {
    const started = performance.now();
    let room: M;
    try {
      room = await load();
    } catch (err) {
      loading = undefined;
      logger.error('AI Chat is damaged: a part of it could not be loaded; a reload or a reinstall is needed', {
        room: name,
        cause: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      });
      void vscode.window.showErrorMessage(extensionDamagedText());
      throw new RoomLoadError(name, err);
    }
    try {
      const built = build(room);
      logger.info('AI Chat loaded a part on its first use', { room: name, loadMs: Math.round((performance.now() - started) * 10) / 10 });
      return built;
    } catch (err) {
      loading = undefined;
      throw err;
    }
  };
  return () => (loading ??= first());
}

/** Registers `room`'s stand-ins; disposing it disposes them, or the room once it is loaded. */
export function registerLazyRoom<M>(room: LazyRoom<M>, logger: Logger): vscode.Disposable {
  let registered: vscode.Disposable[] = [];
  let disposed = false;
  const standIn = (id: string) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        if (!(await load())) return undefined;
      } catch (err) {
        // A file that could not be loaded is said already; a room that failed to register says why.
        if (err instanceof RoomLoadError) return undefined;
        throw err;
      }
      return vscode.commands.executeCommand(id, ...args);
    });
  let standIns: vscode.Disposable[] = room.commands.map(standIn);
  const load = roomLoader(
    room.name,
    room.load,
    (loaded) => {
      if (disposed) return false;
      for (const d of standIns.splice(0)) d.dispose();
      try {
        registered = room.register(loaded);
      } catch (err) {
        // The stand-ins come back to try again (for the commands it did not register before it failed).
        standIns = room.commands.flatMap((id) => {
          try {
            return [standIn(id)];
          } catch {
            return [];
          }
        });
        throw err;
      }
      return true;
    },
    logger,
  );
  return {
    dispose: () => {
      disposed = true;
      for (const d of [...standIns, ...registered]) d.dispose();
    },
  };
}
