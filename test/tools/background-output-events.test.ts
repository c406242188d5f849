import { afterEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../src/events/registry.js';
import { BACKGROUND_LINE_CHARS } from '../../src/tools/background/background-command.js';
import { BackgroundCommands } from '../../src/tools/background/background-commands.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/** Prints a new 300-character line every 50 ms (each one different), for about 5 seconds. */
const CHATTER = `for i in $(seq 100); do printf "%0300d\\n" $i; sleep 0.05; done`;

let background: BackgroundCommands | undefined;
afterEach(async () => {
  await background?.close();
});

describe('background output events are bounded per command (issue 39, item 11)', () => {
  it('stops sending output events once a command used its share, says so in the last one, and still ends with its last lines', async () => {
    const events: EventPayload[] = [];
    background = new BackgroundCommands({
      max: 1,
      emit: (_runId, payload) => events.push(payload),
      outputEventsMaxChars: 2_000,
    });
    const started = background.start({
      command: CHATTER,
      cwd: await tempWorkspaceRoot('taskweave-bg-events-'),
      env: { PATH: process.env.PATH },
      runId: 'run-1',
      callId: 'call-1',
    });
    if ('refused' in started) throw new Error(started.refused);
    await started.finished;
    await background.stop(started, 'the test');
    const outputs = events.flatMap((event) => (event.type === 'background_output' ? [event] : []));
    // Each event carries at most 5 lines of 300 characters: the share is spent by the second one.
    expect(outputs).toHaveLength(2);
    expect(outputs.at(-1)?.lines.at(-1)).toBe(
      '… [bg1 printed more than 2000 characters of output events: later lines show when it ends; read_background_output reads them]',
    );
    const ended = events.find((event) => event.type === 'background_ended');
    expect(ended && 'lines' in ended ? ended.lines.at(-1) : '').toBe('100'.padStart(300, '0'));
    for (const line of outputs.flatMap((output) => output.lines))
      expect(line.length).toBeLessThanOrEqual(BACKGROUND_LINE_CHARS + 200);
  }, 30_000);
});
