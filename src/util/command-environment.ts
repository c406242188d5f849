import { PROVIDER_KEY_VARIABLES } from './provider-keys.js';

/**
 * taskweave's own secrets, by variable name: never in the environment of a command it runs
 * (sandboxed or not, foreground or background, a hook). A command's output reaches the model,
 * the stored events (in a shared store, the store itself) and every front end; and with the
 * store's password a command could answer any approval or rewrite any queue.
 */
export const WITHHELD_VARIABLES: readonly string[] = [
  // The model providers' keys (also taken out of process.env at start-up: provider-keys.ts).
  ...PROVIDER_KEY_VARIABLES,
  // The shared store's URL, user and password in it; and the test suite's store.
  'TASKWEAVE_STORE',
  'TASKWEAVE_TEST_POSTGRES',
];

/**
 * Prefixes of withheld variables: every `PG*` variable libpq and `pg` read (PGPASSWORD, PGUSER,
 * PGHOST, PGPASSFILE, PGSERVICEFILE…) logs a command into the store as taskweave.
 */
export const WITHHELD_PREFIXES: readonly string[] = ['PG'];

/**
 * The variables taskweave reads that a command does get, each with the reason. A test holds
 * every variable the source reads to be here or withheld: a new one is a decision, not an
 * accident.
 */
export const PASSED_VARIABLES: Readonly<Record<string, string>> = {
  PATH: 'where programs are: a command needs it as taskweave does',
  HOME: "the user's home: tools a command runs find their config there (read-only in the sandbox)",
  XDG_CONFIG_HOME: 'the same, for tools that follow the XDG folders',
  XDG_DATA_HOME: 'the same, for tools that follow the XDG folders',
  XDG_CACHE_HOME: 'the same; the sandbox points it at its private /tmp',
  XDG_RUNTIME_DIR: "the user's runtime folder; the sandbox hides it and drops the variable without network",
  NO_COLOR: 'set for every command anyway (no colours in output the model reads)',
  FORCE_COLOR: 'no secret; run_command drops it so that NO_COLOR holds',
  TASKWEAVE_COMMAND_ID: 'set by taskweave for each command: the mark its processes are ended by',
  TASKWEAVE_MODEL: 'a model name, no secret; a taskweave the command runs (eval, tests) reads it alike',
  TASKWEAVE_BASE_URL: 'an address, no secret (a password in a URL is redacted from tool results)',
  OPENAI_BASE_URL: 'an address, no secret; the SDKs a project uses read it too',
  ANTHROPIC_BASE_URL: 'an address, no secret; the SDKs a project uses read it too',
  OLLAMA_HOST: 'an address, no secret; the ollama client a command runs reads it too',
  TASKWEAVE_LEASE_MS: 'a timing setting, no secret',
  TASKWEAVE_RETRY_BASE_MS: 'a timing setting, no secret',
  TASKWEAVE_STILL_RUNNING_MS: 'a timing setting, no secret',
  TASKWEAVE_CODE_CACHE: 'a cache setting, no secret',
  TASKWEAVE_CLONES: 'a folder, no secret',
  TASKWEAVE_WORKER_PID:
    'set by a worker for the processes it starts: a pid, no secret; whoever takes its tasks over after a kill -9 ends the git commands it left by it',
  TASKWEAVE_WEB_BENCH_DOWNLOADS: 'an eval setting, no secret',
  GIT_CONFIG_COUNT:
    "the user's own git config from the environment, no secret: read to put a remote's credential helper after it (git's environment only)",
  DBUS_SESSION_BUS_ADDRESS: 'a socket address; the sandbox drops it without network',
  DBUS_SYSTEM_BUS_ADDRESS: 'a socket address; the sandbox drops it without network',
  SSH_AUTH_SOCK: 'a socket address; the sandbox drops it without network',
  GPG_AGENT_INFO: 'a socket address; the sandbox drops it without network',
  WAYLAND_DISPLAY: 'a socket name; the sandbox drops it without network',
  PULSE_SERVER: 'a socket address; the sandbox drops it without network',
  SWAYSOCK: 'a socket path; the sandbox drops it without network',
  I3SOCK: 'a socket path; the sandbox drops it without network',
  DOCKER_HOST: 'a daemon address; the sandbox drops a unix socket without network',
  CONTAINER_HOST: 'a daemon address; the sandbox drops a unix socket without network',
};

/** Whether a variable is one of taskweave's own secrets (WITHHELD_VARIABLES, WITHHELD_PREFIXES). */
export function isWithheldVariable(name: string): boolean {
  return WITHHELD_VARIABLES.includes(name) || WITHHELD_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** The environment without taskweave's own secrets: what every command it runs starts from. */
export function withoutTaskweaveSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isWithheldVariable(name)));
}

/** Names that say a variable holds a credential (GITHUB_TOKEN, NPM_TOKEN, AWS_SECRET_ACCESS_KEY…). */
const CREDENTIAL_NAME = /API_KEY|TOKEN|SECRET|PASSWORD/i;

/**
 * The environment without taskweave's own secrets and without any variable whose name says it
 * holds a credential: for programs that need none (an eval's checker, a benchmark's tests),
 * whereas a command the user's goal runs keeps their other credentials (`gh`, `npm publish`).
 */
export function withoutCredentials(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(withoutTaskweaveSecrets(env)).filter(([name]) => !CREDENTIAL_NAME.test(name)),
  );
}
