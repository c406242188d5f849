import { describe, expect, it } from 'vitest';
import { parseCommandResult } from '../../src/events/command-result.js';

describe('parseCommandResult', () => {
  it('takes a command result apart into its streams, without the framing', () => {
    const text =
      'Exit code: 2\nDuration: 0.3s\n--- stdout ---\nbuilding\ndone\n\n--- stderr ---\nerror: boom\n';
    expect(parseCommandResult(text)).toEqual({
      exitCode: 2,
      duration: '0.3s',
      stdout: ['building', 'done'],
      stderr: ['error: boom'],
    });
  });

  it('reads an empty stream as no lines, keeps notes after it, and keeps what a \\r redraw left', () => {
    const text =
      'Timed out after 5s: the command and every process it started were killed.\nDuration: 5.0s\n' +
      '--- stdout ---\n10%\r50%\r100%\n--- stderr ---\n(empty)\nThe sandbox kept the network off.';
    expect(parseCommandResult(text)).toEqual({
      duration: '5.0s',
      stdout: ['100%'],
      stderr: ['The sandbox kept the network off.'],
    });
  });

  it('is undefined for text that is not a command result', () => {
    expect(parseCommandResult('The user denied this command: too risky')).toBeUndefined();
    expect(parseCommandResult('--- stdout ---\nx\n--- stderr ---\ny')).toBeUndefined();
  });
});
