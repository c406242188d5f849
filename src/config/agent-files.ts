import { readdir, readFile, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { describeIssues } from '../util/describe-issues.js';

/** An agent defined in a Markdown file: front matter, then its instructions. */
export interface AgentFile {
  name: string;
  /** `user` (the user config's agents/) or `workspace` (the workspace's .taskweave/agents/). */
  source: 'user' | 'workspace';
  file: string;
  description: string;
  /** The tools it gets (names of the run's tools); the run's tools when left out. */
  tools?: string[];
  /** The model it runs on (`provider:model`); the run's when left out. */
  model?: string;
  /** Its step limit; the run's when left out. */
  maxSteps?: number;
  /** The text after the front matter. */
  instructions: string;
}

/** The agents found, and one sentence per file that could not be used. */
export interface LoadedAgentFiles {
  agents: AgentFile[];
  problems: string[];
}

const NAME = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * Keys that would loosen what a run may do. An agent only narrows: approval, the sandbox and the
 * network are the user's settings (a workspace's words never loosen them, the rule workspace
 * config follows), so a file setting one is refused, with the reason.
 */
const LOOSENING_KEYS = ['approval', 'sandbox', 'network', 'auto', 'yes'] as const;

const frontMatterSchema = z.strictObject({
  description: z.string().min(1),
  tools: z.union([z.array(z.string().min(1)), z.string().min(1)]).optional(),
  model: z.string().min(1).optional(),
  max_steps: z.number().int().positive().optional(),
});

/**
 * The folders agents are read from: the workspace's `.taskweave/agents/`, then
 * `$XDG_CONFIG_HOME/taskweave/agents/` (by default `~/.config/taskweave/agents/`).
 */
export function agentFolders(options: { workspaceRoot: string; env: NodeJS.ProcessEnv }) {
  const home = options.env.HOME || os.homedir();
  const configHome = options.env.XDG_CONFIG_HOME || path.join(home, '.config');
  return [
    { source: 'workspace' as const, folder: path.join(options.workspaceRoot, '.taskweave', 'agents') },
    { source: 'user' as const, folder: path.join(configHome, 'taskweave', 'agents') },
  ];
}

/**
 * Reads every `*.md` file of the agent folders. A file that cannot be used (broken front matter,
 * an unknown key, a key that would loosen approval, sandbox or network, a workspace file that
 * leads outside the workspace) is a problem naming the file and why; the others still load. The
 * user's own agent wins over a workspace agent of the same name.
 */
export async function loadAgentFiles(options: {
  workspaceRoot: string;
  env: NodeJS.ProcessEnv;
}): Promise<LoadedAgentFiles> {
  const found = new Map<string, AgentFile>();
  const problems: string[] = [];
  const workspaceReal = await realpath(options.workspaceRoot);
  for (const { source, folder } of agentFolders(options)) {
    for (const entry of await markdownFiles(folder, problems)) {
      const file = path.join(folder, entry);
      const name = entry.slice(0, -'.md'.length).toLowerCase();
      if (!NAME.test(name)) {
        problems.push(`${file}: an agent name has lowercase letters, digits, - and _ only`);
        continue;
      }
      try {
        const real = await realpath(file);
        if (source === 'workspace' && path.relative(workspaceReal, real).startsWith('..')) {
          problems.push(`${file}: leads outside the workspace (to ${real}), so it is not used`);
          continue;
        }
        const agent = parseAgentFile(await readFile(real, 'utf8'), { name, source, file });
        const earlier = found.get(name);
        if (earlier !== undefined)
          problems.push(`${earlier.file}: agent ${name} is also your own ${file}, which wins`);
        found.set(name, agent);
      } catch (error) {
        problems.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  return { agents: [...found.values()].sort((a, b) => a.name.localeCompare(b.name)), problems };
}

/**
 * Reads one agent file: YAML front matter between `---` lines (description, tools, model,
 * max_steps), then its instructions. Throws an Error saying what is wrong.
 */
export function parseAgentFile(
  source: string,
  where: { name: string; source: AgentFile['source']; file: string },
): AgentFile {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const match = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(text);
  if (!match)
    throw new Error('an agent file opens with front matter between --- lines (at least a description)');
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? '');
  } catch (error) {
    throw new Error(
      `its front matter is not valid YAML: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (data !== null && typeof data === 'object') {
    const loosening = LOOSENING_KEYS.filter((key) => key in data);
    if (loosening.length > 0) {
      const whose =
        where.source === 'workspace' ? "a workspace agent is the repository's words: it" : 'an agent';
      throw new Error(
        `refused: it sets ${loosening.join(', ')}; ${whose} may narrow tools and give instructions, never change approval, sandbox or network (those are your settings)`,
      );
    }
  }
  const parsed = frontMatterSchema.safeParse(data);
  if (!parsed.success) throw new Error(`its front matter: ${describeIssues(parsed.error, '; ')}`);
  const instructions = text.slice(match[0].length).trim();
  if (instructions === '') throw new Error('the agent has no instructions after its front matter');
  const { tools, model, max_steps: maxSteps, description } = parsed.data;
  return {
    ...where,
    description,
    instructions,
    ...(tools === undefined
      ? {}
      : { tools: typeof tools === 'string' ? tools.split(/[\s,]+/).filter(Boolean) : tools }),
    ...(model === undefined ? {} : { model }),
    ...(maxSteps === undefined ? {} : { maxSteps }),
  };
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
