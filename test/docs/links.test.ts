import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { brokenLinks, headingId, pageAnchors } from './markdown-links.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The README and every page of docs/. */
function documentationPages(): string[] {
  const docs = path.join(ROOT, 'docs');
  const pages = readdirSync(docs)
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(docs, name));
  return [path.join(ROOT, 'README.md'), ...pages];
}

function describeBroken(broken: ReturnType<typeof brokenLinks>): string {
  return broken
    .map((link) => `${path.relative(ROOT, link.page)}:${link.line} (${link.target}): ${link.reason}`)
    .join('\n');
}

describe('the links of README.md and docs/*.md', () => {
  it('lead to files that exist and to headings those pages have', () => {
    const pages = documentationPages();
    expect(pages.length).toBeGreaterThan(10);
    const broken = brokenLinks(pages);
    expect(broken, describeBroken(broken)).toEqual([]);
  });
});

describe('the link check', () => {
  let folder: string | undefined;
  afterEach(() => {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
    folder = undefined;
  });

  it('reports links to a missing page (also one whose text runs over a line), heading or image, and nothing else', () => {
    folder = mkdtempSync(path.join(tmpdir(), 'taskweave-links-'));
    mkdirSync(path.join(folder, 'docs', 'screenshots'), { recursive: true });
    writeFileSync(path.join(folder, 'docs', 'screenshots', 'plan.png'), '');
    writeFileSync(
      path.join(folder, 'docs', 'undo.md'),
      ['# Undo: checkpoints, rewind, redo', '', '## Conflicts', '', '## Conflicts', ''].join('\n'),
    );
    const readme = path.join(folder, 'README.md');
    writeFileSync(
      readme,
      [
        '# taskweave',
        '',
        'See [Undo](docs/undo.md), [its conflicts](docs/undo.md#conflicts-1) and [Events](#events).',
        '![a plan](docs/screenshots/plan.png) [the site](https://example.com/none.md)',
        'Moved: [Safety](docs/safety.md), [rewind](docs/undo.md#rewind), [gone](#status), [a link whose',
        'text runs on](docs/events.md).',
        '![a failure](docs/screenshots/failure.png) `[not a link](nowhere.md)`',
        '```',
        '[in a code block](nowhere.md)',
        '```',
        '## Events',
      ].join('\n'),
    );
    const broken = brokenLinks([readme]).map(({ line, target }) => ({ line, target }));
    expect(broken).toEqual([
      { line: 5, target: 'docs/safety.md' },
      { line: 5, target: 'docs/undo.md#rewind' },
      { line: 5, target: '#status' },
      { line: 5, target: 'docs/events.md' },
      { line: 7, target: 'docs/screenshots/failure.png' },
    ]);
  });

  it("gives headings GitHub's ids", () => {
    expect(headingId('Reason → act → observe (`--loop roa`)')).toBe('reason--act--observe---loop-roa');
    expect(headingId('The server (`taskweave serve`)')).toBe('the-server-taskweave-serve');
    expect(headingId('bench:cluster')).toBe('benchcluster');
    expect([...pageAnchors('## Conflicts\n```\n## not a heading\n```\n## Conflicts\n')]).toEqual([
      'conflicts',
      'conflicts-1',
    ]);
  });
});
