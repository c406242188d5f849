/**
 * `taskweave --help` and `taskweave --version` answered without loading the CLI: the version is
 * a constant and the help is the layout the build took from the program (help-layout.json next
 * to the bundle, written by scripts/bundle.mjs), laid out for this terminal as commander would.
 * Anything else, or a layout that cannot be read, goes to the whole CLI (main.ts).
 */
import { readFileSync } from 'node:fs';
import { VERSION } from '../util/version.js';
import { formatHelp, type HelpLayout } from './help-layout.js';
import { guardClosedOutput } from './render/output-closed.js';

/**
 * Answers argv (as process.argv) when it asks for the version or the top-level help only, and
 * tells whether it did; `layoutUrl` is where the help's layout was written.
 */
export function quickAnswer(argv: readonly string[], layoutUrl: URL): boolean {
  const args = argv.slice(2);
  if (args.length !== 1) return false;
  const [arg] = args;
  if (arg === '--version' || arg === '-V') {
    guardClosedOutput();
    process.stdout.write(`${VERSION}\n`);
    return true;
  }
  if (arg !== '--help' && arg !== '-h') return false;
  const layout = readLayout(layoutUrl);
  if (layout === undefined) return false;
  guardClosedOutput();
  const stdout = process.stdout;
  process.stdout.write(formatHelp(layout, stdout.isTTY ? stdout.columns : undefined));
  return true;
}

function readLayout(url: URL): HelpLayout | undefined {
  try {
    const layout = JSON.parse(readFileSync(url, 'utf8')) as HelpLayout;
    return typeof layout.usage === 'string' && Array.isArray(layout.sections) ? layout : undefined;
  } catch {
    return undefined;
  }
}
