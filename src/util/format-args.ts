const MAX_ARG_CHARS = 70;

/** The main argument of a tool call, shortened, as it reads in `run_command("npm run build")`. */
export function formatArgs(args: unknown): string {
  if (args === null || typeof args !== 'object') return shorten(JSON.stringify(args) ?? '');
  const record = args as Record<string, unknown>;
  if (Array.isArray(record.tasks))
    return `${record.tasks.length} task${record.tasks.length === 1 ? '' : 's'}`;
  const main = ['command', 'path', 'url', 'pattern', 'question', 'description', 'summary', 'answer'].find(
    (key) => typeof record[key] === 'string',
  );
  if (!main) return shorten(JSON.stringify(record));
  const rest = Object.keys(record).filter((key) => key !== main && key !== 'content');
  const extra = Array.isArray(record.edits)
    ? `, ${record.edits.length} edit${record.edits.length === 1 ? '' : 's'}`
    : '';
  const more = rest.filter((key) => key !== 'edits').length > 0 ? ', …' : '';
  return `${JSON.stringify(shorten(String(record[main])))}${extra}${more}`;
}

function shorten(text: string): string {
  const single = text.replace(/\s+/g, ' ');
  return single.length <= MAX_ARG_CHARS ? single : `${single.slice(0, MAX_ARG_CHARS - 1)}…`;
}
