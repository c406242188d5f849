import type { Nodes, Parents } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { escapeAttribute, escapeHtml } from './html-text.js';
import { isSafeLink } from './safe-link.js';

/**
 * Markdown (CommonMark with GitHub's tables, task lists and strikethrough, parsed by micromark
 * like the terminal's and the web UI's) as HTML for an export, built element by element from the
 * syntax tree with every text escaped. What could run or fetch is never emitted: raw HTML shows
 * as text, an image as its alt text and address (an offline page loads nothing), a link only for
 * http(s) and mailto. Headings are lowered under the export's own (`#` becomes h4).
 */
export function markdownToHtml(text: string): string {
  const tree = fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  return children(tree);
}

function children(parent: Parents): string {
  return parent.children.map((child) => node(child)).join('');
}

function node(current: Nodes): string {
  switch (current.type) {
    case 'root':
      return children(current);
    case 'paragraph':
      return `<p>${children(current)}</p>`;
    case 'heading': {
      const level = Math.min(6, current.depth + 3);
      return `<h${level}>${children(current)}</h${level}>`;
    }
    case 'thematicBreak':
      return '<hr>';
    case 'blockquote':
      return `<blockquote>${children(current)}</blockquote>`;
    case 'list': {
      const tag = current.ordered ? 'ol' : 'ul';
      const start =
        current.ordered && current.start !== null && current.start !== undefined && current.start !== 1;
      return `<${tag}${start ? ` start="${Number(current.start)}"` : ''}>${children(current)}</${tag}>`;
    }
    case 'listItem': {
      const box = current.checked === true ? '☑ ' : current.checked === false ? '☐ ' : '';
      // A tight list's paragraphs read as plain lines.
      const inner = current.spread
        ? children(current)
        : current.children
            .map((child) => (child.type === 'paragraph' ? children(child) : node(child)))
            .join('');
      return `<li>${box}${inner}</li>`;
    }
    case 'code':
      return `<pre class="code"${current.lang ? ` data-lang="${escapeAttribute(current.lang)}"` : ''}><code>${escapeHtml(current.value)}</code></pre>`;
    case 'html':
      return `<code class="raw-html">${escapeHtml(current.value)}</code>`;
    case 'text':
      return escapeHtml(current.value);
    case 'emphasis':
      return `<em>${children(current)}</em>`;
    case 'strong':
      return `<strong>${children(current)}</strong>`;
    case 'delete':
      return `<del>${children(current)}</del>`;
    case 'inlineCode':
      return `<code>${escapeHtml(current.value)}</code>`;
    case 'break':
      return '<br>';
    case 'link':
      return isSafeLink(current.url)
        ? `<a href="${escapeAttribute(current.url)}" rel="noopener noreferrer">${children(current)}</a>`
        : `${children(current)} (${escapeHtml(current.url)})`;
    case 'image':
      return `<span class="image">[image: ${escapeHtml(current.alt ?? '')}] (${escapeHtml(current.url)})</span>`;
    case 'imageReference':
      return `<span class="image">[image: ${escapeHtml(current.alt ?? '')}]</span>`;
    case 'linkReference':
      return children(current);
    case 'definition':
      return '';
    case 'footnoteReference':
      return `<sup>[${escapeHtml(current.identifier)}]</sup>`;
    case 'footnoteDefinition':
      return `<div class="footnote">[${escapeHtml(current.identifier)}] ${children(current)}</div>`;
    case 'table': {
      const [head, ...body] = current.children;
      const row = (cells: Parents, tag: 'th' | 'td') =>
        `<tr>${cells.children.map((cell) => `<${tag}>${'children' in cell ? children(cell) : ''}</${tag}>`).join('')}</tr>`;
      return `<table>${head ? `<thead>${row(head, 'th')}</thead>` : ''}<tbody>${body.map((tableRow) => row(tableRow, 'td')).join('')}</tbody></table>`;
    }
    case 'tableRow':
    case 'tableCell':
      return children(current);
    default:
      // A node this export does not know (front matter, a later extension's) shows as its text, escaped.
      return 'value' in current && typeof current.value === 'string' ? escapeHtml(current.value) : '';
  }
}
