import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RuntimeInputError } from '../runtime/index.js';
import type { Scenario } from './scenario.js';

const requireHere = createRequire(import.meta.url);

/** A throwaway folder for one run: the workspace, and beside it what the agent must not see. */
export interface RunFolder {
  /** The folder holding both; removed by `dispose`. */
  root: string;
  /** The agent's workspace: the scenario's start files. */
  workspace: string;
  dispose(): Promise<void>;
}

/**
 * Makes a fresh temp folder with the scenario's start files as the workspace. The packages the
 * scenario links come from taskweave's own installation (nothing is downloaded); a project config
 * (`<project>/.taskweave/config.json`) is copied in so the run resolves its model as
 * `taskweave run` would in the project.
 */
export async function prepareRunFolder(options: {
  scenario: Scenario;
  projectConfig?: string;
}): Promise<RunFolder> {
  const root = await mkdtemp(path.join(tmpdir(), `taskweave-eval-${options.scenario.name}-`));
  const workspace = path.join(root, 'workspace');
  await cp(options.scenario.startDir, workspace, { recursive: true });
  for (const name of options.scenario.link) await linkPackage(workspace, name);
  if (options.projectConfig !== undefined) {
    await mkdir(path.join(workspace, '.taskweave'), { recursive: true });
    await cp(options.projectConfig, path.join(workspace, '.taskweave', 'config.json'));
  }
  return { root, workspace, dispose: () => rm(root, { recursive: true, force: true }) };
}

async function linkPackage(workspace: string, name: string): Promise<void> {
  let manifest: string;
  try {
    manifest = requireHere.resolve(`${name}/package.json`);
  } catch {
    throw new RuntimeInputError(
      `The scenario needs the package ${name}, which is not installed beside taskweave (npm install ${name}).`,
    );
  }
  const modules = path.join(workspace, 'node_modules');
  await mkdir(path.join(modules, '.bin'), { recursive: true });
  await mkdir(path.dirname(path.join(modules, name)), { recursive: true });
  await symlink(path.dirname(manifest), path.join(modules, name), 'dir');
  const bins = (requireHere(manifest) as { bin?: string | Record<string, string> }).bin;
  const entries = typeof bins === 'string' ? { [name]: bins } : (bins ?? {});
  for (const [command, file] of Object.entries(entries)) {
    await symlink(path.join(path.dirname(manifest), file), path.join(modules, '.bin', command));
  }
}
