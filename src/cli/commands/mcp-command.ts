import type { Command } from 'commander';
import { sanitizeForTerminal } from '../../util/terminal-text.js';
import { EXIT } from '../exit-codes.js';
import { styleFor } from '../render/terminal.js';

/** Adds `taskweave mcp list` to the program. */
export function addMcpCommand(program: Command, setExitCode: (code: number) => void): void {
  const mcp = program.command('mcp').description('the MCP servers of the config and their tools');
  mcp
    .command('list')
    .description('start each configured MCP server, list its tools, and stop it')
    .option('-C, --cwd <dir>', 'the workspace folder', process.cwd())
    .option('--json', 'print the servers and their tools as JSON')
    .action(async (options: { cwd: string; json?: boolean }) => {
      const { listMcpServers } = await import('../../runtime/index.js');
      const { configFile, servers: listed } = await listMcpServers({ cwd: options.cwd });
      const failed = listed.some((server) => server.failure !== undefined);
      setExitCode(failed ? EXIT.failed : EXIT.completed);
      if (options.json) {
        process.stdout.write(`${JSON.stringify(listed, null, 2)}\n`);
        return;
      }
      // A server's names, descriptions and errors are its own text: no escape sequence of theirs
      // reaches the terminal (a clipboard write, a cleared screen, a line written over).
      const servers = sanitizeForTerminal(listed);
      const s = styleFor(process.stdout);
      if (servers.length === 0) {
        process.stdout.write(
          `No MCP servers are configured${configFile ? ` (in ${configFile})` : ''}. Add them under "mcp" in ~/.config/taskweave/config.json.\n`,
        );
        return;
      }
      for (const server of servers) {
        process.stdout.write(`${s.bold(server.name)} ${s.dim(`(${server.transport})`)}\n`);
        if (server.failure !== undefined) {
          process.stdout.write(`  ${s.red(`✗ ${server.failure}`)}\n`);
          continue;
        }
        const tools = server.tools ?? [];
        process.stdout.write(`  ${s.green(`✓ ${tools.length} tool${tools.length === 1 ? '' : 's'}`)}\n`);
        for (const note of server.notes ?? []) process.stdout.write(`  ${s.yellow(`! ${note}`)}\n`);
        for (const tool of tools) {
          const summary = tool.description.split('\n')[0] ?? '';
          process.stdout.write(`  ${tool.name} — ${summary}\n`);
        }
      }
    });
}
