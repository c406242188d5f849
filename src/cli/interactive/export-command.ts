import type { SessionState, SlashCommand } from './slash-command-types.js';

/** `/export [file] [--format md|json|html]` of the interactive session. */
export const EXPORT_COMMANDS: Record<string, SlashCommand> = {
  export: {
    usage: '/export [file] [--format f]',
    help: 'save this session as md, json or html (default: taskweave-<session>.md in the workspace)',
    run: (state, argument) => exportCurrent(state, argument),
  },
};

/** The file and format words of `/export`'s argument, or what is wrong with them. */
export function parseExportArgument(
  argument: string,
): { file?: string; format?: string } | { error: string } {
  const words = argument.split(/\s+/).filter((word) => word !== '');
  let file: string | undefined;
  let format: string | undefined;
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string;
    if (word === '--format' || word === '-f') {
      format = words[++index];
      if (format === undefined) return { error: 'Say which format after --format: md, json or html.' };
    } else if (word.startsWith('--format=')) format = word.slice('--format='.length);
    else if (word.startsWith('-'))
      return { error: `/export does not know ${word}: /export [file] [--format md|json|html].` };
    else if (file === undefined) file = word;
    else return { error: 'Give /export one file name (a name with spaces does not work here).' };
  }
  return { ...(file === undefined ? {} : { file }), ...(format === undefined ? {} : { format }) };
}

async function exportCurrent(state: SessionState, argument: string): Promise<void> {
  const { style } = state;
  if (state.sessionId === undefined) {
    state.say('No goal has run in this session yet: there is nothing to export.');
    return;
  }
  const parsed = parseExportArgument(argument);
  if ('error' in parsed) {
    state.say(style.yellow(parsed.error));
    return;
  }
  try {
    // Loaded when asked for: the renderers and the markdown parser stay out of the session's start-up.
    const [{ exportFormatFor, exportSession }, { defaultExportFileName }] = await Promise.all([
      import('../session-export.js'),
      import('../../export/export-formats.js'),
    ]);
    const format = exportFormatFor({ format: parsed.format, output: parsed.file });
    const output = parsed.file ?? defaultExportFileName(state.sessionId, format);
    const result = await exportSession(state.runtime.sessions, {
      id: state.sessionId,
      format,
      output,
      cwd: state.runtime.workspace.root,
    });
    state.say(`Exported this session as ${result.format} to ${result.file}`);
  } catch (error) {
    state.say(style.red((error as Error).message));
  }
}
