// `rollstamp completion bash|zsh|fish`: a shell completion script, generated from the command records (names,
// one-line summaries) and each command's flag table, so a new command or flag completes without an edit here.
// Flags with a closed set of values (`--targets opted-in|all`) complete those values; other arguments complete
// file names.
import { UsageError } from '../process/errors.ts';
import type { CommandModule, CommandRecord } from './command.ts';
import type { FlagSpec } from '../cli/flags.ts';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export const COMPLETION_HELP = `Usage: rollstamp completion bash|zsh|fish

Prints a completion script for the shell: commands, each command's flags, and the values of flags that take
one of a set (--targets, --on-missing, -o …).

Examples:
  source <(rollstamp completion bash)                        # in ~/.bashrc
  rollstamp completion zsh > "\${fpath[1]}/_rollstamp"       # then restart zsh
  rollstamp completion fish > ~/.config/fish/completions/rollstamp.fish`;

/** A command as the scripts need it: its name, its summary and its flags. */
export interface CommandFlags {
  name: string;
  description: string;
  flags: readonly FlagSpec[];
  /** Offer file names for its arguments. */
  files: boolean;
}

/** Each command with its summary and its flag table (loading every command's module). */
async function commandTable(commands: readonly CommandRecord[]): Promise<CommandFlags[]> {
  return Promise.all(commands.map(async (c) => ({ name: c.name, description: c.summary, flags: (await c.load()).flags, files: c.noFileArgs !== true })));
}

const words = (f: FlagSpec): string[] => [`--${f.name}`, ...(f.short ? [`-${f.short}`] : [])];
const firstLine = (text: string): string => text.split('\n')[0]!;
const fishQuote = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** Flags with a value set, as `case` arms on `COMMAND:FLAG`: `stamp:--targets) values="opted-in all" ;;`. */
function valueArms(commands: readonly CommandFlags[]): string[] {
  return commands.flatMap((c) => c.flags.filter((f) => f.values).map((f) => `${words(f).map((w) => `${c.name}:${w}`).join('|')}) values="${f.values!.join(' ')}" ;;`));
}

function bash(commands: readonly CommandFlags[]): string {
  return `# rollstamp completion for bash: source <(rollstamp completion bash)
_rollstamp() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" flags="" values=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${commands.map((c) => c.name).join(' ')} help --help --version" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}:$prev" in
${valueArms(commands).map((a) => `    ${a}`).join('\n')}
  esac
  if [ -n "$values" ]; then COMPREPLY=($(compgen -W "$values" -- "$cur")); return; fi
  case "\${COMP_WORDS[1]}" in
${commands.map((c) => `    ${c.name}) flags="${c.flags.flatMap(words).join(' ')} --help" ;;`).join('\n')}
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$flags" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -o filenames -F _rollstamp rollstamp
`;
}

function zsh(commands: readonly CommandFlags[]): string {
  return `#compdef rollstamp
# rollstamp completion for zsh: rollstamp completion zsh > "\${fpath[1]}/_rollstamp"
_rollstamp() {
  local values="" flags=""
  if (( CURRENT == 2 )); then
    local -a cmds=(${commands.map((c) => `'${c.name}:${c.description.replace(/'/g, "'\\''").replace(/:/g, '\\:')}'`).join(' ')})
    _describe command cmds
    return
  fi
  case "$words[2]:$words[CURRENT-1]" in
${valueArms(commands).map((a) => `    ${a}`).join('\n')}
  esac
  if [[ -n "$values" ]]; then compadd -- \${=values}; return; fi
  case "$words[2]" in
${commands.map((c) => `    ${c.name}) flags="${c.flags.flatMap(words).join(' ')} --help" ;;`).join('\n')}
  esac
  if [[ "$PREFIX" == -* ]]; then compadd -- \${=flags}; else _files; fi
}
if [[ "$funcstack[1]" == _rollstamp ]]; then _rollstamp "$@"; else compdef _rollstamp rollstamp; fi
`;
}

function fish(commands: readonly CommandFlags[]): string {
  const lines = ['# rollstamp completion for fish: rollstamp completion fish > ~/.config/fish/completions/rollstamp.fish', 'complete -c rollstamp -f'];
  for (const c of commands) lines.push(`complete -c rollstamp -n __fish_use_subcommand -a ${c.name} -d ${fishQuote(c.description)}`);
  for (const c of commands) {
    for (const f of c.flags) {
      const value = f.type === 'boolean' ? '' : f.values ? ` -x -a ${fishQuote(f.values.join(' '))}` : ' -r -F';
      lines.push(`complete -c rollstamp -n '__fish_seen_subcommand_from ${c.name}' -l ${f.name}${f.short ? ` -s ${f.short}` : ''}${value} -d ${fishQuote(firstLine(f.help))}`);
    }
    if (c.files) lines.push(`complete -c rollstamp -n '__fish_seen_subcommand_from ${c.name}' -F`);
  }
  return `${lines.join('\n')}\n`;
}

/** The script for `shell`, for these commands. Pure: the records' flags already loaded. */
export function completionScript(shell: Shell, commands: readonly CommandFlags[]): string {
  return { bash, zsh, fish }[shell](commands);
}

/** `rollstamp completion` over `commands` (the command list hands itself in: no import cycle). */
export function completionCommand(commands: readonly CommandRecord[]): CommandModule {
  return {
    help: COMPLETION_HELP,
    flags: [],
    run: async (args, io) => {
      const [shell, ...rest] = args;
      if (shell === undefined || !SHELLS.includes(shell as Shell)) throw new UsageError(`completion needs a shell: ${SHELLS.join(', ')}${shell === undefined ? '' : ` (got ${JSON.stringify(shell)})`}`);
      if (rest.length > 0) throw new UsageError(`completion takes one shell (got ${rest[0]} too)`);
      await io.writeStdout(completionScript(shell as Shell, await commandTable(commands)));
      return 0;
    },
  };
}
