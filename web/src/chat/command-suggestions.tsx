import { useEffect, useState } from 'react';
import type { ApiCommands } from '../../../src/events/api.js';
import { api } from '../connection/api.js';

/** What is typed while the list is open: a `/name` alone (no arguments yet). */
const LISTING = /^\/([a-z0-9_-]*)$/i;

/** Whether the `/` list is open for what is typed. */
export function listsCommands(typed: string): boolean {
  return LISTING.test(typed);
}

/**
 * The custom commands of the server's workspace and user, read again each time the list opens:
 * a command file added meanwhile is offered without a reload (what was read before shows while
 * the new answer comes).
 */
export function useCustomCommands(open: boolean): ApiCommands {
  const [loaded, setLoaded] = useState<ApiCommands>({ commands: [], problems: [] });
  useEffect(() => {
    if (!open) return;
    let live = true;
    api.commands().then(
      (answer) => live && setLoaded(answer),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [open]);
  return loaded;
}

/**
 * The custom commands matching what is typed while it is a `/name` alone (no arguments yet):
 * each with its description; a click puts `/name ` in the field. Files that could not be used
 * are listed under them.
 */
export function CommandSuggestions({
  typed,
  loaded,
  onPick,
}: {
  typed: string;
  loaded: ApiCommands;
  onPick: (text: string) => void;
}) {
  const match = LISTING.exec(typed);
  if (!match) return null;
  const prefix = (match[1] ?? '').toLowerCase();
  const shown = loaded.commands.filter((command) => command.name.startsWith(prefix));
  if (shown.length === 0 && loaded.problems.length === 0) return null;
  return (
    <div className="command-suggestions" role="listbox" aria-label="Custom commands">
      {shown.map((command) => (
        <button
          type="button"
          role="option"
          aria-selected={false}
          key={command.name}
          className="command-suggestion"
          onClick={() => onPick(`/${command.name} `)}
        >
          <code>/{command.name}</code>
          <span className="command-description">{command.description ?? `${command.source} command`}</span>
        </button>
      ))}
      {loaded.problems.map((problem) => (
        <div className="command-problem" key={problem}>
          {problem}
        </div>
      ))}
    </div>
  );
}
