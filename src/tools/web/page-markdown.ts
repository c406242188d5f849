import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

/** A web page as markdown: its article when one can be found, else its body. */
export interface PageMarkdown {
  title: string | undefined;
  markdown: string;
}

/**
 * Turns an HTML page into markdown: Readability (Firefox's reader view) picks the article out of
 * the navigation, ads and footers, and Turndown writes it as markdown; a page Readability finds
 * no article in is converted whole, scripts and styles left out.
 */
export function pageMarkdown(html: string, url: string): PageMarkdown {
  const source = withBase(html, url);
  const { document } = parseHTML(source);
  const pageTitle = document.title?.trim() || undefined;
  const turndown = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
  });
  turndown.remove(['script', 'style', 'noscript', 'iframe', 'form']);
  // Readability takes the document apart as it reads it: the whole page is parsed again when it finds no article.
  const article = new Readability(document).parse();
  if (article?.content) {
    return { title: article.title?.trim() || pageTitle, markdown: tidy(turndown.turndown(article.content)) };
  }
  const body = parseHTML(source).document.body?.innerHTML ?? html;
  return { title: pageTitle, markdown: tidy(turndown.turndown(body)) };
}

/** Relative links resolved against the page's URL (Readability reads the base element). */
function withBase(html: string, url: string): string {
  if (/<base\s/i.test(html)) return html;
  const base = `<base href="${url.replaceAll('"', '%22')}">`;
  return /<head[^>]*>/i.test(html)
    ? html.replace(/<head[^>]*>/i, (head) => `${head}${base}`)
    : `${base}${html}`;
}

function tidy(markdown: string): string {
  return markdown.replace(/\n{3,}/g, '\n\n').trim();
}
