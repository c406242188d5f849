import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventPayloadSchema } from '../../src/events/registry.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The event names the registry defines: agent_update kinds and top-level types. */
function registryNames(): { updates: string[]; topLevel: string[] } {
  const updates: string[] = [];
  const topLevel: string[] = [];
  for (const option of eventPayloadSchema.options) {
    const type = String(option.shape.type.value);
    if (type === 'agent_update' && 'update_type' in option.shape)
      updates.push(String(option.shape.update_type.value));
    else topLevel.push(type);
  }
  return { updates, topLevel };
}

/** The README's Events section: the table rows, by their first cell. */
function readmeEventRows(): Map<string, string> {
  const section = README.slice(
    README.indexOf('\n## Events'),
    README.indexOf('\n## ', README.indexOf('\n## Events') + 1),
  );
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const match = /^\| `([a-z_]+)` \| (.*) \|$/.exec(line);
    if (match) rows.set(match[1]!, match[2]!);
  }
  return rows;
}

describe('the README event tables', () => {
  it('name every event of the registry, and no other', () => {
    const { updates, topLevel } = registryNames();
    const rows = readmeEventRows();
    const agentUpdate = rows.get('agent_update') ?? '';
    const documentedUpdates = [...agentUpdate.matchAll(/`([a-z_]+)` \(/g)].map((match) => match[1]);
    expect(documentedUpdates.sort()).toEqual([...updates].sort());
    const documentedTopLevel = [...rows.keys()].filter((name) => name !== 'agent_update');
    expect(documentedTopLevel.sort()).toEqual([...topLevel].sort());
  });
});
