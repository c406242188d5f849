import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * git's smart HTTP protocol on 127.0.0.1: `git http-backend` (git's own CGI program) behind a
 * small node server that asks for HTTP basic auth. Repositories are the bare ones under `root`
 * (`http://127.0.0.1:<port>/<name>.git`); a request without the right user name and password
 * gets a 401 with a challenge, as a forge would answer, and pushes are allowed to that user.
 * Every request is recorded with whether its credentials were right.
 */
export async function startGitHttpServer(options: {
  root: string;
  username: string;
  password: string;
}): Promise<GitHttpServer> {
  const requests: GitHttpRequest[] = [];
  const expected = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const authorized = request.headers.authorization === expected;
    requests.push({ method: request.method ?? 'GET', path: url.pathname, query: url.search, authorized });
    if (!authorized) {
      request.resume();
      response.writeHead(401, { 'www-authenticate': 'Basic realm="git"', 'content-type': 'text/plain' });
      response.end('authentication required\n');
      return;
    }
    serveWithBackend(request, response, url, options);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export interface GitHttpRequest {
  method: string;
  path: string;
  query: string;
  /** The request carried the right basic-auth credentials. */
  authorized: boolean;
}

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>` (no credentials). */
  url: string;
  requests: GitHttpRequest[];
  close(): Promise<void>;
}

/** Runs `git http-backend` for one request: the CGI environment in, its headers and body out. */
function serveWithBackend(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  options: { root: string; username: string },
): void {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GIT_PROJECT_ROOT: options.root,
    GIT_HTTP_EXPORT_ALL: '1',
    REQUEST_METHOD: request.method ?? 'GET',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.slice(1),
    REMOTE_USER: options.username,
    REMOTE_ADDR: '127.0.0.1',
    CONTENT_TYPE: request.headers['content-type'] ?? '',
    ...(request.headers['content-length'] === undefined
      ? {}
      : { CONTENT_LENGTH: request.headers['content-length'] }),
    ...(request.headers['content-encoding'] === undefined
      ? {}
      : { HTTP_CONTENT_ENCODING: request.headers['content-encoding'] }),
    ...(request.headers['git-protocol'] === undefined
      ? {}
      : { GIT_PROTOCOL: String(request.headers['git-protocol']) }),
  };
  const backend = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  request.pipe(backend.stdin);
  let head = Buffer.alloc(0);
  let headersDone = false;
  backend.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      response.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end === -1) return;
    headersDone = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else response.setHeader(name, value);
    }
    response.writeHead(status);
    response.write(head.subarray(end + 4));
  });
  backend.on('close', () => {
    if (!headersDone) response.writeHead(500);
    response.end();
  });
}
