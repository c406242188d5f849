import path from 'node:path';
import {
  type AgentApp,
  type AgentContext,
  agent,
  type ClientCapabilities,
  type McpServer,
  PROTOCOL_VERSION,
  RequestError,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import type { McpServerConfig, OpenOptions, Taskweave } from '../runtime/index.js';
import { VERSION } from '../util/version.js';
import { AcpSession } from './acp-session.js';
import { approvalModeOf, sessionModes } from './modes.js';

/** How the agent opens a session's workspace: everything but the folder and the editor's MCP servers. */
export type WorkspaceOptions = Omit<OpenOptions, 'cwd' | 'mcpServers' | 'answers'>;

/** What `taskweave acp` needs around the protocol. */
export interface AcpAgentOptions {
  workspace: WorkspaceOptions;
  /** Writes a line to the log (stderr): never stdout, which is the protocol. */
  log: (text: string) => void;
}

/**
 * The ACP agent: one connection (an editor), its sessions, each over a workspace opened through
 * the SDK face. `close` stops their runs and closes the workspaces (the pipe closed).
 */
export class AcpAgent {
  readonly app: AgentApp;
  private readonly sessions = new Map<string, AcpSession>();
  private capabilities: ClientCapabilities = {};

  constructor(private readonly options: AcpAgentOptions) {
    this.app = agent()
      .onRequest('initialize', ({ params }) => {
        this.capabilities = params.clientCapabilities ?? {};
        return {
          protocolVersion: PROTOCOL_VERSION,
          agentInfo: { name: 'taskweave', title: 'taskweave', version: VERSION },
          agentCapabilities: {
            loadSession: true,
            promptCapabilities: { image: false, audio: false, embeddedContext: true },
            mcpCapabilities: { http: true, sse: false },
            sessionCapabilities: { list: {}, resume: {}, close: {} },
          },
          authMethods: [],
        };
      })
      .onRequest('session/new', async ({ params, client }) => {
        const taskweave = await this.openWorkspace(params.cwd, params.mcpServers);
        const id = await taskweave.sessions.create('Editor session');
        this.sessions.set(id, new AcpSession(id, taskweave, this.ports(client)));
        this.announceCommands(id, taskweave, client);
        return { sessionId: id, modes: sessionModes(taskweave.approvalMode) };
      })
      .onRequest('session/load', async ({ params, client }) => {
        const session = await this.reopen(params.sessionId, params.cwd, params.mcpServers, client);
        await session.replay();
        this.announceCommands(session.id, session.taskweave, client);
        return { modes: sessionModes(session.taskweave.approvalMode) };
      })
      .onRequest('session/resume', async ({ params, client }) => {
        // As load, without sending the history: the editor still shows it.
        const session = await this.reopen(params.sessionId, params.cwd, params.mcpServers ?? [], client);
        await session.catchUp();
        this.announceCommands(session.id, session.taskweave, client);
        return { modes: sessionModes(session.taskweave.approvalMode) };
      })
      .onRequest('session/close', async ({ params }) => {
        const session = this.session(params.sessionId);
        this.sessions.delete(session.id);
        await session.close();
        return {};
      })
      .onRequest('session/list', async ({ params }) => {
        const cwd = params.cwd ?? process.cwd();
        const taskweave = await this.openWorkspace(cwd, []);
        try {
          const sessions = await taskweave.sessions.list();
          return {
            sessions: sessions.map(({ session }) => ({
              sessionId: session.id,
              cwd: session.workspace,
              title: session.title,
              updatedAt: new Date(session.updatedAt).toISOString(),
            })),
          };
        } finally {
          await taskweave.close();
        }
      })
      .onRequest('session/prompt', async ({ params }) => ({
        stopReason: await this.session(params.sessionId).prompt(params.prompt),
      }))
      .onRequest('session/set_mode', async ({ params, client }) => {
        const mode = approvalModeOf(params.modeId);
        if (mode === undefined)
          throw RequestError.invalidParams(undefined, `There is no mode ${params.modeId}.`);
        const session = this.session(params.sessionId);
        session.taskweave.approvalMode = mode;
        await client.notify('session/update', {
          sessionId: session.id,
          update: { sessionUpdate: 'current_mode_update', currentModeId: mode },
        });
        return {};
      })
      .onNotification('session/cancel', async ({ params }) => {
        await this.sessions.get(params.sessionId)?.cancel();
      });
  }

  /** Stops every session's run and closes their workspaces. */
  async close(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(sessions.map((session) => session.close()));
  }

  /** Opens a stored session's workspace as a session of this connection (a load or a resume). */
  private async reopen(
    sessionId: string,
    cwd: string,
    servers: readonly McpServer[],
    client: AgentContext,
  ): Promise<AcpSession> {
    const taskweave = await this.openWorkspace(cwd, servers);
    let id: string;
    try {
      id = (await taskweave.sessions.get(sessionId)).session.id;
    } catch {
      await taskweave.close();
      throw RequestError.resourceNotFound(sessionId);
    }
    await this.sessions.get(id)?.close();
    const session = new AcpSession(id, taskweave, this.ports(client));
    this.sessions.set(id, session);
    return session;
  }

  private session(id: string): AcpSession {
    const session = this.sessions.get(id);
    if (session === undefined) throw RequestError.resourceNotFound(id);
    return session;
  }

  private ports(client: AgentContext) {
    return { client, capabilities: this.capabilities, log: this.options.log };
  }

  private async openWorkspace(cwd: string, servers: readonly McpServer[]): Promise<Taskweave> {
    if (!path.isAbsolute(cwd))
      throw RequestError.invalidParams(undefined, `cwd must be an absolute path: ${cwd}`);
    try {
      // Loaded with the first session: `initialize` is answered before the runtime is loaded.
      const { open } = await import('../runtime/index.js');
      return await open({ ...this.options.workspace, cwd, mcpServers: mcpServersOf(servers) });
    } catch (error) {
      throw RequestError.invalidParams(undefined, (error as Error).message);
    }
  }

  /** The custom commands (`/name`) of the workspace and the user, as the editor's command list. */
  private announceCommands(sessionId: string, taskweave: Taskweave, client: AgentContext): void {
    void taskweave.runtime
      .customCommands()
      .then(({ commands, problems }) => {
        for (const problem of problems) this.options.log(problem);
        const update: SessionUpdate = {
          sessionUpdate: 'available_commands_update',
          availableCommands: commands.map((command) => ({
            name: command.name,
            description: command.description ?? `${command.source} command (${command.file})`,
            input: { hint: 'arguments' },
          })),
        };
        return client.notify('session/update', { sessionId, update });
      })
      .catch((error: unknown) => this.options.log(`commands: ${(error as Error).message}`));
  }
}

/** The editor's MCP servers as taskweave's config names them (stdio and HTTP; SSE is not offered). */
function mcpServersOf(servers: readonly McpServer[]): Record<string, McpServerConfig> {
  const configs: Record<string, McpServerConfig> = {};
  for (const server of servers) {
    if ('type' in server && server.type === 'http')
      configs[server.name] = {
        url: server.url,
        headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])),
      };
    else if ('command' in server)
      configs[server.name] = {
        command: server.command,
        args: server.args,
        env: Object.fromEntries(server.env.map((variable) => [variable.name, variable.value])),
      };
    else
      throw RequestError.invalidParams(
        undefined,
        `MCP server ${server.name}: only stdio and HTTP servers are supported.`,
      );
  }
  return configs;
}
