import { readFile } from 'node:fs/promises';

/** A file inserted with `@path` is cut to this many characters. */
export const MAX_REFERENCED_FILE_CHARS = 50_000;
const REFERENCE = /(^|\s)@([^\s@]+)/g;

/** Resolves a path the user typed to an absolute path inside the workspace (throws outside it). */
export type ResolvePath = (relative: string) => Promise<string>;

/**
 * A goal with the files it names as `@path` appended (each in a `<file>` block), or the problem
 * with the first reference that cannot be read. Text like `user@host` is not a reference: the
 * `@` must start a word.
 */
export async function expandFileReferences(
  goal: string,
  resolve: ResolvePath,
): Promise<{ goal: string; files: string[] } | { error: string }> {
  const paths = [...new Set([...goal.matchAll(REFERENCE)].map((match) => match[2] as string))];
  if (paths.length === 0) return { goal, files: [] };
  const blocks: string[] = [];
  for (const relative of paths) {
    let content: string;
    try {
      content = await readFile(await resolve(relative), 'utf8');
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'there is no such file'
          : String((error as Error).message);
      return { error: `@${relative}: ${reason} (paths are relative to the workspace).` };
    }
    const shown =
      content.length > MAX_REFERENCED_FILE_CHARS
        ? `${content.slice(0, MAX_REFERENCED_FILE_CHARS)}\n[… cut: the file has ${content.length} characters]`
        : content;
    blocks.push(`<file path="${relative}">\n${shown.replace(/\s+$/, '')}\n</file>`);
  }
  return { goal: `${goal}\n\nThe files the user named:\n${blocks.join('\n')}`, files: paths };
}
