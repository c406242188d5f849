import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

/** The names an image file's reference is recognised by (its bytes decide whether it is taken). */
const IMAGE_NAME = /\.(png|jpe?g|gif|webp)$/i;
/** `@path` starting a word. */
const AT_REFERENCE = /(^|\s)@([^\s@]+)/g;
/**
 * A path pasted on its own (a file dragged onto the terminal): absolute, `~/` or `./`, bare or
 * in quotes as terminals paste paths with spaces, with `\ ` escapes.
 */
const PASTED_PATH = /(?:^|\s)(?:'([^']+)'|"([^"]+)"|((?:~\/|\.{1,2}\/|\/)(?:\\ |\S)+))/g;

/** Resolves a path the user typed to an absolute path inside the workspace (throws outside it). */
export type ResolvePath = (relative: string) => Promise<string>;

/** The image files a message names: `@shot.png` (in the workspace) and pasted paths to image files. */
export interface ImageReferences {
  /** Absolute paths, each once, in the order named. */
  files: string[];
  /** The `@path` references that were images (left out of the text files a goal is given). */
  atPaths: string[];
}

/**
 * Finds the images a typed message names: `@path` references whose name is an image's, and pasted
 * paths of existing image files. A pasted path that is no file is left as text.
 */
export async function findImageReferences(typed: string, resolve: ResolvePath): Promise<ImageReferences> {
  const files: string[] = [];
  const atPaths: string[] = [];
  for (const match of typed.matchAll(AT_REFERENCE)) {
    const relative = match[2] as string;
    if (!IMAGE_NAME.test(relative)) continue;
    atPaths.push(relative);
    const absolute = await resolve(relative);
    if (!files.includes(absolute)) files.push(absolute);
  }
  for (const match of typed.matchAll(PASTED_PATH)) {
    const raw = (match[1] ?? match[2] ?? match[3] ?? '').replace(/\\ /g, ' ');
    if (!IMAGE_NAME.test(raw)) continue;
    const absolute = raw.startsWith('~/') ? path.join(homedir(), raw.slice(2)) : path.resolve(raw);
    if (files.includes(absolute) || !(await isFile(absolute))) continue;
    files.push(absolute);
  }
  return { files, atPaths };
}

/** The message without its `@path` image references' `@` (the text still names the file). */
export function withoutImageAts(typed: string, atPaths: readonly string[]): string {
  return typed.replace(AT_REFERENCE, (whole, lead: string, relative: string) =>
    atPaths.includes(relative) ? `${lead}${relative}` : whole,
  );
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
