import { describe, expect, it } from 'vitest';
import { type ApprovalQuestion, decideApproval } from '../../../src/agent/approval/approval-rules.js';
import { SessionApprovals } from '../../../src/agent/approval/session-approvals.js';

function question(overrides: Partial<ApprovalQuestion>): ApprovalQuestion {
  return {
    mode: 'ask',
    toolName: 'run_command',
    changes: 'command',
    command: 'npm test',
    allow: [],
    deny: [],
    sandboxMissing: false,
    remembered: new SessionApprovals(),
    ...overrides,
  };
}
const write = { toolName: 'write_file', changes: 'files', command: undefined } as const;
const mcp = { toolName: 'everything__echo', changes: 'external', command: undefined } as const;
const read = { toolName: 'read_file', changes: 'none', command: undefined } as const;

describe('decideApproval', () => {
  it('ask: commands, file changes and MCP tools are asked; reads run', () => {
    expect(decideApproval(question({}))).toMatchObject({ kind: 'ask', allowedBy: /--approval auto/ });
    expect(decideApproval(question(write))).toMatchObject({ kind: 'ask', allowedBy: '--approval edits' });
    expect(decideApproval(question(mcp))).toMatchObject({ kind: 'ask' });
    expect(decideApproval(question(read))).toEqual({ kind: 'run' });
  });

  it('edits: file changes run, commands and MCP tools are asked', () => {
    expect(decideApproval(question({ mode: 'edits', ...write }))).toEqual({ kind: 'run' });
    expect(decideApproval(question({ mode: 'edits' }))).toMatchObject({ kind: 'ask' });
    expect(decideApproval(question({ mode: 'edits', ...mcp }))).toMatchObject({ kind: 'ask' });
  });

  it('auto: everything runs; without bubblewrap commands fall back to being asked', () => {
    expect(decideApproval(question({ mode: 'auto' }))).toEqual({ kind: 'run' });
    expect(decideApproval(question({ mode: 'auto', ...mcp }))).toEqual({ kind: 'run' });
    expect(decideApproval(question({ mode: 'auto', sandboxMissing: true }))).toMatchObject({
      kind: 'ask',
      allowedBy: /--sandbox off/,
    });
    expect(decideApproval(question({ mode: 'auto', sandboxMissing: true, ...write }))).toEqual({
      kind: 'run',
    });
  });

  it('plan-only: every change is refused, reads run', () => {
    for (const kind of [{}, write, mcp]) {
      expect(decideApproval(question({ mode: 'plan-only', ...kind }))).toMatchObject({
        kind: 'refuse',
        message: /plan-only/,
      });
    }
    expect(decideApproval(question({ mode: 'plan-only', ...read }))).toEqual({ kind: 'run' });
  });

  it('the allow list lets a matching plain command run, never a compound one', () => {
    const allow = ['npm test', 'git status'];
    expect(decideApproval(question({ allow }))).toEqual({ kind: 'run' });
    expect(decideApproval(question({ allow, command: 'npm test -- --coverage' }))).toEqual({ kind: 'run' });
    expect(decideApproval(question({ allow, command: 'npm test; rm -rf ~' }))).toMatchObject({ kind: 'ask' });
    expect(decideApproval(question({ allow, command: 'npm testing' }))).toMatchObject({ kind: 'ask' });
    expect(decideApproval(question({ allow, command: 'npm install' }))).toMatchObject({ kind: 'ask' });
    expect(decideApproval(question({ allow: ['everything__*'], ...mcp }))).toEqual({ kind: 'run' });
  });

  it('the deny list wins over every mode and the allow list, in any part of a line', () => {
    const deny = ['git push'];
    for (const command of [
      'git push',
      'git push --force origin main',
      'npm test && git push',
      'echo $(git push)',
    ]) {
      expect(decideApproval(question({ mode: 'auto', deny, allow: ['git'], command }))).toMatchObject({
        kind: 'refuse',
        message: /`git push` is on the deny list/,
      });
    }
    expect(decideApproval(question({ mode: 'auto', deny, command: 'git status' }))).toEqual({ kind: 'run' });
    expect(decideApproval(question({ mode: 'auto', deny: ['everything__echo'], ...mcp }))).toMatchObject({
      kind: 'refuse',
    });
  });

  it('"always" answers of the session: a command prefix, file changes, an MCP tool', () => {
    const remembered = new SessionApprovals();
    expect(
      remembered.remember({ toolName: 'run_command', changes: 'command', command: 'npm run build' }),
    ).toBe('commands starting with `npm run build`');
    expect(decideApproval(question({ remembered, command: 'npm run build -- --watch' }))).toEqual({
      kind: 'run',
    });
    expect(decideApproval(question({ remembered, command: 'npm run lint' }))).toMatchObject({ kind: 'ask' });
    expect(decideApproval(question({ remembered, command: 'npm run build; rm -rf ~' }))).toMatchObject({
      kind: 'ask',
    });
    remembered.remember({ toolName: 'write_file', changes: 'files' });
    expect(decideApproval(question({ remembered, ...write }))).toEqual({ kind: 'run' });
    remembered.remember({ toolName: 'everything__echo', changes: 'external' });
    expect(decideApproval(question({ remembered, ...mcp }))).toEqual({ kind: 'run' });
  });
});
