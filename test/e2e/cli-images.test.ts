import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { noisePng, solidPng } from '../helpers/images.js';
import { type LlmServer, startLlmServer } from '../helpers/llm-server.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const ENV = {
  TASKWEAVE_MODEL: '',
  OPENAI_API_KEY: '',
  ANTHROPIC_API_KEY: '',
  GOOGLE_GENERATIVE_AI_API_KEY: '',
  GEMINI_API_KEY: '',
  OLLAMA_HOST: '',
  NO_COLOR: '1',
};

let server: LlmServer;
let workspace: string;
let png: Buffer;
let base64: string;

beforeEach(async () => {
  server = await startLlmServer();
  workspace = await tempWorkspaceRoot('taskweave-images-');
  png = await solidPng(40, 30);
  base64 = png.toString('base64');
  await writeFile(path.join(workspace, 'shot.png'), png);
});
afterEach(async () => {
  await server.close();
});

/** `taskweave run --image shot.png` in the workspace with a model and its environment. */
function runWithImage(model: string, env: Record<string, string>, extra: string[] = []) {
  return runCli(['run', '--model', model, '--image', 'shot.png', ...extra, 'what is in this screenshot?'], {
    cwd: workspace,
    env: { ...ENV, XDG_CONFIG_HOME: workspace, HOME: workspace, ...env },
  });
}

/** The parts of the user's message in a request body, whatever the wire format calls them. */
// biome-ignore lint/suspicious/noExplicitAny: request bodies are the providers' own JSON, checked by the assertions
const body = (index = 0): any => server.requests[index]?.body;

describe('an image attached from the terminal reaches each provider in its wire format', {
  timeout: 120_000,
}, () => {
  it('anthropic: a base64 image block in the user message', async () => {
    server.reply({ text: 'A red rectangle.' });
    const run = await runWithImage('anthropic:claude-sonnet-4-5', {
      ANTHROPIC_API_KEY: 'sk-local',
      ANTHROPIC_BASE_URL: server.baseUrl,
    });
    expect(run.stderr + run.stdout).toContain('▸ image shot.png · 40×30 · ');
    expect(run.stdout).toContain('A red rectangle.');
    expect(run.code).toBe(0);
    expect(body().messages[0].content).toContainEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: base64 },
    });
    expect(body().messages[0].content).toContainEqual(
      expect.objectContaining({ type: 'text', text: 'what is in this screenshot?' }),
    );
  });

  it('openai-compatible: an image_url part holding a data URL', async () => {
    server.reply({ text: 'A red rectangle.' });
    const run = await runWithImage('openai-compatible:local-vision', {}, ['--base-url', server.baseUrl]);
    expect(run.code).toBe(0);
    const user = body().messages.find((message: { role: string }) => message.role === 'user');
    expect(user.content).toContainEqual({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${base64}` },
    });
  });

  it('ollama (a vision model): an image_url part holding a data URL on its OpenAI-compatible API', async () => {
    server.reply({ text: 'A red rectangle.' });
    const run = await runWithImage('ollama:llava:7b', { OLLAMA_HOST: server.url.replace('http://', '') });
    expect(run.code).toBe(0);
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
    const user = body().messages.find((message: { role: string }) => message.role === 'user');
    expect(user.content).toContainEqual({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${base64}` },
    });
  });

  it('openai: an input_image part of the Responses API holding a data URL', async () => {
    // The local server does not answer the Responses API: the request that reached it is what is checked.
    await runWithImage('openai:gpt-4.1', { OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: server.baseUrl });
    expect(server.requests[0]?.path).toBe('/v1/responses');
    const user = body().input.find((item: { role?: string }) => item.role === 'user');
    expect(user.content).toContainEqual(
      expect.objectContaining({ type: 'input_image', image_url: `data:image/png;base64,${base64}` }),
    );
  });

  it('google: an inlineData part of generateContent', async () => {
    // The local server does not answer Gemini's API: the request that reached it is what is checked.
    await runWithImage('google:gemini-2.5-flash', { GOOGLE_GENERATIVE_AI_API_KEY: 'local' }, [
      '--base-url',
      `${server.url}/v1beta`,
    ]);
    expect(server.requests[0]?.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    expect(body().contents[0].parts).toContainEqual({ inlineData: { mimeType: 'image/png', data: base64 } });
  });
});

describe('images refused from the terminal', { timeout: 120_000 }, () => {
  it('a model without vision is refused before any request, naming it (exit 2)', async () => {
    const run = await runWithImage('ollama:qwen2.5-coder:7b', {
      OLLAMA_HOST: server.url.replace('http://', ''),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('The model ollama:qwen2.5-coder:7b does not see images');
    expect(server.requests).toHaveLength(0);
  });

  it('a file that is not an image, or past 20 MB, is refused naming it (exit 2); a large one is scaled', async () => {
    await writeFile(path.join(workspace, 'notes.png'), 'just text\n');
    const text = await runCli(['run', '--model', 'ollama:llava', '--image', 'notes.png', 'look'], {
      cwd: workspace,
      env: {
        ...ENV,
        HOME: workspace,
        XDG_CONFIG_HOME: workspace,
        OLLAMA_HOST: server.url.replace('http://', ''),
      },
    });
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('Cannot attach notes.png: This is not a supported image: it is text');
    const huge = Buffer.alloc(21 * 1024 * 1024);
    png.copy(huge);
    await writeFile(path.join(workspace, 'huge.png'), huge);
    const tooLarge = await runCli(['run', '--model', 'ollama:llava', '--image', 'huge.png', 'look'], {
      cwd: workspace,
      env: {
        ...ENV,
        HOME: workspace,
        XDG_CONFIG_HOME: workspace,
        OLLAMA_HOST: server.url.replace('http://', ''),
      },
    });
    expect(tooLarge.code).toBe(2);
    expect(tooLarge.stderr).toContain('Cannot attach huge.png: The image is 21.0 MB; the limit is 20.0 MB.');
    expect(server.requests).toHaveLength(0);

    await writeFile(path.join(workspace, 'big.png'), await noisePng(2600, 2200));
    server.reply({ text: 'Noise.' });
    const scaled = await runCli(['run', '--model', 'ollama:llava', '--image', 'big.png', 'look'], {
      cwd: workspace,
      env: {
        ...ENV,
        HOME: workspace,
        XDG_CONFIG_HOME: workspace,
        OLLAMA_HOST: server.url.replace('http://', ''),
      },
    });
    expect(scaled.code).toBe(0);
    expect(scaled.stderr + scaled.stdout).toMatch(
      /▸ image big\.png · 2000×1692 · [\d.]+ MB \(scaled down from 2600×2200, 1\d\.\d MB\)/,
    );
  });
});
