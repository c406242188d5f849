import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { inertMarkdown } from '../../src/export/inert-markdown.js';

function parse(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

/** Every link address a markdown viewer would make clickable in this text (inline or by reference). */
function linkTargets(text: string): string[] {
  const tree = parse(text);
  const definitions = new Map<string, string>();
  const references: string[] = [];
  const urls: string[] = [];
  const visit = (node: Nodes) => {
    if (node.type === 'link') urls.push(node.url);
    if (node.type === 'definition') definitions.set(node.identifier, node.url);
    if (node.type === 'linkReference') references.push(node.identifier);
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(tree);
  for (const identifier of references) {
    const url = definitions.get(identifier);
    if (url !== undefined) urls.push(url);
  }
  return urls;
}

describe('markdown export: only http(s) and mailto links stay links', () => {
  it('turns javascript:, data:, file: and relative links into text with their address', () => {
    const model = [
      'Click [j](javascript:alert(3)) or [*d*](data:text/html,<b>x</b>) or <javascript:alert(4)>.',
      'Also [f](file:///etc/passwd), [up](../secret.html) and [entity](java&#115;cript:alert(5)).',
      'By reference: [r][bad] and [ok][good].',
      '',
      '[bad]: javascript:alert(6)',
      '[good]: https://example.com/ref',
      '',
      'Kept: [docs](https://example.com/a), <https://example.com/b>, [mail](mailto:a@example.com).',
    ].join('\n');
    const inert = inertMarkdown(model);
    expect(linkTargets(inert).sort()).toEqual([
      'https://example.com/a',
      'https://example.com/b',
      'https://example.com/ref',
      'mailto:a@example.com',
    ]);
    // The words and the address stay readable as text.
    expect(inert).toContain('j (javascript:alert(3))');
    expect(inert).toContain('\\*d\\* (data:text/html,\\<b\\>x\\</b\\>)');
    expect(inert).toContain('javascript:alert(4) (javascript:alert(4))');
    expect(inert).toContain('f (file:///etc/passwd)');
    expect(inert).toContain('\\[bad\\]: javascript:alert(6)');
  });

  it('leaves text without unsafe links exactly as written', () => {
    const model = 'See [docs](https://example.com) and **bold** `code`.\n\n- a\n- b';
    expect(inertMarkdown(model)).toBe(model);
  });
});
