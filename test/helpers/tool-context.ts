import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { FileTracker } from '../../src/tools/file-tracker.js';
import type { InputReply, ToolContext, ToolControl, ToolModel } from '../../src/tools/types.js';
import { Workspace } from '../../src/tools/workspace/workspace.js';

/** A real ToolContext on a fresh temp workspace, with a folder outside it for escape attempts. */
export interface ToolTestBed {
  /** The workspace root (its real path). */
  root: string;
  /** A folder next to the workspace, outside it. */
  outside: string;
  workspace: Workspace;
  files: FileTracker;
  /** Aborting it aborts `ctx.signal`. */
  abort: AbortController;
  /** Every progress message the tool reported. */
  progress: string[];
  /** `ctx.control` and `ctx.model` may be replaced by a test. */
  ctx: ToolContext;
  /** Writes a file (creating folders) relative to the root; returns its absolute path. */
  write(relative: string, content: string | Buffer): Promise<string>;
  /** Reads a file relative to the root as UTF-8. */
  read(relative: string): Promise<string>;
  cleanup(): Promise<void>;
}

export interface ToolTestBedOptions {
  control?: ToolControl;
  model?: ToolModel;
}

/** Builds a test bed; call `cleanup()` when done (or use `useToolTestBed`). */
export async function createToolTestBed(options: ToolTestBedOptions = {}): Promise<ToolTestBed> {
  const parent = await realpath(await mkdtemp(path.join(tmpdir(), 'taskweave-tools-')));
  const root = path.join(parent, 'workspace');
  const outside = path.join(parent, 'outside');
  await mkdir(root);
  await mkdir(outside);
  const workspace = await Workspace.open(root);
  const files = new FileTracker();
  const abort = new AbortController();
  const progress: string[] = [];
  const ctx: ToolContext = {
    workspace,
    signal: abort.signal,
    control: options.control ?? unsetControl,
    model: options.model ?? unsetModel,
    files,
    progress: (message) => progress.push(message),
    callId: 'call-1',
    step: 1,
    sandbox: { kind: 'none' },
  };
  return {
    root,
    outside,
    workspace,
    files,
    abort,
    progress,
    ctx,
    async write(relative, content) {
      const absolute = path.join(root, relative);
      await mkdir(path.dirname(absolute), { recursive: true });
      await writeFile(absolute, content);
      return absolute;
    },
    read: (relative) => readFile(path.join(root, relative), 'utf8'),
    cleanup: () => rm(parent, { recursive: true, force: true }),
  };
}

/** A fresh test bed for each test of the enclosing describe block, removed after it. */
export function useToolTestBed(options: ToolTestBedOptions = {}): () => ToolTestBed {
  let bed: ToolTestBed | undefined;
  beforeEach(async () => {
    bed = await createToolTestBed(options);
  });
  afterEach(async () => {
    await bed?.cleanup();
    bed = undefined;
  });
  return () => {
    if (!bed) throw new Error('The tool test bed is only available inside a test.');
    return bed;
  };
}

/** A ToolControl that replies with the given reply and records the questions asked. */
export function replyingControl(reply: InputReply): ToolControl & { questions: string[] } {
  const questions: string[] = [];
  return {
    questions,
    async requestInput(question) {
      questions.push(question);
      return reply;
    },
  };
}

/** One request a ToolModel received. */
export interface ModelRequest {
  system?: string;
  prompt: string;
  signal?: AbortSignal;
}

/** A ToolModel that answers with the given text and records each request. */
export function answeringModel(answer: string): ToolModel & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    async complete(request) {
      requests.push(request);
      return answer;
    },
  };
}

const unsetControl: ToolControl = {
  async requestInput() {
    throw new Error('This test set no ToolControl; pass one to createToolTestBed.');
  },
};

const unsetModel: ToolModel = {
  async complete() {
    throw new Error('This test set no ToolModel; pass one to createToolTestBed.');
  },
};
