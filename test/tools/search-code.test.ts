import { describe, expect, it } from 'vitest';
import {
  MAX_MATCH_LINE_CHARS,
  MAX_SEARCH_MATCHES,
  searchCodeTool,
} from '../../src/tools/builtin/search-code.js';
import { useToolTestBed } from '../helpers/tool-context.js';

describe('search_code', () => {
  const bed = useToolTestBed();

  it('returns matches as path:line: text, sorted by path', async () => {
    await bed().write('src/b.ts', 'const unrelated = 0;\nexport const answer = 42;\n');
    await bed().write('src/a.ts', '   import { answer } from "./b.js";   \n');
    const result = await searchCodeTool.run({ pattern: 'answer' }, bed().ctx);
    expect(result.isError).toBe(false);
    expect(result.output).toBe(
      'src/a.ts:1: import { answer } from "./b.js";\nsrc/b.ts:2: export const answer = 42;',
    );
    expect(result.display).toBe('2 matches in 2 files');
  });

  it('honours .gitignore outside a git repository and never searches .git or .taskweave', async () => {
    await bed().write('.gitignore', 'dist/\n*.log\n');
    await bed().write('dist/out.js', 'needle\n');
    await bed().write('debug.log', 'needle\n');
    await bed().write('.git/config', 'needle\n');
    await bed().write('.taskweave/state.txt', 'needle\n');
    await bed().write('.github/ci.yml', 'needle\n');
    await bed().write('src/app.ts', 'needle\n');
    const result = await searchCodeTool.run({ pattern: 'needle' }, bed().ctx);
    expect(result.output).toBe('.github/ci.yml:1: needle\nsrc/app.ts:1: needle');
  });

  it('keeps .git excluded even when file_pattern matches everything', async () => {
    await bed().write('.git/HEAD', 'needle\n');
    await bed().write('a.txt', 'needle\n');
    const result = await searchCodeTool.run({ pattern: 'needle', file_pattern: '*' }, bed().ctx);
    expect(result.output).toBe('a.txt:1: needle');
  });

  it('limits the search to files matching file_pattern', async () => {
    await bed().write('src/a.ts', 'token\n');
    await bed().write('src/a.js', 'token\n');
    await bed().write('lib/deep/b.ts', 'token\n');
    const byExtension = await searchCodeTool.run({ pattern: 'token', file_pattern: '*.ts' }, bed().ctx);
    expect(byExtension.output).toBe('lib/deep/b.ts:1: token\nsrc/a.ts:1: token');
    const byFolder = await searchCodeTool.run({ pattern: 'token', file_pattern: 'src/**' }, bed().ctx);
    expect(byFolder.output).toBe('src/a.js:1: token\nsrc/a.ts:1: token');
  });

  it('caps the matches and says how many were left out, in how many files', async () => {
    const lines = (count: number) => 'hit\n'.repeat(count);
    await bed().write('a.txt', lines(60));
    await bed().write('b.txt', lines(60));
    await bed().write('c.txt', lines(30));
    const result = await searchCodeTool.run({ pattern: 'hit' }, bed().ctx);
    const shown = result.output.split('\n').filter((line) => line.endsWith(': hit'));
    expect(shown).toHaveLength(MAX_SEARCH_MATCHES);
    expect(shown.at(-1)).toBe('b.txt:40: hit');
    expect(result.output).toContain(
      '100 of 150 matches shown; 50 more matches in 2 files were left out. Narrow the pattern or set file_pattern to see them.',
    );
    expect(result.display).toBe('150 matches in 3 files');
  });

  it('shortens a long line around the match', async () => {
    await bed().write('min.js', `${'a'.repeat(5_000)}NEEDLE${'b'.repeat(5_000)}\n`);
    const result = await searchCodeTool.run({ pattern: 'NEEDLE' }, bed().ctx);
    const text = result.output.slice('min.js:1: '.length);
    expect(text).toContain('NEEDLE');
    expect(text.startsWith('…a')).toBe(true);
    expect(text.endsWith('b…')).toBe(true);
    expect(text.length).toBe(MAX_MATCH_LINE_CHARS + 2);
  });

  it('says so when nothing matches, without an error', async () => {
    await bed().write('a.txt', 'something\n');
    const result = await searchCodeTool.run({ pattern: 'absent', file_pattern: '*.txt' }, bed().ctx);
    expect(result.isError).toBe(false);
    expect(result.output).toBe('No matches for /absent/ in files matching *.txt.');
    expect(result.display).toBe('no matches');
  });

  it("returns ripgrep's message for an invalid regex", async () => {
    await bed().write('a.txt', 'x\n');
    const result = await searchCodeTool.run({ pattern: 'foo(' }, bed().ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toContain('regex parse error');
    expect(result.output).toContain('escape');
  });

  it('searches for a pattern that starts with a dash', async () => {
    await bed().write('a.sh', 'ls --all\n');
    const result = await searchCodeTool.run({ pattern: '--all' }, bed().ctx);
    expect(result.output).toBe('a.sh:1: ls --all');
  });

  it('stops when the run is stopped', async () => {
    await bed().write('a.txt', 'x\n');
    bed().abort.abort();
    const result = await searchCodeTool.run({ pattern: 'x' }, bed().ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toBe('The search was stopped by the user.');
  });

  it('rejects a missing pattern with the wrapper message', async () => {
    const result = await searchCodeTool.run({ file_pattern: '*.ts' }, bed().ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^The search_code tool was called with invalid arguments:\n- pattern: /);
  });
});
