import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { RuntimeInputError } from '../../runtime/index.js';
import { describeIssues } from '../../util/describe-issues.js';
import { nearestNames } from '../../util/edit-distance.js';

/** `init` (build the start files: checked by init.spec.js, not counted) or `task-N`. */
const taskSchema = z.object({ id: z.string().regex(/^(init|task-\d+)$/), description: z.string().min(1) });

const manifestSchema = z.object({
  name: z.string().optional(),
  /** Web-Bench's own flag: `stable: false` marks a project left out of its scores. */
  eval: z.object({ stable: z.boolean().optional() }).passthrough().optional(),
  scripts: z.record(z.string(), z.string()).default({}),
  dependencies: z.record(z.string(), z.string()).default({}),
  devDependencies: z.record(z.string(), z.string()).default({}),
});

/** A project's package.json, as far as the suite reads it. */
export type ProjectManifest = z.infer<typeof manifestSchema>;

/** One task of a project: its goal and the spec that checks it (`test/task-N.spec.js`). */
export interface WebBenchTask {
  id: string;
  /** N of `task-N` (0 for `init`): the check runs the specs of tasks 1..N (and `init.spec.js`). */
  index: number;
  description: string;
}

/** One project of Web-Bench: `projects/<name>/` with src-init/, src/, test/ and its tasks. */
export interface WebBenchProject {
  name: string;
  dir: string;
  manifest: ProjectManifest;
  /**
   * The tasks in order (tasks.jsonl or tasks.yml), `init` first when there is one: the agent then
   * starts from an empty src/ and builds the start files itself (src-init/ replaces them if it
   * fails, as Web-Bench does); `init` is not counted in the scores.
   */
  tasks: WebBenchTask[];
}

/** Whether a project starts with an `init` task. */
export function hasInitTask(project: WebBenchProject): boolean {
  return project.tasks[0]?.id === 'init';
}

/** The tasks that count in the scores (all but `init`). */
export function scoredTasks(tasks: readonly WebBenchTask[]): WebBenchTask[] {
  return tasks.filter((task) => task.id !== 'init');
}

/** Which projects to take: by name (all when empty), and at most `limit`. */
export interface ProjectSelection {
  projects?: string[];
  limit?: number;
}

/** Folders of `projects/` that are not benchmark projects. */
const NOT_PROJECTS = new Set(['project-template']);

/**
 * The projects of a Web-Bench checkout (folders of `projects/` with a package.json and a task
 * list), sorted by name, filtered by the selection; an unknown name is an error naming the nearest.
 */
export async function discoverProjects(
  root: string,
  selection: ProjectSelection = {},
): Promise<WebBenchProject[]> {
  const projectsDir = path.join(root, 'projects');
  let names: string[];
  try {
    names = (await readdir(projectsDir, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && !NOT_PROJECTS.has(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    throw new RuntimeInputError(
      `Cannot read the Web-Bench checkout at ${root}: ${(error as Error).message}. Clone it first (git clone https://github.com/bytedance/web-bench).`,
    );
  }
  const known: string[] = [];
  for (const name of names)
    if (
      (await isFile(path.join(projectsDir, name, 'package.json'))) &&
      (await taskFile(path.join(projectsDir, name)))
    )
      known.push(name);
  if (known.length === 0)
    throw new RuntimeInputError(
      `${root} is not a Web-Bench checkout: no projects/<name>/ with a package.json and tasks.`,
    );
  const wanted = selection.projects?.length ? [...new Set(selection.projects)] : known;
  for (const name of wanted) {
    if (!known.includes(name)) {
      const nearest = nearestNames(name, known, 3);
      throw new RuntimeInputError(
        `Unknown Web-Bench project ${name}.${nearest.length > 0 ? ` Nearest: ${nearest.join(', ')}.` : ` The checkout has: ${known.join(', ')}.`}`,
      );
    }
  }
  const projects: WebBenchProject[] = [];
  for (const name of wanted) projects.push(await loadProject(path.join(projectsDir, name)));
  return projects;
}

/** Reads one project's package.json and tasks; a malformed file is an error naming it. */
export async function loadProject(dir: string): Promise<WebBenchProject> {
  const manifestFile = path.join(dir, 'package.json');
  const manifest = manifestSchema.safeParse(JSON.parse(await readFile(manifestFile, 'utf8')));
  if (!manifest.success) throw new RuntimeInputError(`${manifestFile}: ${describeIssues(manifest.error)}`);
  const file = (await taskFile(dir))!;
  const text = await readFile(file, 'utf8');
  const raw: unknown = file.endsWith('.yml')
    ? parseYaml(text)
    : text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as unknown);
  const tasks = z.array(taskSchema.passthrough()).safeParse(raw);
  if (!tasks.success) throw new RuntimeInputError(`${file}: ${describeIssues(tasks.error)}`);
  return {
    name: path.basename(dir),
    dir,
    manifest: manifest.data,
    tasks: tasks.data.map((task) => ({
      id: task.id,
      index: task.id === 'init' ? 0 : Number(task.id.slice('task-'.length)),
      description: task.description,
    })),
  };
}

async function taskFile(dir: string): Promise<string | undefined> {
  for (const name of ['tasks.jsonl', 'tasks.yml'])
    if (await isFile(path.join(dir, name))) return path.join(dir, name);
  return undefined;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
