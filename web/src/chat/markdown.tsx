import type { ComponentProps } from 'react';
import ReactMarkdown, { defaultUrlTransform } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';

/**
 * Model output as markdown. Raw HTML is never parsed (it shows as text), the tree is sanitised,
 * and a link or image whose URL is not http(s), mailto or relative loses its URL: nothing the
 * model writes can run script in the page. Code blocks are highlighted after sanitising.
 */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeSanitize, [rehypeHighlight, { detect: true }]]}
        urlTransform={defaultUrlTransform}
        components={{ a: Link }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}

function Link({ node: _node, ...props }: ComponentProps<'a'> & { node?: unknown }) {
  return <a {...props} target="_blank" rel="noopener noreferrer" />;
}
