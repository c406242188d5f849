import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { isSafeLink } from './safe-link.js';

/**
 * The model's markdown for the markdown export, with what a viewer would load or run made plain
 * text: raw HTML (`<img onerror=…>`, `<script>`) is escaped, an image becomes `[image: alt] (url)`,
 * a link to anything but http(s) or mailto (`javascript:`, `data:`) becomes `text (url)` and its
 * reference definition plain text. Everything else (emphasis, lists, code, safe links) stays as
 * the model wrote it. Found with the same parser as the HTML export's, by the source positions of
 * those nodes.
 */
export function inertMarkdown(text: string): string {
  const tree = fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const replacements: { start: number; end: number; text: string }[] = [];
  const visit = (node: Nodes) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start !== undefined && end !== undefined) {
      if (node.type === 'html') {
        replacements.push({ start, end, text: escapeMarkdown(node.value) });
        return;
      }
      if (node.type === 'image') {
        replacements.push({ start, end, text: escapeMarkdown(`[image: ${node.alt ?? ''}] (${node.url})`) });
        return;
      }
      if (node.type === 'link' && !isSafeLink(node.url)) {
        const first = node.children[0]?.position?.start.offset;
        const last = node.children.at(-1)?.position?.end.offset;
        const label = first !== undefined && last !== undefined ? text.slice(first, last) : '';
        replacements.push({ start, end, text: escapeMarkdown(`${label} (${node.url})`) });
        return;
      }
      if (node.type === 'definition' && !isSafeLink(node.url)) {
        replacements.push({ start, end, text: escapeMarkdown(text.slice(start, end)) });
        return;
      }
      if (node.type === 'imageReference') {
        replacements.push({ start, end, text: escapeMarkdown(`[image: ${node.alt ?? ''}]`) });
        return;
      }
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(tree);
  let result = text;
  for (const replacement of replacements.sort((a, b) => b.start - a.start))
    result = result.slice(0, replacement.start) + replacement.text + result.slice(replacement.end);
  return result;
}

/** Markdown's special characters escaped, line breaks kept. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>#|!~&]/g, (char) => `\\${char}`);
}
