import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Spinner, spinnerLine } from '../../../src/cli/render/terminal.js';

describe('the spinner', () => {
  it('draws a label with newlines (command output) as one line', () => {
    expect(spinnerLine('→ run_command("npm run build") first\nsecond\r\n', 80)).toBe(
      '→ run_command("npm run build") first second',
    );
  });

  it('shortens a label wider than the terminal so that the redraw never wraps', () => {
    const line = spinnerLine(`→ ${'x'.repeat(200)}`, 80);
    expect([...line].length).toBeLessThanOrEqual(77);
    expect(line.endsWith('…')).toBe(true);
  });

  it('writes frames that never hold a newline on an 80-column terminal', async () => {
    const writes: string[] = [];
    const stream = Object.assign(new Writable(), {
      isTTY: true,
      columns: 80,
      write: (chunk: string) => writes.push(chunk) > 0,
    });
    const spinner = new Spinner(stream);
    spinner.start('→ run_command("echo first; echo second; sleep 3")');
    spinner.update(`→ run_command first\nsecond ${'y'.repeat(120)}`);
    await sleep(200);
    spinner.stop();
    // The first frame, at least one frame of the updated label, and the clearing write.
    expect(writes.length).toBeGreaterThan(2);
    expect(writes.some((frame) => frame.includes('first second'))).toBe(true);
    for (const frame of writes) {
      expect(frame).not.toMatch(/\n/);
      expect([...frame.replace(/\r|\u001b\[2K/g, '')].length).toBeLessThanOrEqual(79);
    }
  });
});
