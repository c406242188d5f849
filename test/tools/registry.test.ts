import { describe, expect, it } from 'vitest';
import { BackgroundCommands } from '../../src/tools/background/background-commands.js';
import { runCommandTool } from '../../src/tools/builtin/run-command.js';
import { coreTools, ToolRegistry } from '../../src/tools/registry.js';

describe('ToolRegistry', () => {
  it('holds the eleven core tools with their read-only flags', () => {
    const registry = new ToolRegistry(coreTools);
    expect(registry.names()).toEqual([
      'run_command',
      'read_file',
      'write_file',
      'edit_file',
      'search_code',
      'analyze_output',
      'request_input',
      'read_background_output',
      'stop_background_command',
      'code_navigation',
      'web_fetch',
    ]);
    const readOnly = registry
      .list()
      .filter((tool) => tool.readOnly)
      .map((tool) => tool.name);
    expect(readOnly).toEqual([
      'read_file',
      'search_code',
      'analyze_output',
      'request_input',
      'read_background_output',
      'code_navigation',
      'web_fetch',
    ]);
    expect(registry.get('edit_file')?.name).toBe('edit_file');
    expect(registry.get('nope')).toBeUndefined();
  });

  it('gives every core tool a description with when to use and when not to use', () => {
    for (const tool of coreTools) {
      expect(tool.description).toMatch(/\S.{40,}\n\nWhen to use: .{40,}\nWhen not to use: .{40,}/s);
    }
  });

  it('offers the background tools only once the session has started a background command', async () => {
    const registry = new ToolRegistry(coreTools);
    const offeredNames = (state: Parameters<ToolRegistry['offered']>[0]) =>
      registry.offered(state).map((tool) => tool.name);
    // code_navigation waits for a running language server (test/tools/lsp).
    const always = registry
      .names()
      .filter((name) => !name.includes('background') && name !== 'code_navigation');
    const withBackground = registry.names().filter((name) => name !== 'code_navigation');
    expect(offeredNames({})).toEqual(always);
    const background = new BackgroundCommands({ max: 1, emit: () => {} });
    expect(offeredNames({ background })).toEqual(always);
    const started = background.start({
      command: 'true',
      cwd: '.',
      env: process.env,
      runId: 'r',
      callId: 'c',
    });
    if ('refused' in started) throw new Error(started.refused);
    expect(offeredNames({ background })).toEqual(withBackground);
    await started.finished;
    // Ended, it can still be read: the tools stay offered, and every tool stays callable by name.
    expect(offeredNames({ background })).toEqual(withBackground);
    expect(registry.get('read_background_output')?.name).toBe('read_background_output');
    await background.close();
  });

  it('refuses two tools with one name', () => {
    expect(() => new ToolRegistry([runCommandTool, runCommandTool])).toThrow(
      /Two tools are named run_command/,
    );
  });
});
