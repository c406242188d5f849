import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { AcpAgent, type WorkspaceOptions } from './acp-agent.js';

/** Where the agent speaks the protocol and where it logs. */
export interface AcpStdio {
  input: NodeJS.ReadableStream & Readable;
  output: NodeJS.WritableStream & Writable;
  /** The log: stderr (stdout is the protocol, nothing else may be written there). */
  log: (text: string) => void;
}

/**
 * `taskweave acp`: the Agent Client Protocol over stdio (newline-delimited JSON-RPC) until the
 * editor closes the pipe; then the sessions' runs stop (their commands with them) and their
 * workspaces close. Resolves once everything is closed.
 */
export async function serveAcp(workspace: WorkspaceOptions, stdio: AcpStdio): Promise<void> {
  const agent = new AcpAgent({ workspace, log: stdio.log });
  const stream = ndJsonStream(
    Writable.toWeb(stdio.output) as WritableStream<Uint8Array>,
    Readable.toWeb(stdio.input) as ReadableStream<Uint8Array>,
  );
  const connection = agent.app.connect(stream);
  await connection.closed;
  await agent.close();
}
