/**
 * The relative links of markdown pages, checked against the files they name and the headings
 * their anchors name (GitHub's heading ids), so that a page moved or a heading renamed leaves no
 * reader on a dead link.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** One link that leads nowhere: the page it is on, its line, the target as written, and why. */
export interface BrokenLink {
  page: string;
  line: number;
  target: string;
  reason: string;
}

/** A link as written on a page: its target and the line it is on. */
interface PageLink {
  target: string;
  line: number;
}

// A link or an image: `[text](target)` or `![alt](target "title")`; the target stops at a space.
const LINK = /!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
const FENCE = /^\s*(```|~~~)/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;

/**
 * The links of a page outside code blocks and inline code, where markdown makes no link. A link's
 * text may run over a line break, so the page is searched whole, with code blanked out.
 */
function pageLinks(text: string): PageLink[] {
  let inFence = false;
  const prose = text
    .split('\n')
    .map((line) => {
      if (FENCE.test(line)) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line.replace(/`[^`]*`/g, '');
    })
    .join('\n');
  return [...prose.matchAll(LINK)].map((match) => ({
    target: match[1]!,
    line: prose.slice(0, match.index).split('\n').length,
  }));
}

/**
 * The id GitHub gives a heading: its text in lower case, links and code marks reduced to their
 * text, every character but letters, digits, `_`, spaces and `-` dropped, spaces made `-`.
 */
export function headingId(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a page's headings give, a repeated heading numbered as GitHub numbers it (`-1`, `-2`). */
export function pageAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of text.split('\n')) {
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    const match = inFence ? null : HEADING.exec(line);
    if (match === null) continue;
    const id = headingId(match[2]!);
    const count = seen.get(id) ?? 0;
    seen.set(id, count + 1);
    anchors.add(count === 0 ? id : `${id}-${count}`);
  }
  return anchors;
}

function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/** Every relative link of the given pages that names no file, or a heading its page lacks. */
export function brokenLinks(pages: readonly string[]): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    let found = anchorsOf.get(file);
    if (found === undefined) {
      found = pageAnchors(readFileSync(file, 'utf8'));
      anchorsOf.set(file, found);
    }
    return found;
  };
  for (const page of pages) {
    for (const { target, line } of pageLinks(readFileSync(page, 'utf8'))) {
      if (isExternal(target)) continue;
      const hash = target.indexOf('#');
      const filePart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
      const anchor = hash === -1 ? undefined : target.slice(hash + 1);
      const file = filePart === '' ? page : path.resolve(path.dirname(page), filePart);
      if (!existsSync(file)) {
        broken.push({ page, line, target, reason: `${path.basename(file)} does not exist` });
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (statSync(file).isDirectory() || !file.endsWith('.md')) {
        broken.push({ page, line, target, reason: 'an anchor into something that is not a markdown page' });
        continue;
      }
      if (!anchors(file).has(anchor)) {
        broken.push({
          page,
          line,
          target,
          reason: `no heading of ${path.basename(file)} has the id "${anchor}"`,
        });
      }
    }
  }
  return broken;
}
