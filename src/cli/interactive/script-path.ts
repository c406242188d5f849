import path from 'node:path';

/**
 * A script path given on the command line is relative to the folder the user typed it in, not
 * to --cwd (paths in TASKWEAVE_MODEL and the config file resolve against the workspace).
 */
export function scriptPathFromShell(model: string | undefined): string | undefined {
  if (!model?.startsWith('script:')) return model;
  return `script:${path.resolve(process.cwd(), model.slice('script:'.length))}`;
}
