import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { renderSessionExport } from '../../src/export/export-formats.js';
import { exportContentPolicy } from '../../src/export/html-export.js';

/** A real 1×1 PNG (a red pixel). */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
  'base64',
);
const PIXEL_HASH = createHash('sha256').update(PIXEL).digest('hex');
/** An image the session names whose bytes are not given (no longer stored). */
const GONE_HASH = 'f'.repeat(64);

const SESSION = {
  id: 'ses_images1',
  title: 'Why is the header red?',
  goal: 'Why is the header red?',
  workspace: '/tmp/site',
  model: 'script:test.json',
  status: 'idle',
  createdAt: 1795434963000,
  updatedAt: 1795434969000,
};

function events(): ServerEvent[] {
  let seq = 0;
  const event = (payload: Record<string, unknown>): ServerEvent =>
    ({
      session_id: SESSION.id,
      run_id: 'run_i1',
      seq: ++seq,
      ts: 1795434963000 + seq,
      ...payload,
    }) as ServerEvent;
  return [
    event({
      type: 'agent_update',
      update_type: 'agent_start',
      max_steps: 10,
      mode: 'simple',
      loop: 'react',
      model: 'script:test.json',
      goal: SESSION.goal,
      images: [
        { hash: PIXEL_HASH, media_type: 'image/png', width: 1, height: 1 },
        { hash: GONE_HASH, media_type: 'image/jpeg', width: 800, height: 600 },
      ],
    }),
    event({ type: 'agent_update', update_type: 'agent_turn_start', step: 1 }),
    event({
      type: 'agent_update',
      update_type: 'agent_completion',
      steps: 1,
      status: 'completed',
      final_answer: 'The header is red.',
      input_tokens: 10,
      output_tokens: 5,
    }),
  ];
}

describe('the HTML export of a session with images', () => {
  it('embeds each image of the user’s message as a data: URI at its recorded size, and names one whose bytes are gone', () => {
    const html = renderSessionExport({
      session: SESSION,
      events: events(),
      format: 'html',
      images: new Map([[PIXEL_HASH, new Uint8Array(PIXEL)]]),
    });
    expect(html).toContain(
      `<img src="data:image/png;base64,${PIXEL.toString('base64')}" width="1" height="1" alt="Image 1 of 2 (PNG, 1×1)">`,
    );
    expect(html).toContain(`Image 2 of 2 (JPEG, 800×600): not stored, <code>${GONE_HASH}</code>`);
    // The images sit in the run they started, before its steps.
    expect(html.indexOf('class="message-images"')).toBeGreaterThan(html.indexOf('<section class="run"'));
    expect(html.indexOf('class="message-images"')).toBeLessThan(html.indexOf('The header is red.'));
  });

  it('lets the page show its own data: images and nothing else (no outside image, no script)', () => {
    const policy = exportContentPolicy();
    expect(policy).toContain('img-src data:');
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'none'");
    expect(policy).not.toMatch(/img-src[^;]*(https?:|\*|'self')/);
  });
});

describe('the markdown and JSON exports of a session with images', () => {
  it('markdown names each image of the user’s message (type, size, hash) in its run, loading nothing', () => {
    const markdown = renderSessionExport({ session: SESSION, events: events(), format: 'md' });
    const lines = [
      '**2 images attached:**',
      '',
      `- PNG image, 1×1, \`sha256:${PIXEL_HASH}\``,
      `- JPEG image, 800×600, \`sha256:${GONE_HASH}\``,
    ].join('\n');
    expect(markdown).toContain(lines);
    expect(markdown.indexOf(lines)).toBeGreaterThan(markdown.indexOf('## Run 1'));
    expect(markdown.indexOf(lines)).toBeLessThan(markdown.indexOf('The header is red.'));
    // Named, not drawn: no image syntax a viewer would load.
    expect(markdown).not.toMatch(/!\[/);
  });

  it('JSON carries the records of the message’s images', () => {
    const json = JSON.parse(renderSessionExport({ session: SESSION, events: events(), format: 'json' })) as {
      timeline: { kind: string; images?: unknown }[];
    };
    const goal = json.timeline.find((entry) => entry.kind === 'goal');
    expect(goal?.images).toEqual([
      { hash: PIXEL_HASH, media_type: 'image/png', width: 1, height: 1 },
      { hash: GONE_HASH, media_type: 'image/jpeg', width: 800, height: 600 },
    ]);
  });
});
