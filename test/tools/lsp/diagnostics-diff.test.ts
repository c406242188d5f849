import { describe, expect, it } from 'vitest';
import type { FileDiagnostic } from '../../../src/tools/lsp/diagnostics.js';
import {
  diagnosticsText,
  MAX_DIAGNOSTICS_IN_RESULT,
  newDiagnostics,
  orderDiagnostics,
} from '../../../src/tools/lsp/diagnostics-diff.js';

const error = (path: string, line: number, message: string): FileDiagnostic => ({
  path,
  line,
  column: 1,
  severity: 'error',
  code: 'TS2322',
  message,
});

describe('the problems a change introduced', () => {
  it('leaves out those already there, even moved to another line, and counts copies', () => {
    const before = [error('a.ts', 3, 'old'), error('a.ts', 9, 'twice')];
    const after = [
      error('a.ts', 5, 'old'),
      error('a.ts', 9, 'twice'),
      error('a.ts', 12, 'twice'),
      error('b.ts', 2, 'new'),
    ];
    expect(newDiagnostics(before, after).map((d) => `${d.path}:${d.line} ${d.message}`)).toEqual([
      'a.ts:12 twice',
      'b.ts:2 new',
    ]);
  });

  it('puts errors first and the changed file before the others', () => {
    const warning: FileDiagnostic = { ...error('a.ts', 1, 'unused'), severity: 'warning' };
    const ordered = orderDiagnostics([warning, error('b.ts', 1, 'caller'), error('a.ts', 4, 'own')], 'a.ts');
    expect(ordered.map((d) => d.message)).toEqual(['own', 'caller', 'unused']);
  });

  it('names at most a few in the result and says how many more', () => {
    const many = Array.from({ length: MAX_DIAGNOSTICS_IN_RESULT + 5 }, (_, index) =>
      error('a.ts', index + 1, `problem ${index}`),
    );
    const text = diagnosticsText({ diagnostics: many });
    expect(text.split('\n')).toHaveLength(MAX_DIAGNOSTICS_IN_RESULT + 2);
    expect(text).toContain('… 5 more problems');
    expect(diagnosticsText({ diagnostics: [] })).toBe('');
  });
});
