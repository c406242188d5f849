import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/web-bench');

describe('taskweave eval --suite web-bench (the built CLI)', () => {
  it('--list shows each project, its tasks and whether it can be set up here', async () => {
    const run = await runCli(['eval', '--suite', 'web-bench', '--path', FIXTURE, '--list']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/counter\s+2\s+runs here/);
    expect(run.stdout).toMatch(/needs-mongo\s+1\s+skipped: mongodb-memory-server downloads a MongoDB server/);
    expect(run.stdout).toContain('1 of 2 projects (2 tasks) can run on this machine');
  });

  it('says which options go with which suite, and that web-bench needs its checkout', async () => {
    const stray = await runCli(['eval', '--project', 'react', '--list']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--project go with --suite web-bench.');
    const mixed = await runCli(['eval', '--suite', 'web-bench', '--path', FIXTURE, '--language', 'python']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain(
      '--language do not go with --suite web-bench: pick projects with --project.',
    );
    const noPath = await runCli(['eval', '--suite', 'web-bench', '--list']);
    expect(noPath.code).toBe(2);
    expect(noPath.stderr).toContain('--suite web-bench needs --path <checkout of Web-Bench>');
    const unknown = await runCli([
      'eval',
      '--suite',
      'web-bench',
      '--path',
      FIXTURE,
      '--project',
      'countr',
      '--list',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown Web-Bench project countr. Nearest: counter.');
  });
});
