import path from 'node:path';
import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';

/** The kind an editor shows a built-in tool's call as (its icon, how it groups it). */
const KINDS: Record<string, ToolKind> = {
  read_file: 'read',
  write_file: 'edit',
  edit_file: 'edit',
  run_command: 'execute',
  read_background_output: 'read',
  stop_background_command: 'execute',
  search_code: 'search',
  analyze_output: 'think',
  plan_actions: 'think',
  task_completed: 'think',
  request_input: 'other',
  web_fetch: 'fetch',
  fetch: 'fetch',
  delegate: 'think',
};

/** The ACP kind of a tool call by its tool's name (MCP tools and unknown names: `other`). */
export function toolKind(name: string): ToolKind {
  if (name.startsWith('todo')) return 'think';
  return KINDS[name] ?? 'other';
}

function record(args: unknown): Record<string, unknown> {
  return typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A call's one-line title: the command, the file, the search; else the tool's name. */
export function toolTitle(name: string, args: unknown): string {
  const given = record(args);
  const command = text(given.command);
  if (name === 'run_command' && command) return command;
  const file = text(given.path);
  if (file && (name === 'read_file' || name === 'write_file' || name === 'edit_file')) {
    const verb = name === 'read_file' ? 'Read' : name === 'write_file' ? 'Write' : 'Edit';
    return `${verb} ${file}`;
  }
  const query = text(given.query) ?? text(given.pattern);
  if (name === 'search_code' && query) return `Search ${query}`;
  return name;
}

/** Where a call works, as absolute paths an editor can open (files the call names). */
export function toolLocations(name: string, args: unknown, root: string): ToolCallLocation[] {
  const given = record(args);
  const file = text(given.path);
  if (!file || toolKind(name) === 'execute') return [];
  const line = typeof given.start_line === 'number' ? { line: given.start_line } : {};
  return [{ path: path.resolve(root, file), ...line }];
}

/**
 * A file change as the editor's diff: a new file's content (the write said it created it); an
 * edit's replacements, each the text found and the text put in its place. A write over an
 * existing file has none (its old content is not in the event; the result says what changed).
 */
export function toolDiffs(name: string, args: unknown, root: string, display?: string): ToolCallContent[] {
  const given = record(args);
  const file = text(given.path);
  if (!file) return [];
  const absolute = path.resolve(root, file);
  if (name === 'write_file') {
    if (!display?.startsWith('created')) return [];
    return [{ type: 'diff', path: absolute, oldText: null, newText: text(given.content) ?? '' }];
  }
  if (name === 'edit_file' && Array.isArray(given.edits))
    return given.edits.map((edit) => {
      const change = record(edit);
      return {
        type: 'diff',
        path: absolute,
        oldText: text(change.find) ?? '',
        newText: text(change.replace) ?? '',
      };
    });
  return [];
}

/** Plain text as a tool call's content. */
export function textContent(value: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text: value } };
}
