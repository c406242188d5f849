import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** A language server the config names (`lsp.servers`): its program and the files it serves. */
export interface LanguageServerConfig {
  command: string;
  args?: string[];
  /** File name endings it serves, with the dot: `.go`, `.rs`. */
  extensions: string[];
  /** Files whose folder is a project root (`go.mod`); the workspace root when none is found. */
  rootMarkers?: string[];
  /** Sent as the server's `initializationOptions`. */
  initializationOptions?: Record<string, unknown>;
}

/** How the language-server settings reach the tools (the config's `lsp`, resolved by the runtime). */
export interface LanguageServerSettings {
  /** The configured servers by name, beside (or instead of, by the same name) the built-in ones. */
  servers?: Record<string, LanguageServerConfig>;
  /** How long an edit waits for its diagnostics, in milliseconds (DEFAULT_DIAGNOSTICS_WAIT_MS). */
  waitMs?: number;
}

/** How long an edit waits for the server's diagnostics, all told, by default. */
export const DEFAULT_DIAGNOSTICS_WAIT_MS = 4000;

/** One kind of language server: what it serves and how it is started for a root. */
export interface LanguageServerSpec {
  /** `typescript`, `python`, or the config's name. */
  id: string;
  extensions: string[];
  rootMarkers: string[];
  /** The program, its arguments and initialization options for a project at `root`. */
  launch(root: string): { program: string; args: string[]; initializationOptions?: Record<string, unknown> };
  /** The LSP language id of a file it serves. */
  languageId(file: string): string;
  /**
   * Whether a file of its extensions under this project root is worth a server: plain
   * JavaScript is checked only where a tsconfig.json or jsconfig.json asks for it (TypeScript's
   * own rule for which JavaScript it reads), so that a script in a folder with a package.json
   * does not start a type checker. Every file when absent.
   */
  serves?(file: string, root: string): boolean;
  /**
   * The files at a workspace's top that have its server started with the run's first model
   * request (warmWorkspace); rootMarkers when absent.
   */
  warmMarkers?: string[];
  /**
   * A ripgrep pattern matching the lines that import a module of this base name (no extension):
   * the files that may break when it changes are opened with it. None for configured servers.
   */
  importPattern?(baseName: string): string;
  /** The extensions of the files importPattern looks in. */
  importerExtensions?: string[];
  /**
   * Publications this soon after a change are of the text before it: typescript-language-server
   * checks a changed file no sooner than 300 ms after the change, and a check under way when the
   * change came may still publish meanwhile.
   */
  staleMs?: number;
  /** A changed file is closed and opened again (see ServerConnection.sync). */
  reopenOnChange?: boolean;
}

const require = createRequire(import.meta.url);

const JS_EXTENSIONS = ['.js', '.jsx', '.mjs', '.cjs'];
const TS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', ...JS_EXTENSIONS];
/** The files that make a folder a TypeScript (or checked JavaScript) project. */
const PROJECT_FILES = ['tsconfig.json', 'jsconfig.json'];

/** typescript-language-server, on the workspace's own typescript when it has one, else taskweave's. */
const typescriptSpec: LanguageServerSpec = {
  id: 'typescript',
  extensions: TS_EXTENSIONS,
  rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
  serves: (file, root) =>
    !JS_EXTENSIONS.includes(path.extname(file)) ||
    PROJECT_FILES.some((name) => existsSync(path.join(root, name))),
  warmMarkers: ['tsconfig.json', 'jsconfig.json'],
  launch(root) {
    const own = path.join(root, 'node_modules', 'typescript', 'lib', 'tsserver.js');
    const tsserver = existsSync(own) ? own : require.resolve('typescript/lib/tsserver.js');
    return {
      program: process.execPath,
      args: [packageFile('typescript-language-server/lib/cli.mjs'), '--stdio'],
      initializationOptions: {
        // Watching is left to the client (which reports the files it changes): tsserver's own
        // watchers walk every folder of node_modules, seconds of start-up on a large one.
        tsserver: { path: tsserver, useClientFileWatcher: true, useSyntaxServer: 'never' },
        disableAutomaticTypingAcquisition: true,
      },
    };
  },
  languageId(file) {
    const extension = path.extname(file);
    if (extension === '.tsx') return 'typescriptreact';
    if (extension === '.jsx') return 'javascriptreact';
    return ['.js', '.mjs', '.cjs'].includes(extension) ? 'javascript' : 'typescript';
  },
  importPattern: (baseName) =>
    `(from|import|require\\()\\s*['"][^'"]*\\b${escapeRegExp(baseName)}(\\.[cm]?[jt]sx?)?['"]`,
  importerExtensions: TS_EXTENSIONS,
  staleMs: 250,
  reopenOnChange: true,
};

/** pyright's language server. */
const pythonSpec: LanguageServerSpec = {
  id: 'python',
  extensions: ['.py', '.pyi'],
  rootMarkers: ['pyrightconfig.json', 'pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt'],
  launch: () => ({
    program: process.execPath,
    args: [packageFile('pyright/langserver.index.js'), '--stdio'],
  }),
  languageId: () => 'python',
  importPattern: (baseName) =>
    `^\\s*(from\\s+[\\w.]*\\b${escapeRegExp(baseName)}\\s+import|import\\s+[\\w.]*\\b${escapeRegExp(baseName)}\\b)`,
  importerExtensions: ['.py'],
};

/** The servers taskweave knows out of the box. */
export const BUILT_IN_SERVERS: readonly LanguageServerSpec[] = [typescriptSpec, pythonSpec];

/** The built-in servers with the configured ones: a configured server of the same name replaces one. */
export function serverSpecs(settings: LanguageServerSettings): LanguageServerSpec[] {
  const configured = Object.entries(settings.servers ?? {}).map(([id, config]) => configuredSpec(id, config));
  const names = new Set(configured.map((spec) => spec.id));
  // A configured server takes the extensions it names from the built-in ones.
  const taken = new Set(configured.flatMap((spec) => spec.extensions));
  const builtIn = BUILT_IN_SERVERS.filter((spec) => !names.has(spec.id)).map((spec) => ({
    ...spec,
    extensions: spec.extensions.filter((extension) => !taken.has(extension)),
  }));
  return [...configured, ...builtIn];
}

function configuredSpec(id: string, config: LanguageServerConfig): LanguageServerSpec {
  return {
    id,
    extensions: config.extensions,
    rootMarkers: config.rootMarkers ?? [],
    launch: () => ({
      program: config.command,
      args: config.args ?? [],
      ...(config.initializationOptions === undefined
        ? {}
        : { initializationOptions: config.initializationOptions }),
    }),
    languageId: (file) => path.extname(file).slice(1),
  };
}

function packageFile(specifier: string): string {
  return require.resolve(specifier);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
