import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { loadConversation } from '../../../src/agent/conversation/stored-conversation.js';
import { resolveModel } from '../../../src/config/resolve-model.js';
import { coreTools } from '../../../src/tools/registry.js';
import { noisePng, sha256, solidPng } from '../../helpers/images.js';
import { startLlmServer } from '../../helpers/llm-server.js';
import { mockModel } from '../../helpers/mock-model.js';
import { runWithHarness, tempWorkspaceRoot } from '../../helpers/run-harness.js';

/** The tool results of a call's prompt. */
function toolResults(prompt: LanguageModelV3Prompt) {
  return prompt.flatMap((message) =>
    message.role === 'tool' ? message.content.filter((part) => part.type === 'tool-result') : [],
  );
}

describe('read_file on an image', () => {
  it('gives a model that sees images the image itself, kept by hash in the store', async () => {
    const root = await tempWorkspaceRoot();
    const png = await solidPng(64, 40);
    await writeFile(path.join(root, 'shot.png'), png);
    const model = mockModel([
      { toolCalls: [{ name: 'read_file', args: { path: 'shot.png' } }] },
      { text: 'A red rectangle.' },
    ]);
    const { result, store, sessionId } = await runWithHarness({
      model: { ...model, vision: true },
      tools: coreTools,
      workspaceRoot: root,
    });
    expect(result.status).toBe('completed');

    const [toolResult] = toolResults(model.mock.doStreamCalls[1]!.prompt);
    expect(toolResult?.output.type).toBe('content');
    const parts = toolResult?.output.type === 'content' ? toolResult.output.value : [];
    expect(parts[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('shot.png is a PNG image, 64×40'),
    });
    const image = parts[1];
    expect(image).toMatchObject({ type: 'image-data', mediaType: 'image/png' });
    const bytes = Buffer.from(image?.type === 'image-data' ? image.data : '', 'base64');
    expect(bytes.equals(png)).toBe(true);

    // Stored once by hash (not inlined in the message), and loaded back whole on resume.
    const hash = sha256(png);
    expect(Buffer.from((await store.images.get(hash))?.bytes ?? []).equals(png)).toBe(true);
    const storedRows = await store.sessions.messages(sessionId, { taskId: null });
    expect(JSON.stringify(storedRows)).not.toContain(png.toString('base64'));
    const resumed = await loadConversation(store.sessions, sessionId, null, store.images);
    const resumedResult = resumed
      .flatMap((message) => (message.role === 'tool' ? message.content : []))
      .find((part) => part.type === 'tool-result');
    const resumedParts = resumedResult?.output.type === 'content' ? resumedResult.output.value : [];
    const resumedImage = resumedParts.find((part) => part.type === 'image-data');
    expect(
      Buffer.from(resumedImage?.type === 'image-data' ? resumedImage.data : '', 'base64').equals(png),
    ).toBe(true);
  });

  it('tells a text-only model in words that it cannot see the image', async () => {
    const root = await tempWorkspaceRoot();
    await writeFile(path.join(root, 'shot.png'), await solidPng(64, 40));
    const model = mockModel([
      { toolCalls: [{ name: 'read_file', args: { path: 'shot.png' } }] },
      { text: 'I cannot see it.' },
    ]);
    const { result } = await runWithHarness({
      model: { ...model, vision: false },
      tools: coreTools,
      workspaceRoot: root,
    });
    expect(result.status).toBe('completed');
    const [toolResult] = toolResults(model.mock.doStreamCalls[1]!.prompt);
    expect(toolResult?.output.type).toBe('error-text');
    const text = toolResult?.output.type === 'error-text' ? toolResult.output.value : '';
    expect(text).toContain('shot.png is a PNG image');
    expect(text).toContain('The model in use cannot see images');
    expect(text).not.toContain('binary');
  });

  it('over Chat Completions (OpenAI-compatible, Ollama) the image follows the tool message as a user image, not as JSON text', async () => {
    const server = await startLlmServer();
    try {
      server.reply(
        { toolCalls: [{ name: 'read_file', args: { path: 'shot.png' } }] },
        { text: 'A red rectangle.' },
      );
      const root = await tempWorkspaceRoot();
      const png = await solidPng(64, 40);
      await writeFile(path.join(root, 'shot.png'), png);
      const model = await resolveModel({
        model: 'openai-compatible:test-model',
        baseUrl: server.baseUrl,
        cwd: root,
        env: {},
      });
      const { result } = await runWithHarness({ model, tools: coreTools, workspaceRoot: root });
      expect(result.status).toBe('completed');
      const messages = (server.requests[1]!.body as { messages: { role: string; content: unknown }[] })
        .messages;
      const toolIndex = messages.findIndex((message) => message.role === 'tool');
      expect(messages[toolIndex]!.content).toMatch(/^shot\.png is a PNG image, 64×40/);
      expect(JSON.stringify(messages[toolIndex])).not.toContain(png.toString('base64'));
      expect(messages[toolIndex + 1]).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'The image read_file returned:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
        ],
      });
    } finally {
      await server.close();
    }
  });

  it('takes an image through the intake limits: one past 2000 px is scaled down, and the model is told so', async () => {
    const root = await tempWorkspaceRoot();
    await writeFile(path.join(root, 'big.png'), await noisePng(2600, 2200));
    const model = mockModel([
      { toolCalls: [{ name: 'read_file', args: { path: 'big.png' } }] },
      { text: 'Noise.' },
    ]);
    const { result } = await runWithHarness({
      model: { ...model, vision: true },
      tools: coreTools,
      workspaceRoot: root,
    });
    expect(result.status).toBe('completed');
    const [toolResult] = toolResults(model.mock.doStreamCalls[1]!.prompt);
    const parts = toolResult?.output.type === 'content' ? toolResult.output.value : [];
    expect(parts[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(
        /^big\.png is a PNG image, 2000×1692 \(scaled down from 2600×2200, 17\.3 MB\)/,
      ),
    });
    expect(parts[1]).toMatchObject({ type: 'image-data' });
  });

  it('with the JSON protocol the image follows the results as a user image', async () => {
    const root = await tempWorkspaceRoot();
    const png = await solidPng(64, 40);
    await writeFile(path.join(root, 'shot.png'), png);
    const model = mockModel([
      { text: JSON.stringify({ tool_calls: [{ name: 'read_file', args: { path: 'shot.png' } }] }) },
      { text: JSON.stringify({ final_answer: 'A red rectangle.' }) },
    ]);
    const { result } = await runWithHarness({
      model: { ...model, vision: true },
      tools: coreTools,
      workspaceRoot: root,
      protocol: 'json',
    });
    expect(result.status).toBe('completed');
    const last = model.mock.doStreamCalls[1]!.prompt.at(-1)!;
    expect(last.role).toBe('user');
    const content = last.role === 'user' ? last.content : [];
    expect(content[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('shot.png is a PNG image, 64×40'),
    });
    const file = content[1];
    expect(file).toMatchObject({ type: 'file', mediaType: 'image/png' });
    expect(Buffer.from(file?.type === 'file' ? (file.data as Uint8Array) : []).equals(png)).toBe(true);
  });
});
