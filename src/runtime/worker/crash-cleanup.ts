import type { EventBus } from '../../events/bus.js';
import type { Store } from '../../store/ports.js';
import type { Workspace } from '../../tools/workspace/index.js';
import { removeLeftOverTempFiles } from '../../tools/workspace/index.js';
import type { BackgroundBook } from '../books/background-book.js';
import { backgroundOrphanNote, endOrphanCommands } from './orphan-commands.js';

/**
 * Tidies what a killed process left before its work is taken up again: the commands it left
 * running (ended, and said so in their session), and the temporary files of atomic writes it
 * was in the middle of. Says what it did.
 */
export async function cleanUpAfterCrash(ctx: {
  workspace: Workspace;
  store: Store;
  bus: EventBus;
  notice(text: string): void;
  /** Where a background orphan's note waits for its session's next model turn. */
  background?: BackgroundBook;
}): Promise<void> {
  for (const { command, ended } of await endOrphanCommands(ctx)) {
    if (ended) ctx.notice(`ended \`${command.command}\`, which a killed taskweave process had left running`);
    // A foreground command's end is its call's result; a background one's call returned long ago.
    if (command.backgroundId !== null)
      ctx.background?.forSession(command.sessionId).notify(backgroundOrphanNote(command, ended));
  }
  const removed = await removeLeftOverTempFiles(ctx.workspace.root);
  if (removed.length > 0)
    ctx.notice(`removed ${removed.length} temporary file(s) a killed process left: ${removed.join(', ')}`);
}
