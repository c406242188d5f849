import type { Nodes, Parents, RootContent, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { visibleLength, wrapStyled } from './styled-text.js';
import type { Style } from './terminal.js';

/** The gutter in front of each line of a code block and of a quote. */
const CODE_GUTTER = '│ ';
/** The widest a rule gets. */
const MAX_RULE_WIDTH = 60;

/**
 * Markdown (CommonMark with GitHub's tables, task lists and strikethrough) for a terminal of
 * `width` columns: bold headings, bold and dim emphasis, cyan inline code, code blocks behind a
 * gutter, bullets and numbers, aligned tables; prose wraps between words, list items and quotes
 * under their own indentation. The same parser as the web UI's (remark's), so both read the
 * model's text alike. Nothing is printed that the text did not hold but the markup. `lead`: the
 * columns of the first row a label printed before the text takes.
 */
export function renderMarkdown(text: string, style: Style, width = 80, lead = 0): string {
  const tree = fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  // The last column stays free, as for the plan and the questions: a full row would leave the
  // cursor hanging at its end.
  return blocks(tree, { style, width: width - 1, lead }).join('\n\n');
}

interface Context {
  style: Style;
  /** The columns the block may fill, less the indentation of the list or quote it is in. */
  width: number;
  /** The columns of the block's first row already taken (only the first block of a text has any). */
  lead: number;
}

function blocks(parent: Parents, context: Context): string[] {
  return parent.children
    .map((child, index) => block(child as RootContent, index === 0 ? context : { ...context, lead: 0 }))
    .filter((text) => text !== '');
}

/** A context for the blocks inside an indentation of `indent` columns. */
function indented(context: Context, indent: number): Context {
  return { ...context, width: Math.max(10, context.width - indent), lead: 0 };
}

function block(node: RootContent, context: Context): string {
  const { style } = context;
  switch (node.type) {
    case 'heading': {
      const text = wrapStyled(inline(node, context), context.width, context.lead);
      return node.depth <= 2 ? style.bold(style.cyan(text)) : style.bold(text);
    }
    case 'paragraph':
      return wrapStyled(inline(node, context), context.width, context.lead);
    case 'code': {
      const label = node.lang ? `${style.dim(node.lang)}\n` : '';
      return (
        label +
        node.value
          .split('\n')
          .map((line) => style.dim(CODE_GUTTER) + line)
          .join('\n')
      );
    }
    case 'blockquote':
      return blocks(node, indented(context, CODE_GUTTER.length))
        .join('\n\n')
        .split('\n')
        .map((line) => style.dim(CODE_GUTTER) + line)
        .join('\n');
    case 'list': {
      const start = node.start ?? 1;
      return node.children
        .map((item, index) => {
          const check = item.checked === true ? '[x] ' : item.checked === false ? '[ ] ' : '';
          const marker = node.ordered ? `${start + index}.` : '•';
          const pad = ' '.repeat(marker.length + 1);
          const [first = '', ...rest] = blocks(item, indented(context, pad.length + check.length))
            .join(node.spread ? '\n\n' : '\n')
            .split('\n');
          return [`${marker} ${check}${first}`, ...rest.map((line) => (line === '' ? '' : pad + line))].join(
            '\n',
          );
        })
        .join(node.spread ? '\n\n' : '\n');
    }
    case 'table':
      return table(node, context);
    case 'thematicBreak':
      return style.dim('─'.repeat(Math.min(MAX_RULE_WIDTH, context.width - 1)));
    case 'html':
      return node.value;
    default:
      return 'children' in node ? blocks(node as Parents, context).join('\n\n') : '';
  }
}

function inline(parent: Parents, context: Context): string {
  return parent.children.map((child) => phrasing(child, context)).join('');
}

function phrasing(node: Nodes, context: Context): string {
  const { style } = context;
  switch (node.type) {
    case 'text':
      return node.value;
    case 'strong':
      return style.bold(inline(node, context));
    case 'emphasis':
      // No italic in every terminal: emphasis is shown like the text around it, markers dropped.
      return inline(node, context);
    case 'delete':
      return style.dim(inline(node, context));
    case 'inlineCode':
      return style.cyan(node.value);
    case 'break':
      return '\n';
    case 'link': {
      const text = inline(node, context);
      return text === node.url ? style.cyan(text) : `${text} ${style.dim(`(${node.url})`)}`;
    }
    case 'image':
      return `${node.alt ?? ''} ${style.dim(`(${node.url})`)}`;
    case 'html':
      return node.value;
    default:
      return 'children' in node ? inline(node as Parents, context) : '';
  }
}

/** A table with its columns padded to their widest cell, the header bold, a rule under it. */
function table(node: Table, context: Context): string {
  const { style } = context;
  const rows = node.children.map((row) => row.children.map((cell) => inline(cell, context)));
  const columns = Math.max(...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, column) =>
    Math.max(...rows.map((row) => visibleLength(row[column] ?? ''))),
  );
  const line = (row: string[], header: boolean) =>
    widths
      .map((width, column) => {
        const cell = row[column] ?? '';
        const padding = ' '.repeat(width - visibleLength(cell));
        const last = column === widths.length - 1;
        const aligned = node.align?.[column] === 'right' ? padding + cell : last ? cell : cell + padding;
        return header ? style.bold(aligned) : aligned;
      })
      .join('  ')
      .trimEnd();
  const [header = [], ...body] = rows;
  const rule = style.dim(widths.map((width) => '─'.repeat(width)).join('  '));
  return [line(header, true), rule, ...body.map((row) => line(row, false))].join('\n');
}
