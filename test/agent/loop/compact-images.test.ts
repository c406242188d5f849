import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { compactionText } from '../../../src/events/compaction-text.js';
import type { AgentUpdateOf, ServerEvent } from '../../../src/events/registry.js';
import type { ResolvedModel } from '../../../src/model/types.js';
import { sha256, solidPng } from '../../helpers/images.js';
import { type MockTurn, streamPartsFor } from '../../helpers/mock-model.js';
import { runWithHarness, tempWorkspaceRoot } from '../../helpers/run-harness.js';

/*
 * Three 64×40-ish screenshots read one after another; each image counts ~1,600 tokens. With a
 * 10,000-token window compacted at half, the second read passes the threshold: the earlier
 * image alone going brings the context back under it, so no text is summarised.
 */
const WINDOW = 10_000;

function compactions(events: ServerEvent[]): AgentUpdateOf<'context_compacted'>[] {
  return events.flatMap((event) =>
    event.type === 'agent_update' && event.update_type === 'context_compacted' ? [event] : [],
  );
}

describe('compaction and images', () => {
  it('replaces the images the model has seen by short markers before summarising any text', async () => {
    const root = await tempWorkspaceRoot();
    const shots = [await solidPng(64, 40), await solidPng(64, 41), await solidPng(64, 42)];
    for (const [index, png] of shots.entries())
      await writeFile(path.join(root, `shot-${index + 1}.png`), png);
    const turns: MockTurn[] = [
      ...shots.map((_, index) => ({
        toolCalls: [{ name: 'read_file', args: { path: `shot-${index + 1}.png` } }],
      })),
      { text: 'Three rectangles.' },
    ];
    const act: LanguageModelV3CallOptions[] = [];
    const compact: LanguageModelV3CallOptions[] = [];
    let next = 0;
    const mock = new MockLanguageModelV3({
      doStream: async (options) => {
        const phase = (options.providerOptions?.taskweave as { phase?: string } | undefined)?.phase;
        if (phase === 'compact') compact.push(options);
        else act.push(options);
        const turn = phase === 'compact' ? { text: 'summary' } : (turns[next++] ?? { text: 'done' });
        return { stream: convertArrayToReadableStream(streamPartsFor(turn)) };
      },
    });
    const model: ResolvedModel = {
      id: 'mock:small',
      model: mock,
      vision: true,
      context: { window: WINDOW, compactAt: 0.5 },
    };
    const { result, events } = await runWithHarness({ model, plan: 'never', workspaceRoot: root });
    expect(result.status).toBe('completed');
    // No summary call: dropping the images was enough.
    expect(compact).toHaveLength(0);
    const dropped = compactions(events);
    expect(dropped.map((event) => event.images_dropped)).toEqual([1, 1]);
    // As every front end shows it.
    expect(compactionText(dropped[0]!)).toMatch(
      /^context compacted: 1 earlier image dropped, 5 → 5 messages/,
    );
    for (const event of dropped) {
      expect(event.messages_after).toBe(event.messages_before);
      expect(event.tokens_after).toBeLessThan(event.tokens_before);
    }
    // The last call: the two earlier images are markers naming them, the latest is still an image.
    const outputs = act
      .at(-1)!
      .prompt.flatMap((message) => (message.role === 'tool' ? message.content : []))
      .flatMap((part) =>
        part.type === 'tool-result' && part.output.type === 'content' ? [part.output.value] : [],
      );
    expect(outputs).toHaveLength(3);
    for (const [index, height] of [40, 41].entries()) {
      expect(outputs[index]![1]).toEqual({
        type: 'text',
        text: `[image image/png 64×${height} sha256:${sha256(shots[index]!).slice(0, 12)} — dropped to save context]`,
      });
    }
    expect(outputs[2]![1]).toMatchObject({ type: 'image-data', mediaType: 'image/png' });
  });
});
