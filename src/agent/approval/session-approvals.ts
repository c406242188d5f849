import type { ChangeKind } from '../../tools/approval.js';
import { alwaysPrefix, parseSimpleCommand, startsWithWords } from './command-line.js';

/** A call as an "always" answer remembers it. */
export interface RememberedCall {
  toolName: string;
  changes: ChangeKind;
  command?: string;
}

/**
 * The "always" answers of one session: file changes (all of them), a command prefix
 * (`npm test` allows `npm test -- --watch`; a compound line only itself), an MCP tool by name.
 * Kept in memory by the runtime for as long as it runs.
 */
export class SessionApprovals {
  private files = false;
  private readonly prefixes: string[][] = [];
  private readonly exactLines = new Set<string>();
  private readonly tools = new Set<string>();

  /** Remembers an "always" answer for calls like this one; returns what was remembered, for display. */
  remember(call: RememberedCall): string {
    switch (call.changes) {
      case 'files':
        this.files = true;
        return 'file changes';
      case 'command': {
        const command = call.command ?? '';
        const prefix = alwaysPrefix(command);
        if (prefix) {
          this.prefixes.push(prefix);
          return `commands starting with \`${prefix.join(' ')}\``;
        }
        this.exactLines.add(command);
        return `\`${command}\``;
      }
      default:
        this.tools.add(call.toolName);
        return call.toolName;
    }
  }

  /** Whether an earlier "always" covers this call. */
  allows(call: RememberedCall): boolean {
    switch (call.changes) {
      case 'none':
        return true;
      case 'files':
        return this.files;
      case 'command': {
        const command = call.command ?? '';
        if (this.exactLines.has(command)) return true;
        const parsed = parseSimpleCommand(command);
        return parsed.simple && this.prefixes.some((prefix) => startsWithWords(parsed.words, prefix));
      }
      case 'external':
        return this.tools.has(call.toolName);
    }
  }
}
