import type { Command } from 'commander';

/** The shells `taskweave completion` writes a script for. */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

interface CommandShape {
  name: string;
  description: string;
  options: { long?: string; short?: string; description: string }[];
  subcommands: CommandShape[];
}

/**
 * A completion script for a shell, generated from the program's own commands and options, so
 * that it never lists an option that does not exist. zsh uses the bash script through
 * bashcompinit.
 */
export function completionScript(program: Command, shell: CompletionShell): string {
  const shape = shapeOf(program);
  switch (shell) {
    case 'bash':
      return bashScript(shape);
    case 'zsh':
      return `#compdef taskweave\nautoload -U +X bashcompinit && bashcompinit\n${bashScript(shape)}`;
    case 'fish':
      return fishScript(shape);
  }
}

function shapeOf(command: Command): CommandShape {
  return {
    name: command.name(),
    description: command.description().split('\n')[0] ?? '',
    options: [
      ...command.options.map((option) => ({
        long: option.long,
        short: option.short,
        description: option.description,
      })),
      { long: '--help', short: '-h', description: 'show the help' },
    ],
    subcommands: command.commands.map(shapeOf).filter((sub) => sub.name !== 'help'),
  };
}

function flags(shape: CommandShape): string {
  return shape.options.flatMap((option) => [option.long, option.short].filter(Boolean)).join(' ');
}

function bashScript(program: CommandShape): string {
  const cases = program.subcommands.map((command) => {
    const nested = command.subcommands.map(
      (sub) => `        ${command.name}/${sub.name}) opts="${flags(sub)}" ;;`,
    );
    const subNames = command.subcommands.map((sub) => sub.name).join(' ');
    return [
      `      ${command.name})`,
      subNames === ''
        ? `        opts="${flags(command)}"`
        : `        if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=( $(compgen -W "${subNames}" -- "$cur") ); return; fi\n        case "${command.name}/\${COMP_WORDS[2]}" in\n${nested.join('\n')}\n        esac`,
      '        ;;',
    ].join('\n');
  });
  return `# taskweave completion for bash (eval "$(taskweave completion bash)" in ~/.bashrc)
_taskweave() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local opts=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "${program.subcommands.map((command) => command.name).join(' ')} ${flags(program)}" -- "$cur") )
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases.join('\n')}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
  else
    COMPREPLY=( $(compgen -f -- "$cur") )
  fi
}
complete -o filenames -F _taskweave taskweave
`;
}

function fishScript(program: CommandShape): string {
  const lines = [
    '# taskweave completion for fish (taskweave completion fish > ~/.config/fish/completions/taskweave.fish)',
  ];
  const quote = (text: string) => `'${text.replaceAll("'", "\\'")}'`;
  const optionLines = (condition: string, shape: CommandShape) =>
    shape.options.map(
      (option) =>
        `complete -c taskweave -n ${quote(condition)}${option.long ? ` -l ${option.long.slice(2)}` : ''}${option.short ? ` -s ${option.short.slice(1)}` : ''} -d ${quote(option.description)}`,
    );
  for (const command of program.subcommands) {
    lines.push(
      `complete -c taskweave -f -n '__fish_use_subcommand' -a ${command.name} -d ${quote(command.description)}`,
    );
    for (const sub of command.subcommands) {
      lines.push(
        `complete -c taskweave -f -n '__fish_seen_subcommand_from ${command.name}' -a ${sub.name} -d ${quote(sub.description)}`,
      );
      lines.push(
        ...optionLines(
          `__fish_seen_subcommand_from ${command.name}; and __fish_seen_subcommand_from ${sub.name}`,
          sub,
        ),
      );
    }
    if (command.subcommands.length === 0)
      lines.push(...optionLines(`__fish_seen_subcommand_from ${command.name}`, command));
  }
  return `${lines.join('\n')}\n`;
}
