import { describe, expect, it } from 'vitest';
import { styleFor } from '../../../src/cli/render/terminal.js';
import { toolDetailLines } from '../../../src/cli/render/tool-details.js';
import type { DiagnosticView } from '../../../src/events/diagnostic-text.js';
import { foldSessionEvents } from '../../../src/events/session-view.js';

const plain = styleFor({ isTTY: false }, {});
const problem = (line: number): DiagnosticView => ({
  path: 'src/cart.ts',
  line,
  column: 10,
  severity: 'error',
  code: 'TS2554',
  message: 'Expected 2 arguments, but got 1.',
});
const EDIT_RESULT = [
  'Edited src/money.ts: 1 edit applied; it now has 5 lines.',
  '',
  '@@ line 1 @@',
  '- export function formatPrice(cents: number): string {',
  '+ export function formatPrice(cents: number, currency: string): string {',
  '',
  'The language server reports 4 new problems after this change (4 errors); fix them:',
  'src/cart.ts:4:10 error TS2554: Expected 2 arguments, but got 1.',
].join('\n');

describe('an edit with new problems on the terminal', () => {
  const call = {
    name: 'edit_file',
    args: { path: 'src/money.ts' },
    ok: true,
    result: EDIT_RESULT,
    diagnostics: [problem(4), problem(9), problem(12), problem(20)],
  };

  it('shows the diff, then the count and the first three', () => {
    expect(toolDetailLines(call, { verbose: false, style: plain })).toEqual([
      '    @@ line 1 @@',
      '    - export function formatPrice(cents: number): string {',
      '    + export function formatPrice(cents: number, currency: string): string {',
      '    ⚠ 4 new problems',
      '      src/cart.ts:4:10 error TS2554: Expected 2 arguments, but got 1.',
      '      src/cart.ts:9:10 error TS2554: Expected 2 arguments, but got 1.',
      '      src/cart.ts:12:10 error TS2554: Expected 2 arguments, but got 1.',
      '      … 1 more (--verbose shows all)',
    ]);
  });

  it('shows them all with --verbose', () => {
    const lines = toolDetailLines(call, { verbose: true, style: plain });
    expect(lines.filter((line) => line.includes('TS2554'))).toHaveLength(4);
    expect(lines.join('\n')).not.toContain('more');
  });

  it('keeps them on the call in the folded session view (the web card reads them there)', () => {
    const base = { session_id: 's', run_id: 'r', ts: 1 };
    const view = foldSessionEvents([
      {
        ...base,
        seq: 1,
        type: 'tool_start',
        call_id: 'c1',
        name: 'edit_file',
        args: { path: 'src/money.ts' },
        step: 1,
      },
      {
        ...base,
        seq: 2,
        type: 'tool_complete',
        call_id: 'c1',
        name: 'edit_file',
        result: EDIT_RESULT,
        diagnostics: call.diagnostics,
        duration_ms: 5,
      },
    ]);
    const step = view.items.find((item) => item.kind === 'step');
    expect(step?.kind === 'step' && step.tools[0]?.diagnostics).toEqual(call.diagnostics);
  });
});
