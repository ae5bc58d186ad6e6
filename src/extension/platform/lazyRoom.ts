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

/** Registers `room`'s stand-ins; disposing it disposes them, or the room once it is loaded. */
export function registerLazyRoom(room: LazyRoom, logger: Logger): vscode.Disposable {
  let registered: vscode.Disposable[] = [];
  let loading: Promise<boolean> | undefined;
  let disposed = false;
  const load = async (): Promise<boolean> => {
    const started = performance.now();
    let register: () => vscode.Disposable[];
    try {
      register = await room.load();
    } catch (err) {
      loading = undefined;
      logger.error('AI Chat is damaged: a part of it could not be loaded; a reload or a reinstall is needed', {
        room: room.name,
        cause: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      });
      void vscode.window.showErrorMessage(extensionDamagedText());
      return false;
    }
    if (disposed) return false;
    for (const d of standIns) d.dispose();
    registered = register();
    logger.info('AI Chat loaded a part on its first use', { room: room.name, loadMs: Math.round((performance.now() - started) * 10) / 10 });
    return true;
  };
  const standIns = room.commands.map((id) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      if (!(await (loading ??= load()))) return undefined;
      return vscode.commands.executeCommand(id, ...args);
    }),
  );
  return {
    dispose: () => {
      disposed = true;
      for (const d of [...standIns, ...registered]) d.dispose();
    },
  };
}
