import type { CommandResult } from '../../../src/events/command-result.js';
import { CollapsedText } from './collapsed-text.js';

/**
 * A command's output as the terminal shows it: each stream's last lines (a build's error is at
 * its end), stderr marked, and the first lines behind a button. The exit code and duration are in
 * the call's summary line, never printed here as text.
 */
export function CommandOutput({ result }: { result: CommandResult }) {
  if (result.stdout.length === 0 && result.stderr.length === 0)
    return <p className="muted small command-empty">No output.</p>;
  return (
    <>
      {result.stdout.length > 0 && (
        <CollapsedText label="stdout" lines={result.stdout} keep="end" className="stream-stdout" />
      )}
      {result.stderr.length > 0 && (
        <CollapsedText
          label="stderr"
          lines={result.stderr}
          keep="end"
          className="stream-stderr"
          caption="stderr"
        />
      )}
    </>
  );
}
