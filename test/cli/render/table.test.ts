import { describe, expect, it } from 'vitest';
import { renderTable } from '../../../src/cli/render/table.js';

const columns = [{ header: 'id' }, { header: 'title', fit: true }, { header: 'n', align: 'right' as const }];
const rows = [['a1', 'a title far too long for a narrow terminal to show on one line', '12']];

describe('renderTable', () => {
  it('cuts the fit column so that each row fits the width, the columns after it aligned', () => {
    const lines = renderTable({ columns, rows, width: 30 }).trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(30);
    expect(lines[1]).toBe('a1  a title far too long…   12');
    expect(lines[0]!.indexOf('n')).toBe(lines[1]!.indexOf('12') + 1);
  });

  it('leaves a table that fits, or one without a width, as it is', () => {
    const whole = renderTable({ columns, rows });
    expect(renderTable({ columns, rows, width: 200 })).toBe(whole);
    expect(whole).toContain('a title far too long for a narrow terminal to show on one line');
  });
});
