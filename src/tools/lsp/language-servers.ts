import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommandSandbox } from '../sandbox/sandbox.js';
import type { ChangeDiagnostics, FileDiagnostic } from './diagnostics.js';
import { newDiagnostics, orderDiagnostics } from './diagnostics-diff.js';
import { findImporters, firstSourceFile } from './importers.js';
import { findRoot } from './project-root.js';
import { type ProtocolDiagnostic, ServerConnection, ServerTimeout } from './server-connection.js';
import {
  DEFAULT_DIAGNOSTICS_WAIT_MS,
  type LanguageServerSettings,
  type LanguageServerSpec,
  serverSpecs,
} from './server-specs.js';

/** A server that has not answered `initialize` by then is given up for the run. */
const INITIALIZE_LIMIT_MS = 30_000;
/** After the last publication, how long more may come (syntax and semantic problems come apart). */
const QUIET_MS = 150;
/** A crashed server is started again this many times, then it is off for the run. */
const RESTARTS = 1;

/** Where a file is worked on: its workspace (a plan task's worktree is one of its own) and sandbox. */
export interface FilePlace {
  workspaceRoot: string;
  sandbox: CommandSandbox;
}

/** A change being watched: call `finish` with the file's new text once it is written. */
export interface ChangeWatch {
  finish(text: string): Promise<ChangeDiagnostics>;
}

/** A command being watched: call `finish` with the files it changed (absolute paths) once it ended. */
export interface CommandWatch {
  /** The problems the changes introduced in files a running server had open; undefined when none was. */
  finish(files: string[]): Promise<ChangeDiagnostics | undefined>;
}

interface ServerEntry {
  spec: LanguageServerSpec;
  root: string;
  /** Running, starting, or off for the rest of the run (with the reason). */
  server?: ServerConnection;
  starting?: Promise<ServerConnection>;
  off?: string;
  crashes: number;
  /** Notes already given (each is said once). */
  said: Set<string>;
  /** A note for the next change (the server was restarted after a crash). */
  pending?: string;
  /** Ends a start under way when the run ends. */
  abort: AbortController;
}

/**
 * A run's language servers: started lazily on the first file of their language, one per project
 * root and language (a worktree is a root of its own), reused across the run's steps and tasks,
 * closed with `close`. A crash restarts a server once; a second one turns it off for the run.
 */
export class LanguageServers {
  private readonly specs: LanguageServerSpec[];
  private readonly entries = new Map<string, ServerEntry>();
  private readonly waitMs: number;
  /** Workspaces whose servers were warmed (each once). */
  private readonly warmed = new Set<string>();
  private closed = false;

  constructor(
    settings: LanguageServerSettings,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.specs = serverSpecs(settings);
    this.waitMs = settings.waitMs ?? DEFAULT_DIAGNOSTICS_WAIT_MS;
  }

  /** Whether a server is running (the navigation tool is offered from then on). */
  get running(): boolean {
    return [...this.entries.values()].some((entry) => entry.server !== undefined);
  }

  /** The running servers: language, project root and process id (bubblewrap's in the sandbox). */
  list(): { language: string; root: string; pid: number | undefined }[] {
    return [...this.entries.values()].flatMap((entry) =>
      entry.server ? [{ language: entry.spec.id, root: entry.root, pid: entry.server.pid }] : [],
    );
  }

  /** Whether some server serves this file. */
  serves(file: string): boolean {
    return this.specFor(file) !== undefined;
  }

  /**
   * Starts the file's server if need be and opens the file in it, without waiting (read_file
   * calls it: by the time the file is edited, its server is up and its problems known).
   */
  warm(file: string, place: FilePlace): void {
    const entry = this.entryFor(file, place);
    if (entry === undefined) return;
    void this.serverOf(entry, place, Date.now() + INITIALIZE_LIMIT_MS)
      .then(async (server) => {
        if (typeof server === 'string') return;
        const text = await readFile(file, 'utf8');
        await server.sync(file, text, entry.spec.languageId(file));
      })
      .catch(() => {});
  }

