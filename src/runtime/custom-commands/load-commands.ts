import { readdir, readFile, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type CommandFrontMatter, parseCommandFile } from './front-matter.js';

/** A command of a Markdown file: `/name args` starts a goal of its text. */
export interface CustomCommand extends CommandFrontMatter {
  name: string;
  /** `project` (.taskweave/commands/) or `user` (~/.config/taskweave/commands/). */
  source: 'project' | 'user';
  file: string;
  /** The text after the front matter, with `$ARGUMENTS`, `$1`, `$2`… still in it. */
  body: string;
}

/** The commands found, and one sentence per file or name that could not be used. */
export interface LoadedCommands {
  commands: CustomCommand[];
  problems: string[];
}

const NAME = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * The folders commands are read from, in order: the project's `.taskweave/commands/`, then
 * `$XDG_CONFIG_HOME/taskweave/commands/` (by default `~/.config/taskweave/commands/`), the
 * folder beside the user's config file.
 */
export function commandFolders(options: { workspaceRoot: string; env: NodeJS.ProcessEnv }) {
  const home = options.env.HOME || os.homedir();
  const configHome = options.env.XDG_CONFIG_HOME || path.join(home, '.config');
  return [
    { source: 'project' as const, folder: path.join(options.workspaceRoot, '.taskweave', 'commands') },
    { source: 'user' as const, folder: path.join(configHome, 'taskweave', 'commands') },
  ];
}

/**
 * Reads every `*.md` file of the command folders. A file that cannot be used (broken front
 * matter, an unknown key, a bad name) is a problem naming the file; the others still load. A
 * project command file that leads outside the workspace (a link, or a link on its folders) is
 * refused: the repository's words must not become whatever file of the machine it points at. A
 * name the front end already uses (`reserved`, its built-in commands) is left to the built-in,
 * and the user's own command wins over a project command of the same name (a cloned repository
 * cannot take over the user's `/name`); both files are named.
 */
export async function loadCustomCommands(options: {
  workspaceRoot: string;
  env: NodeJS.ProcessEnv;
  reserved?: readonly string[];
}): Promise<LoadedCommands> {
  const reserved = new Set(options.reserved ?? []);
  const found = new Map<string, CustomCommand>();
  const problems: string[] = [];
  const workspaceReal = await realpath(options.workspaceRoot);
  for (const { source, folder } of commandFolders(options)) {
    for (const entry of await markdownFiles(folder, problems)) {
      const file = path.join(folder, entry);
      const name = entry.slice(0, -'.md'.length).toLowerCase();
      if (!NAME.test(name)) {
        problems.push(`${file}: a command name has lowercase letters, digits, - and _ only`);
        continue;
      }
      let parsed: ReturnType<typeof parseCommandFile>;
      try {
        // The file read is the one checked: its resolved path, not the link's name again.
        const real = await realpath(file);
        if (source === 'project' && !isInside(workspaceReal, real)) {
          problems.push(`${file}: leads outside the workspace (to ${real}), so it is not used`);
          continue;
        }
        parsed = parseCommandFile(await readFile(real, 'utf8'));
      } catch (error) {
        problems.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      if (parsed.body.trim() === '') {
        problems.push(`${file}: the command has no text`);
        continue;
      }
      if (reserved.has(name)) {
        problems.push(`${file}: /${name} is a built-in command, which wins; rename the file to use it`);
        continue;
      }
      const command: CustomCommand = { name, source, file, body: parsed.body, ...parsed.frontMatter };
      const earlier = found.get(name);
      if (earlier?.source === 'project' && source === 'user') {
        problems.push(`${earlier.file}: /${name} is also your own ${file}, which wins`);
        found.set(name, command);
        continue;
      }
      if (earlier) {
        problems.push(`${file}: /${name} is also ${earlier.file}, which wins`);
        continue;
      }
      found.set(name, command);
    }
  }
  const commands = [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { commands, problems };
}

async function markdownFiles(folder: string, problems: string[]): Promise<string[]> {
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    return entries
      .filter((entry) => entry.name.endsWith('.md') && (entry.isFile() || entry.isSymbolicLink()))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      problems.push(`${folder}: cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}

function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return (
    relative !== '' &&
    !relative.startsWith(`..${path.sep}`) &&
    relative !== '..' &&
    !path.isAbsolute(relative)
  );
}
