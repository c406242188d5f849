import { describe, expect, it } from 'vitest';
import { commandTypo, unknownSubcommand } from '../../src/cli/command-typo.js';
import { createProgram } from '../../src/cli/main.js';
import { editDistance, nearestNames } from '../../src/util/edit-distance.js';

const program = createProgram(() => {});
const argv = (...words: string[]) => ['node', 'taskweave', ...words];

describe('a first word one edit away from a command', () => {
  it('is taken for a typo of that command', () => {
    expect(commandTypo(program, argv('sesions', 'list'))).toEqual({ word: 'sesions', command: 'sessions' });
    expect(commandTypo(program, argv('tsaks'))).toEqual({ word: 'tsaks', command: 'tasks' });
    expect(commandTypo(program, argv('serv', '--port', '0'))).toEqual({ word: 'serv', command: 'serve' });
  });

  it('leaves goals alone: a quoted goal, a command, a word further away, an option', () => {
    expect(commandTypo(program, argv('most tests fail'))).toBeUndefined();
    expect(commandTypo(program, argv('sessions', 'list'))).toBeUndefined();
    expect(commandTypo(program, argv('refactor', 'the', 'parser'))).toBeUndefined();
    expect(commandTypo(program, argv('--help'))).toBeUndefined();
    expect(commandTypo(program, argv())).toBeUndefined();
  });
});

describe('a word after a command with subcommands that names none of them', () => {
  it('names the unknown subcommand and the nearest one', () => {
    expect(unknownSubcommand(program, argv('tasks', 'lst'))).toMatch(
      /^unknown command 'lst' for 'taskweave tasks' \(did you mean `taskweave tasks list`\?\); its commands: list, add,/,
    );
  });

  it('is no error for a subcommand, an option, or a command without subcommands', () => {
    expect(unknownSubcommand(program, argv('tasks', 'list'))).toBeUndefined();
    expect(unknownSubcommand(program, argv('tasks', '--all'))).toBeUndefined();
    expect(unknownSubcommand(program, argv('run', 'fix', 'it'))).toBeUndefined();
  });
});

describe('editDistance', () => {
  it('counts inserts, deletes, replacements and swaps', () => {
    expect(editDistance('sesions', 'sessions')).toBe(1);
    expect(editDistance('tsaks', 'tasks')).toBe(1);
    expect(editDistance('maxStep', 'maxSteps')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
    expect(nearestNames('acronim', ['acronym', 'anagram', 'atbash'], 2)).toEqual(['acronym']);
  });
});