  /**
   * Starts, in the background, the server of each language whose project file (tsconfig.json,
   * jsconfig.json, pyproject.toml…: its warmMarkers) the workspace has at its top, and opens one of its source files
   * so that the project loads: the first edit then finds it warm. Once per workspace; the loop
   * calls it with its first model request, never before.
   */
  warmWorkspace(place: FilePlace): void {
    if (this.closed || this.warmed.has(place.workspaceRoot)) return;
    this.warmed.add(place.workspaceRoot);
    for (const spec of this.specs) {
      const markers = spec.warmMarkers ?? spec.rootMarkers;
      if (!markers.some((marker) => existsSync(path.join(place.workspaceRoot, marker)))) continue;
      void firstSourceFile(place.workspaceRoot, spec).then((file) => {
        if (file !== undefined) this.warm(file, place);
      });
    }
  }

  /**
   * Takes the baseline before `file` changes: the file and the files importing it are opened and
   * their current problems awaited. Undefined when no server serves the file. The whole watch
   * (baseline and the problems after) waits at most the configured time.
   */
  async watch(file: string, place: FilePlace): Promise<ChangeWatch | undefined> {
    const entry = this.entryFor(file, place);
    if (entry === undefined) return undefined;
    const deadline = Date.now() + this.waitMs;
    const server = await this.serverOf(entry, place, deadline);
    if (typeof server === 'string') return noted(this.sayOnce(entry, server));
    const restarted = entry.pending;
    entry.pending = undefined;
    const languageId = (name: string) => entry.spec.languageId(name);
    const importers = await findImporters(file, entry.root, entry.spec);
    const seen = new Map<string, number>();
    for (const name of [file, ...importers]) {
      const text = await readFile(name, 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      const before = server.publications(name);
      const changed = !server.isOpen(name) || server.textOf(name) !== text;
      await server.sync(name, text, languageId(name));
      if (changed || before === 0) seen.set(name, before);
    }
    const staleMs = entry.spec.staleMs ?? 0;
    const ready = await server.waitForPublications(seen, { deadline, quietMs: QUIET_MS, staleMs });
    if (!ready) return noted(this.slowNote(entry, server));
    const baseline = this.snapshot(server, place);
    return {
      finish: async (text) => {
        if (server !== entry.server) return { diagnostics: [], ...this.crashNote(entry) };
        const before = new Map([[file, server.publications(file)]]);
        await server.sync(file, text, languageId(file), { reopen: entry.spec.reopenOnChange === true });
        const done = await server.waitForPublications(before, { deadline, quietMs: QUIET_MS, staleMs });
        if (!done) return noted(this.slowNote(entry, server)).finish(text);
        const fresh = newDiagnostics(baseline, this.snapshot(server, place));
        return {
          diagnostics: orderDiagnostics(fresh, relativeTo(place, file)),
          ...(restarted === undefined ? {} : { note: restarted }),
        };
      },
    };
  }

  /**
   * Takes the baseline before a command: what each running server under `place` last reported
   * for its open files (nothing is awaited; a command never starts a server). Undefined when no
   * server runs there. Afterwards, the changed files a server has open are synced and their new
   * problems awaited, at most the configured time; a file no server had open has no baseline and
   * is not reported.
   */
  beforeCommand(place: FilePlace): CommandWatch | undefined {
    const baselines = new Map<ServerEntry, { server: ServerConnection; before: FileDiagnostic[] }>();
    for (const entry of this.entries.values()) {
      if (entry.server === undefined || !isWithin(entry.root, place.workspaceRoot)) continue;
      baselines.set(entry, { server: entry.server, before: this.snapshot(entry.server, place) });
    }
    if (baselines.size === 0) return undefined;
    return {
      finish: async (files) => {
        const deadline = Date.now() + this.waitMs;
        const found: FileDiagnostic[] = [];
        const notes: string[] = [];
        let synced = false;
        for (const [entry, { server, before }] of baselines) {
          const mine = files.filter(
            (file) => server.isOpen(file) && this.entryFor(file, place, { create: false }) === entry,
          );
          if (mine.length === 0) continue;
          if (server !== entry.server) {
            const note = this.crashNote(entry).note;
            if (note !== undefined) notes.push(note);
            continue;
          }
          const seen = new Map<string, number>();
          for (const file of mine) {
            const text = await readFile(file, 'utf8').catch(() => undefined);
            if (text === undefined || server.textOf(file) === text) continue;
            seen.set(file, server.publications(file));
            await server.sync(file, text, entry.spec.languageId(file), {
              reopen: entry.spec.reopenOnChange === true,
            });
          }
          if (seen.size === 0) continue;
          synced = true;
          const staleMs = entry.spec.staleMs ?? 0;
          const done = await server.waitForPublications(seen, { deadline, quietMs: QUIET_MS, staleMs });
          if (!done) {
            const note = this.slowNote(entry, server);
            if (note !== undefined) notes.push(note);
            continue;
          }
          found.push(...newDiagnostics(before, this.snapshot(server, place)));
        }
        if (!synced && notes.length === 0) return undefined;
        const first = files[0] === undefined ? '' : relativeTo(place, files[0]);
        return {
          diagnostics: orderDiagnostics(found, first),
          ...(notes.length === 0 ? {} : { note: notes.join('\n') }),
        };
      },
    };
  }

  /**
   * Sends a request about `file` (synced from disk first) to its server: a definition, the
   * references, a hover, the symbols. A string says why there is no answer.
   */
  async request<T>(
    file: string,
    place: FilePlace,
    method: string,
    params: unknown,
    waitMs: number,
  ): Promise<T | string> {
    const entry = this.entryFor(file, place);
    if (entry === undefined) return `no language server serves ${path.extname(file) || 'this kind of'} files`;
    const deadline = Date.now() + waitMs;
    const server = await this.serverOf(entry, place, deadline);
    if (typeof server === 'string') return server;
    await server.sync(file, await readFile(file, 'utf8'), entry.spec.languageId(file));
    try {
      return await server.request<T>(method, params, deadline);
    } catch (error) {
      return error instanceof ServerTimeout
        ? `the ${entry.spec.id} language server did not answer within ${seconds(waitMs)}`
        : `the ${entry.spec.id} language server failed: ${(error as Error).message}`;
    }
  }

  /** Stops every server (the run ended). */
  async close(): Promise<void> {
    this.closed = true;
    const servers = [...this.entries.values()].flatMap((entry) => (entry.server ? [entry.server] : []));
    const starting = [...this.entries.values()].flatMap((entry) => (entry.starting ? [entry.starting] : []));
    // A server still starting is killed (its start is aborted).
    for (const entry of this.entries.values()) entry.abort.abort();
    this.entries.clear();
    await Promise.all(servers.map((server) => server.close()));
    await Promise.all(starting.map((start) => start.then((server) => server.close()).catch(() => {})));
  }

  private specFor(file: string): LanguageServerSpec | undefined {
    const extension = path.extname(file);
    return this.specs.find((spec) => spec.extensions.includes(extension));
  }

  private entryFor(file: string, place: FilePlace, { create = true } = {}): ServerEntry | undefined {
    const spec = this.specFor(file);
    if (spec === undefined || this.closed) return undefined;
    const root = findRoot(path.dirname(file), place.workspaceRoot, spec.rootMarkers);
    if (spec.serves !== undefined && !spec.serves(file, root)) return undefined;
    const key = `${spec.id}\0${root}`;
    let entry = this.entries.get(key);
    if (entry === undefined && create) {
      entry = { spec, root, crashes: 0, said: new Set(), abort: new AbortController() };
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** The entry's running server, started if need be, or why there is none (by `deadline`). */
  private async serverOf(
    entry: ServerEntry,
    place: FilePlace,
    deadline: number,
  ): Promise<ServerConnection | string> {
    if (entry.off !== undefined) return entry.off;
    if (entry.server !== undefined) return entry.server;
    entry.starting ??= this.start(entry, place);
    const timeout = new Promise<string>((resolve) =>
      setTimeout(
        () => resolve(`the ${entry.spec.id} language server is still starting after ${seconds(this.waitMs)}`),
        Math.max(0, deadline - Date.now()),
      ).unref(),
    );
    return Promise.race([
      entry.starting.then(
        (server) => server,
        (error: Error) => error.message,
      ),
      timeout,
    ]);
  }

  private async start(entry: ServerEntry, place: FilePlace): Promise<ServerConnection> {
    const launch = entry.spec.launch(entry.root);
    try {
      const server = await ServerConnection.start({
        ...launch,
        root: entry.root,
        workspaceRoot: place.workspaceRoot,
        sandbox: place.sandbox,
        env: this.env,
        signal: AbortSignal.any([AbortSignal.timeout(INITIALIZE_LIMIT_MS), entry.abort.signal]),
      });
      if (this.closed) {
        await server.close();
        throw new Error('the run ended');
      }
      entry.server = server;
      void server.exited.then(({ crashed, reason }) => {
        if (!crashed || entry.server !== server) return;
        entry.server = undefined;
        entry.starting = undefined;
        entry.crashes += 1;
        if (entry.crashes > RESTARTS)
          entry.off = `the ${entry.spec.id} language server crashed again (${reason}); diagnostics from it are off for the rest of the run`;
        else
          entry.pending = `(The ${entry.spec.id} language server crashed (${reason}) and was started again.)`;
      });
      return server;
    } catch (error) {
      const reason =
        error instanceof ServerTimeout
          ? `did not answer within ${seconds(INITIALIZE_LIMIT_MS)}`
          : `could not be started: ${(error as Error).message}`;
      entry.off = `the ${entry.spec.id} language server (${launch.program}) ${reason}; diagnostics from it are off for the rest of the run`;
      entry.starting = undefined;
      throw new Error(entry.off);
    }
  }

  private slowNote(entry: ServerEntry, server: ServerConnection): string | undefined {
    if (server !== entry.server) return this.crashNote(entry).note;
    return this.sayOnce(
      entry,
      `the ${entry.spec.id} language server did not report within ${seconds(this.waitMs)}, so none are reported for this change`,
    );
  }

  private crashNote(entry: ServerEntry): { note?: string } {
    const note =
      entry.off ??
      `the ${entry.spec.id} language server crashed during this change; it is started again with the next one`;
    const said = this.sayOnce(entry, note);
    return said === undefined ? {} : { note: said };
  }

  /** The note, phrased for the model, the first time it comes up for this server; undefined after. */
  private sayOnce(entry: ServerEntry, note: string | undefined): string | undefined {
    if (note === undefined || entry.said.has(note)) return undefined;
    entry.said.add(note);
    return `(No diagnostics: ${note}.)`;
  }

  /** Every problem the server has published for its open files. */
  private snapshot(server: ServerConnection, place: FilePlace): FileDiagnostic[] {
    return server
      .openFiles()
      .flatMap((file) =>
        (server.diagnostics(file) ?? []).flatMap((diagnostic) =>
          fileDiagnostic(diagnostic, relativeTo(place, file)),
        ),
      );
  }
}

function noted(note: string | undefined): ChangeWatch {
  return { finish: async () => ({ diagnostics: [], ...(note === undefined ? {} : { note }) }) };
}

/** Errors and warnings only: information and hints are not problems to fix. */
function fileDiagnostic(diagnostic: ProtocolDiagnostic, file: string): FileDiagnostic[] {
  const severity = diagnostic.severity ?? 1;
  if (severity > 2) return [];
  const code =
    diagnostic.code === undefined
      ? undefined
      : diagnostic.source === 'typescript' && typeof diagnostic.code === 'number'
        ? `TS${diagnostic.code}`
        : String(diagnostic.code);
  return [
    {
      path: file,
      line: diagnostic.range.start.line + 1,
      column: diagnostic.range.start.character + 1,
      severity: severity === 1 ? 'error' : 'warning',
      ...(code === undefined ? {} : { code }),
      message: diagnostic.message,
    },
  ];
}

function relativeTo(place: FilePlace, file: string): string {
  return path.relative(place.workspaceRoot, file).split(path.sep).join('/');
}

function isWithin(folder: string, root: string): boolean {
  const relative = path.relative(root, folder);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
