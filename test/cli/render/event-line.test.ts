import { describe, expect, it } from 'vitest';
import { renderEventLines } from '../../../src/cli/render/event-line.js';
import type { EventPayload, ServerEvent } from '../../../src/events/registry.js';

/** Logged events numbered from 1, as the store hands them back. */
function logged(payloads: EventPayload[]): ServerEvent[] {
  return payloads.map((payload, index) => ({
    ...payload,
    session_id: 'sess_1',
    run_id: 'run_1',
    seq: index + 1,
    ts: 1_700_000_000_000 + index,
  })) as ServerEvent[];
}

const delta = (content: string, step = 1, task_id?: string): EventPayload => ({
  type: 'agent_update',
  update_type: 'agent_text_delta',
  step,
  content,
  ...(task_id === undefined ? {} : { task_id }),
});

describe('renderEventLines', () => {
  it('joins the text deltas of one step on one line, its seq a range, and keeps other events whole', () => {
    const events = logged([
      { type: 'agent_update', update_type: 'agent_turn_start', step: 1 },
      delta('Reading '),
      delta('the '),
      delta('file.'),
      { type: 'tool_start', call_id: 'c1', name: 'read_file', args: { path: 'a.ts' }, step: 1 },
      delta('Done', 2),
      delta('.', 2),
      delta('Next', 3),
    ]);
    expect(renderEventLines(events).trimEnd().split('\n')).toEqual([
      '  1  agent_update/agent_turn_start  step 1',
      '2–4  agent_update/agent_text_delta  step 1: Reading the file.',
      '  5  tool_start                     read_file("a.ts")',
      '6–7  agent_update/agent_text_delta  step 2: Done.',
      '  8  agent_update/agent_text_delta  step 3: Next',
    ]);
  });

  it('keeps the deltas of parallel tasks apart', () => {
    const events = logged([
      delta('a1', 1, 't1'),
      delta('a2', 1, 't1'),
      delta('b1', 1, 't2'),
      delta('a3', 1, 't1'),
    ]);
    expect(renderEventLines(events).trimEnd().split('\n')).toEqual([
      '1–2  agent_update/agent_text_delta  step 1: a1a2',
      '  3  agent_update/agent_text_delta  step 1: b1',
      '  4  agent_update/agent_text_delta  step 1: a3',
    ]);
  });

  it('shortens a joined reply to the terminal, and with full wraps all of it', () => {
    const words = Array.from({ length: 40 }, (_, index) => delta(`word${index} `));
    const events = logged(words);
    const [line] = renderEventLines(events, { width: 60 }).trimEnd().split('\n');
    expect(line).toHaveLength(60);
    expect(line).toMatch(/^1–40 {2}agent_update\/agent_text_delta {2}step 1: word0 .*…$/);
    const full = renderEventLines(events, { full: true, width: 60 }).trimEnd().split('\n');
    expect(full.length).toBeGreaterThan(1);
    expect(full.join(' ').replace(/\s+/g, ' ')).toContain('word0 word1');
    expect(full.join(' ')).toContain('word39');
    for (const row of full) expect(row.length).toBeLessThanOrEqual(60);
  });
});
