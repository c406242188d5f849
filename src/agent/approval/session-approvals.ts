import type { ChangeKind } from '../../tools/approval.js';
import type { AlwaysScope } from './always-scope.js';
import { codeRunningOption } from './code-running-options.js';
import { type CommandLine, startsWithWords } from './command-line.js';
import { plainWords } from './plain-command.js';

/** A call as the "always" answers are checked against it. */
export interface RememberedCall {
  toolName: string;
  changes: ChangeKind;
  line?: CommandLine;
  /** The host of a `network` call. */
  host?: string;
}

/**
 * The "always" answers of one session, each the scope its request showed on its button: file
 * changes (all of them), a command prefix (`npm test` allows `npm test -- --watch`, never with
 * an option that runs code of its own), an exact command line, an MCP tool by name, a host
 * web_fetch reaches. Kept in
 * memory by the runtime for as long as it runs.
 */
export class SessionApprovals {
  private files = false;
  private readonly prefixes: string[][] = [];
  private readonly exactLines = new Set<string>();
  private readonly tools = new Set<string>();
  private readonly hosts = new Set<string>();

  /** Remembers an "always" answer: the scope the request showed. */
  remember(scope: AlwaysScope): void {
    switch (scope.kind) {
      case 'files':
        this.files = true;
        return;
      case 'prefix':
        this.prefixes.push(scope.words);
        return;
      case 'exact':
        this.exactLines.add(scope.command);
        return;
      case 'tool':
        this.tools.add(scope.name);
        return;
      case 'host':
        this.hosts.add(`${scope.tool}:${scope.host}`);
        return;
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
        const line = call.line;
        if (line === undefined) return false;
        if (this.exactLines.has(line.text)) return true;
        const words = plainWords(line);
        if (words === undefined || codeRunningOption(words) !== undefined) return false;
        return this.prefixes.some((prefix) => startsWithWords(words, prefix));
      }
      case 'external':
        return this.tools.has(call.toolName);
      case 'network':
        return call.host !== undefined && this.hosts.has(`${call.toolName}:${call.host}`);
    }
  }
}
