import path from 'node:path';
import { discoverProjects, planProjects, scoredTasks } from '../../eval/web-bench/index.js';
import { writeTerminal } from '../../util/terminal-write.js';
import { EXIT } from '../exit-codes.js';
import type { EvalCliOptions } from '../options.js';
import { renderTable } from '../render/table.js';
import { UsageError } from '../usage-error.js';

/**
 * Checks that the Web-Bench options go with `--suite web-bench` (and that it has `--path`), and
 * that the other suites' selections do not; returns the checkout's folder for that suite.
 */
export function webBenchPath(options: EvalCliOptions): string | undefined {
  if (options.suite !== 'web-bench') {
    const given = [
      ['--project', options.project.length > 0],
      ['--tasks', options.tasks !== undefined],
    ].filter(([, set]) => set);
    if (given.length > 0)
      throw new UsageError(`${given.map(([name]) => name).join(', ')} go with --suite web-bench.`);
    return undefined;
  }
  const others = [
    ['--scenario', options.scenario.length > 0],
    ['--language', options.language.length > 0],
    ['--exercise', options.exercise.length > 0],
  ].filter(([, set]) => set);
  if (others.length > 0)
    throw new UsageError(
      `${others.map(([name]) => name).join(', ')} do not go with --suite web-bench: pick projects with --project.`,
    );
  if (options.path === undefined)
    throw new UsageError(
      '--suite web-bench needs --path <checkout of Web-Bench> (git clone https://github.com/bytedance/web-bench).',
    );
  return path.resolve(options.cwd, options.path);
}

/** `--suite web-bench --list`: the projects, their tasks, and whether each can be set up here (and why not). */
export async function listWebBench(root: string, options: EvalCliOptions): Promise<number> {
  const selection = { projects: options.project };
  const projects = await discoverProjects(root, selection);
  const { runnable, skipped } = await planProjects({ path: root, selection, env: process.env });
  const reasons = new Map(skipped.map((entry) => [entry.exercise, entry.reason]));
  const rows = projects.map((project) => [
    project.name,
    String(scoredTasks(project.tasks).length),
    reasons.has(project.name)
      ? `skipped: ${reasons.get(project.name)}`
      : 'runs here (once its dependencies install)',
  ]);
  writeTerminal(
    process.stdout,
    renderTable({
      columns: [{ header: 'project' }, { header: 'tasks', align: 'right' }, { header: 'here' }],
      rows,
    }),
  );
  const total = runnable.reduce((sum, project) => sum + scoredTasks(project.tasks).length, 0);
  writeTerminal(
    process.stdout,
    `${runnable.length} of ${projects.length} projects (${total} tasks) can run on this machine; a project whose install fails is skipped when it runs.\n`,
  );
  return EXIT.completed;
}
