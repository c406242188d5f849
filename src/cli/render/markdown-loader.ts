/**
 * The markdown renderer (micromark, its GFM extensions and the HTML entity table: about 200 KB of
 * code) is loaded only where the model's text is drawn as markdown, on a terminal: piped and
 * `--json` output never load it, and a terminal loads it while the runtime opens.
 */
type MarkdownModule = typeof import('./markdown-stream.js');

let loaded: MarkdownModule | undefined;

/** Loads the markdown renderer (once). */
export async function loadMarkdown(): Promise<void> {
  loaded ??= await import('./markdown-stream.js');
}

/** The markdown renderer, once loadMarkdown has resolved; undefined before. */
export function markdownRenderer(): MarkdownModule | undefined {
  return loaded;
}
