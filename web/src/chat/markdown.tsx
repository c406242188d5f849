import type { ComponentProps } from 'react';
import ReactMarkdown, { defaultUrlTransform } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';

/**
 * Model output as markdown. Raw HTML is never parsed (it shows as text), the tree is sanitised,
 * and a link or image whose URL is not http(s), mailto or relative loses its URL: nothing the
 * model writes can run script in the page. An image is shown as a link to it, never loaded: a
 * picture the model names could carry a secret in its URL to any server without a click (the
 * server's Content-Security-Policy refuses such loads too). Code blocks are highlighted after
 * sanitising.
 */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeSanitize, [rehypeHighlight, { detect: true }]]}
        urlTransform={defaultUrlTransform}
        components={{ a: Link, img: ImageLink }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}

function Link({ node: _node, ...props }: ComponentProps<'a'> & { node?: unknown }) {
  return <a {...props} target="_blank" rel="noopener noreferrer" />;
}

/** An image as a link that names it (its alt text, else its URL); the URL shows on hover. */
function ImageLink({ node: _node, src, alt }: ComponentProps<'img'> & { node?: unknown }) {
  const url = typeof src === 'string' ? src : '';
  const label = `Image: ${alt?.trim() || url || 'no address'}`;
  if (url === '') return <span className="image-link">{label}</span>;
  return (
    <a className="image-link" href={url} title={url} target="_blank" rel="noopener noreferrer">
      {label}
    </a>
  );
}
