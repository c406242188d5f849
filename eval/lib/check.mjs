// Helpers for the scenario checkers. A checker runs with the workspace as its current folder,
// prints why it failed (or what passed) and exits 0 (passed) or 1 (failed).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** How long one command of a checker may take. */
export const COMMAND_TIMEOUT_MS = 120_000;

const require = createRequire(import.meta.url);

/** Ends the check as failed, with the reason on stdout. */
export function fail(reason) {
  process.stdout.write(`FAIL ${reason}\n`);
  process.exit(1);
}

/** Ends the check as passed. */
export function pass(what) {
  process.stdout.write(`PASS ${what}\n`);
  process.exit(0);
}

/** The text of a workspace file; fails the check when it is missing. */
export function read(file) {
  if (!existsSync(file)) fail(`${file} does not exist`);
  return readFileSync(file, 'utf8');
}

/** A workspace file parsed as JSON; fails the check when it is missing or not JSON. */
export function readJson(file) {
  const text = read(file);
  try {
    return JSON.parse(text);
  } catch (error) {
    return fail(`${file} is not valid JSON: ${error.message}`);
  }
}

/** Fails the check unless the file exists. */
export function mustExist(file) {
  if (!existsSync(file)) fail(`${file} does not exist`);
}

/** Fails the check if the file exists. */
export function mustNotExist(file) {
  if (existsSync(file)) fail(`${file} still exists`);
}

/** Runs a command without a shell; returns its exit code and output (stdout and stderr). */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? process.cwd(),
    encoding: 'utf8',
    timeout: options.timeoutMs ?? COMMAND_TIMEOUT_MS,
    env: { ...process.env, NODE_OPTIONS: '', ...options.env },
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`;
  return { code: result.status ?? 1, output };
}

/** The last lines of a command's output, for a reason. */
export function tail(output, lines = 12) {
  return output.trim().split('\n').slice(-lines).join('\n');
}

/**
 * Compiles a TypeScript project with taskweave's own TypeScript (nothing is downloaded), into a
 * temp folder; returns the exit code, the output and the folder with the emitted JavaScript.
 */
export function compileTypeScript(project) {
  let tsc;
  try {
    tsc = require.resolve('typescript/bin/tsc');
  } catch {
    fail(
      'TypeScript is not installed beside taskweave (it is a development dependency): npm install typescript',
    );
  }
  const outDir = mkdtempSync(path.join(tmpdir(), 'taskweave-check-'));
  process.on('exit', () => rmSync(outDir, { recursive: true, force: true }));
  const result = run(process.execPath, [tsc, '-p', project, '--noEmit', 'false', '--outDir', outDir]);
  return { ...result, outDir };
}

/** Runs `node --test` on the given test files; fails the check when they fail. */
export function testsMustPass(files) {
  const result = run(process.execPath, ['--test', '--test-reporter=dot', ...files]);
  if (result.code !== 0) fail(`the tests fail (node --test ${files.join(' ')}):\n${tail(result.output)}`);
}

/** Text of every file under the folders with these extensions, by path. */
export function sourcesIn(folders, extensions) {
  const found = new Map();
  const walk = (folder) => {
    if (!existsSync(folder)) return;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(full);
      } else if (extensions.some((extension) => entry.name.endsWith(extension))) {
        found.set(full, readFileSync(full, 'utf8'));
      }
    }
  };
  for (const folder of folders) walk(folder);
  return found;
}
