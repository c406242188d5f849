import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareRepository } from '../../src/runtime/setup/repo-queue.js';
import {
  remoteCredentialsEnv,
  remoteWithoutCredentials,
  withoutRemoteCredentials,
} from '../../src/work/repo-clone.js';

/*
 * A remote URL can carry an access token (https://TOKEN@host/…) or a password. A worker's
 * messages and logs (under systemd, journald keeps them) name the repository without them, even
 * when git's own error repeats the whole URL.
 */
describe('remote credentials in messages', () => {
  it('a remote that cannot be cloned is named without its token or password', async () => {
    const clones = mkdtempSync(path.join(tmpdir(), 'taskweave-clones-'));
    const remote = 'https://ghp_token123:pa55word@127.0.0.1:9/team/app.git';
    const error = await prepareRepository({ remote, clones }).then(
      () => undefined,
      (thrown: unknown) => thrown as Error,
    );
    expect(error?.message).toContain('https://127.0.0.1:9/team/app');
    expect(error?.message).toContain('could not be cloned');
    expect(error?.message).not.toContain('ghp_token123');
    expect(error?.message).not.toContain('pa55word');
  }, 30_000);

  it('hides an http user name (a token) but keeps an ssh login, which is no secret', () => {
    expect(
      withoutRemoteCredentials(
        'fatal: https://tok%40en@host/r.git: denied (tok@en)',
        'https://tok%40en@host/r.git',
      ),
    ).toBe('fatal: https://host/r: denied (***)');
    expect(withoutRemoteCredentials('ssh://git@host/r.git failed', 'ssh://git@host/r.git')).toBe(
      'ssh://host/r failed',
    );
  });

  it("gives git an http remote's credentials through its environment alone, after the environment's own config", () => {
    const remote = 'https://x-access:gh%40token@git.example.com/team/app.git';
    expect(remoteWithoutCredentials(remote)).toBe('https://git.example.com/team/app.git');
    const env = remoteCredentialsEnv(remote, { GIT_CONFIG_COUNT: '1' });
    expect(env).toMatchObject({
      GIT_CONFIG_COUNT: '3',
      GIT_CONFIG_KEY_1: 'credential.https://git.example.com.helper',
      GIT_CONFIG_VALUE_1: '',
      GIT_CONFIG_KEY_2: 'credential.https://git.example.com.helper',
      TASKWEAVE_GIT_USERNAME: 'x-access',
      TASKWEAVE_GIT_PASSWORD: 'gh@token',
    });
    // The helper names the variables, never the secret itself.
    expect(env?.GIT_CONFIG_VALUE_2).not.toContain('gh@token');
    expect(remoteCredentialsEnv('https://git.example.com/team/app.git')).toBeUndefined();
    expect(remoteCredentialsEnv('ssh://git@host/r.git')).toBeUndefined();
    expect(remoteWithoutCredentials('git@host:team/app.git')).toBe('git@host:team/app.git');
  });
});
