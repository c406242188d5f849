import { spawn } from 'node:child_process';
import { withoutCredentials } from '../util/command-environment.js';
import type { Scenario } from './scenario.js';

/** How long a checker may run before it counts as failed. */
export const CHECKER_TIMEOUT_MS = 180_000;
/** The most characters of a checker's output kept as the reason. */
const MAX_REASON_CHARS = 2_000;

/** What a checker said. */
export interface CheckResult {
  passed: boolean;
  /** Its output (why it failed, or what passed). */
  reason: string;
}

/**
 * Runs the scenario's checker (`node check.mjs`) in the workspace: exit code 0 is a pass. The
 * checker lives outside the workspace, so the agent cannot change it; taskweave's secrets and other credentials are not passed on.
 */
export function runChecker(scenario: Scenario, workspace: string): Promise<CheckResult> {
  return new Promise((resolve) => {
    const env = withoutCredentials(process.env);
    const child = spawn(process.execPath, [scenario.checker], {
      cwd: workspace,
      env: { ...env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), CHECKER_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ passed: false, reason: `the checker did not start: ${error.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const text = output.trim().replace(/^(PASS|FAIL) /, '');
      const reason = signal
        ? `the checker was killed (${signal}) after ${CHECKER_TIMEOUT_MS / 1000} s`
        : text;
      resolve({ passed: code === 0, reason: reason.slice(0, MAX_REASON_CHARS) || `exit code ${code}` });
    });
  });
}
