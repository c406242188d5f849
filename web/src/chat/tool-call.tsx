import { useState } from 'react';
import { parseCommandResult } from '../../../src/events/command-result.js';
import {
  DIAGNOSTICS_PREVIEW,
  type DiagnosticView,
  diagnosticsHeading,
  diagnosticText,
  withoutDiagnosticsSection,
} from '../../../src/events/diagnostic-text.js';
import type { ToolCallView } from '../../../src/events/session-view.js';
import { CollapsedText, diffLineClass } from './collapsed-text.js';
import { CommandOutput } from './command-output.js';
import { SIGNAL_TOOLS } from './shown-items.js';
import { SubagentCard } from './subagent-card.js';

/** One tool call: its name and main argument, its arguments, progress, and result or error. */
export function ToolCall({ call }: { call: ToolCallView }) {
  if (call.subagent) return <SubagentCard subagent={call.subagent} />;
  const icon = call.status === 'running' ? '…' : call.status === 'ok' ? '✓' : '✗';
  return (
    <details className={`tool tool-${call.status}`} open={call.status !== 'ok' || isEdit(call)}>
      <summary>
        <span className="tool-icon" aria-hidden="true">
          {icon}
        </span>
        <code className="tool-name">{call.name}</code>{' '}
        {!SIGNAL_TOOLS.has(call.name) && (
          // A long URL gives way to what was fetched (type and size), which then stays in view on a phone.
          <span className={call.name === 'web_fetch' ? 'tool-arg tool-arg-url' : 'tool-arg'}>
            {mainArgument(call.args)}
          </span>
        )}
        {call.display && <span className="tool-display"> · {call.display}</span>}
        {call.status === 'running' && <span className="tool-display"> · running</span>}
      </summary>
      <ToolArguments call={call} />
      {call.status === 'running' && call.progress.length > 0 && (
        <CollapsedText label={`${call.name} output so far`} text={call.progress.join('\n')} keep="end" />
      )}
      {call.output !== undefined && (
        <ToolOutput
          call={call}
          output={call.diagnostics ? withoutDiagnosticsSection(call.output) : call.output}
        />
      )}
      {call.diagnostics && call.diagnostics.length > 0 && <Diagnostics diagnostics={call.diagnostics} />}
    </details>
  );
}

/** The problems a file change introduced, under its diff: the count and the first few, the rest on demand. */
function Diagnostics({ diagnostics }: { diagnostics: DiagnosticView[] }) {
  const [all, setAll] = useState(false);
  const shown = all ? diagnostics : diagnostics.slice(0, DIAGNOSTICS_PREVIEW);
  return (
    <div className="tool-diagnostics" role="status">
      <div className="tool-diagnostics-heading">⚠ {diagnosticsHeading(diagnostics)}</div>
      <ul>
        {shown.map((diagnostic) => (
          <li key={diagnosticText(diagnostic)} className={`diagnostic-${diagnostic.severity}`}>
            {diagnosticText(diagnostic)}
          </li>
        ))}
      </ul>
      {diagnostics.length > shown.length && (
        <button type="button" className="link-button" onClick={() => setAll(true)}>
          {diagnostics.length - shown.length} more
        </button>
      )}
    </div>
  );
}

function ToolOutput({ call, output }: { call: ToolCallView; output: string }) {
  // A fetched page is data for the model: people see its URL and size (the summary), not the page.
  if (call.name === 'web_fetch' && call.status === 'ok') return null;
  const command = call.name === 'run_command' ? parseCommandResult(output) : undefined;
  if (command) return <CommandOutput result={command} />;
  return (
    <CollapsedText
      label={call.status === 'error' ? `${call.name} error` : `${call.name} result`}
      text={output}
      lineClass={isEdit(call) ? diffLineClass : undefined}
    />
  );
}

function isEdit(call: ToolCallView): boolean {
  return call.name === 'edit_file' && call.status === 'ok';
}

function ToolArguments({ call }: { call: ToolCallView }) {
  const args = asRecord(call.args);
  if (call.name === 'run_command' && typeof args.command === 'string') {
    return <CollapsedText label="command" text={`$ ${args.command}`} />;
  }
  if (call.name === 'write_file' && typeof args.content === 'string') {
    return <CollapsedText label={`content of ${String(args.path)}`} text={args.content} />;
  }
  if (call.name === 'edit_file') return null; // its result shows the change as a diff
  if (call.name === 'plan_actions') return null; // the plan is drawn as a graph
  const keys = Object.keys(args);
  if (keys.length === 0 || (keys.length === 1 && mainArgument(call.args) !== '')) return null;
  return <CollapsedText label="arguments" text={JSON.stringify(call.args, null, 2)} />;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

const MAIN_ARGUMENTS = [
  'command',
  'path',
  'url',
  'pattern',
  'question',
  'summary',
  'answer',
  'reason',
  'description',
];
const LONGEST_ARGUMENT = 80;

/** The argument that says most about a call (the command, the path…), shortened. */
export function mainArgument(value: unknown): string {
  const args = asRecord(value);
  const key = MAIN_ARGUMENTS.find((name) => typeof args[name] === 'string');
  if (key === undefined) return '';
  const text = String(args[key]).split('\n')[0]!;
  return text.length > LONGEST_ARGUMENT ? `${text.slice(0, LONGEST_ARGUMENT - 1)}…` : text;
}
