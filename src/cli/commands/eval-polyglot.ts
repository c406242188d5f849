import path from 'node:path';
import type { SkippedExercise } from '../../eval/polyglot/index.js';
import {
  benchmarkLanguages,
  discoverExercises,
  polyglotLanguage,
  toolchainStatus,
} from '../../eval/polyglot/index.js';
import { writeTerminal } from '../../util/terminal-write.js';
import { EXIT } from '../exit-codes.js';
import type { EvalCliOptions } from '../options.js';
import { renderTable } from '../render/table.js';
import { UsageError } from '../usage-error.js';

/**
 * Checks that the polyglot options go with `--suite polyglot` (and that it has `--path`), and
 * that the scenario option does not; returns the benchmark's folder for the polyglot suite.
 */
export function polyglotPath(options: EvalCliOptions): string | undefined {
  if (options.suite === 'web-bench') return undefined;
  const polyglotOnly: [string, boolean][] = [
    ['--path', options.path !== undefined],
    ['--language', options.language.length > 0],
    ['--exercise', options.exercise.length > 0],
    ['--limit', options.limit !== undefined],
  ];
  if (options.suite !== 'polyglot') {
    const given = polyglotOnly.filter(([, set]) => set).map(([name]) => name);
    if (given.length > 0) throw new UsageError(`${given.join(', ')} go with --suite polyglot or web-bench.`);
    return undefined;
  }
  if (options.scenario.length > 0)
    throw new UsageError(
      '--scenario picks taskweave scenarios; with --suite polyglot use --language and --exercise.',
    );
  if (options.path === undefined)
    throw new UsageError(
      '--suite polyglot needs --path <checkout of the polyglot benchmark> (git clone https://github.com/Aider-AI/polyglot-benchmark).',
    );
  return path.resolve(options.cwd, options.path);
}

/** `--suite polyglot --list`: the benchmark's languages, how many exercises each, and whether they can run here. */
export async function listPolyglot(root: string, options: EvalCliOptions): Promise<number> {
  const languages = options.language.length > 0 ? options.language : await benchmarkLanguages(root);
  const rows: string[][] = [];
  let runnable = 0;
  let total = 0;
  for (const name of languages) {
    const count = (await discoverExercises(root, { languages: [name], exercises: options.exercise })).length;
    const language = polyglotLanguage(name);
    const status = language ? toolchainStatus(language, process.env) : undefined;
    const verdict =
      status === undefined
        ? 'skipped: taskweave has no test command for this language'
        : status.available
          ? `runs here (${status.test ?? language!.test})`
          : `skipped: ${status.reason}`;
    if (status?.available) runnable += count;
    total += count;
    rows.push([name, String(count), verdict]);
  }
  writeTerminal(
    process.stdout,
    renderTable({
      columns: [{ header: 'language' }, { header: 'exercises', align: 'right' }, { header: 'here' }],
      rows,
    }),
  );
  writeTerminal(process.stdout, `${runnable} of ${total} exercises can run on this machine.\n`);
  return EXIT.completed;
}

/** The line that says which exercises will not run, and why (grouped by reason). */
export function skippedText(skipped: SkippedExercise[], unit = 'exercise'): string {
  if (skipped.length === 0) return '';
  const byReason = new Map<string, number>();
  for (const entry of skipped) byReason.set(entry.reason, (byReason.get(entry.reason) ?? 0) + 1);
  const parts = [...byReason].map(([reason, count]) => `${reason} (${count})`);
  return `skipped ${skipped.length} ${unit}${skipped.length === 1 ? '' : 's'}, not counted as failed — ${parts.join(', ')}\n`;
}
