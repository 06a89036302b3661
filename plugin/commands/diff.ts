// `rollstamp diff OLD NEW` (#16): which targets a change between two renders rolls, and which sources and
// keys caused it. Both renders go through the same pipeline as `stamp`; only names, keys and digests are shown.
import { CONFIG_FLAGS, CONFIG_FLAGS_HELP, configFromFlags, liveFlags } from '../cli/config-flags.ts';
import { InputError, UsageError } from '../process/errors.ts';
import { flagsHelp, parseFlags, type FlagSpec } from '../cli/flags.ts';
import type { LiveSettings } from '../live/live-sources.ts';
import { readInputs } from '../inputs/read-inputs.ts';
import { summarize } from '../output/result-lines.ts';
import { stampFiles } from '../stamp-streams.ts';
import { refuseTerminalStdin } from '../cli/terminal-hint.ts';
import { DIFF_OUTPUT } from '../output/diff-formats.ts';
import { chosenFormat, outputFlag } from '../output/output-format.ts';
import { diffKagent1x, diffStamps, formatResult, hasErrors, keepForComparison, type ComparedTarget, type Kagent1xReport, type Result } from '../../function/index.ts';
import type { CommandModule } from './command.ts';
import type { RunIo } from '../settings/run-settings.ts';
import type { PluginConfig } from '../settings/plugin-config.ts';

/** `diff`'s own flags; the config flags follow them. */
export const DIFF_FLAGS: readonly FlagSpec[] = [
  outputFlag(DIFF_OUTPUT),
  { name: 'quiet', short: 'q', type: 'boolean', help: 'do not print warnings' },
];

export const DIFF_HELP = `Usage: rollstamp diff [flags] OLD NEW

Compares two renders of the same application — say the base and the head of a pull request — and prints
every target (workload, kagent Agent or ModelConfig) whose rollstamp.dev/hash would differ, and why: each
Secret, ConfigMap, producer or ModelConfig that changed (namespace/name), where it resolved (bundle,
producer, cluster, missing), and which of the keys the target uses changed, were added or were removed.
Targets that appear or disappear are listed as such. A workload whose stamp does not roll its pods a few at
a time says how it does: rolls (recreate), (on-delete), (next-job) or (never) (docs/kinds.md). Prints names,
keys and digests only, never a value.

Renders that hide values — Secrets masked as Argo CD's API shows them (++++++++, what argocd-diff-preview
writes), or a source neither render holds — cannot be compared by value: a target that uses one rolls when
the stamp its render already carries changed, and the hidden Secret is listed (values masked); one with no
stamp in a render to compare "may roll" (docs/argocd-diff-preview.md).

OLD and NEW are files or directories (read like \`rollstamp stamp\` reads them); one of them may be - (stdin).
Both are read with the same config flags.

kagent 1.x Agents (api.kagent.dev) are never stamped: kagent compiles its own revisions. They are listed
apart, by what kagent 1.0 will do: \`will not compile\` (a consumed key or object removed or renamed, a
credential mode its egress gateway cannot serve, an invalid output schema; the field is named), \`recompiles\`
(a spec, a prompt ConfigMap, a compiled ConfigMap key, the output schema), \`applies live\` (a credential the
egress gateway injects: an API key, an MCP header Secret, a git credentialRef). Each row names the chain
(Agent › AgentTemplate › ModelConfig › Secret) and the consumed keys that changed.

Flags:
${flagsHelp(DIFF_FLAGS)}
${CONFIG_FLAGS_HELP}

Examples:
  git show main:deploy/app.yaml > /tmp/old.yaml
  rollstamp diff /tmp/old.yaml deploy/app.yaml
  kustomize build overlays/prod | rollstamp diff -o markdown rendered-main.yaml - > comment.md

  rollstamp diff --config examples/basic/rollstamp.yaml old/ new/
  1 target rolls.

  TARGET                       STAMP  SOURCE                      FROM    KEYS
  apps/v1/Deployment/shop/web  rolls  Secret shop/db-credentials  bundle  changed: password

Exit status: 0 nothing rolls, appears, disappears, may roll, recompiles or applies live; 3 something does
(listed on stdout); 4 a kagent 1.x Agent will not compile (listed on stdout, with anything else that
changes); 1 invalid input in either render (one line on stderr, nothing on stdout); 2 bad usage.`;

/** Exit status when a target rolls, appears or disappears: 3, as `stamp --check`. */
const SOMETHING_ROLLS = 3;
/** Exit status when a kagent 1.x Agent will not compile (#35): a report is printed, and CI gating fails on it. */
const WILL_NOT_COMPILE = 4;

/** Runs `diff`: reads both renders, stamps each in memory, compares the target reports. */
export async function runDiff(args: readonly string[], io: RunIo): Promise<number> {
  const { values, positionals } = parseFlags(args, [...DIFF_FLAGS, ...CONFIG_FLAGS], 'diff');
  const format = chosenFormat(DIFF_OUTPUT, values);
  if (positionals.length !== 2) throw new UsageError('diff needs two renders: rollstamp diff OLD NEW (one of them may be -)');
  const [oldPath, newPath] = positionals as [string, string];
  if (oldPath === '-' && newPath === '-') throw new UsageError('only one of OLD and NEW can be - (standard input)');
  refuseTerminalStdin('diff', [oldPath, newPath], io);
  const config = await configFromFlags(values, io);
  const live = liveFlags(values);
  // Of OLD only what the comparison reads is kept, apart from its text, plan and other reports; they and hashing's
  // garbage go before NEW is read: the worker collects once more (#37).
  const before = await stampRender('OLD', oldPath, config, io, live, true);
  io.collectGarbage?.();
  const after = await stampRender('NEW', newPath, config, io, live, false);
  if (!values.quiet) for (const line of new Set([...before.warnings, ...after.warnings])) io.writeStderr(line);
  const diff = diffStamps(before.targets, after.targets);
  // kagent 1.x Agents are previewed, not stamped: listed apart, and only when either render has one (#20).
  const agents = before.agents?.length || after.agents?.length ? diffKagent1x(before.agents ?? [], after.agents ?? []) : undefined;
  // With only kagent 1.x Agents in both renders, "Nothing rolls." would only say that nothing is stamped.
  const stamped = before.targets.length + after.targets.length > 0;
  await io.writeStdout(format.render({ diff, ...(agents ? { agents } : {}), stamped }));
  if ((agents?.summary['will-not-compile'] ?? 0) > 0) return WILL_NOT_COMPILE;
  return diff.targets.length > 0 || (agents?.agents.length ?? 0) > 0 ? SOMETHING_ROLLS : 0;
}

/** What the comparison reads of one render: its targets, kagent 1.x Agents and warnings. */
interface Rendered {
  targets: readonly ComparedTarget[];
  agents?: Kagent1xReport['agents'];
  /** Each warning as the line printed, in order; a warning about an object both renders hold is printed once. */
  warnings: readonly string[];
}

/**
 * One render read and stamped in memory, its streams not written (nothing prints them); any error result fails
 * the whole run (fail closed).
 * - `keep`: the render is kept while the other is read: its targets and warnings are copied apart from its input
 *   text, plan and other reports (keepForComparison). Copied here, so that only the copy outlives this call: a
 *   value awaited in runDiff may stay in its suspended frame until the next render's await returns.
 */
async function stampRender(which: string, path: string, config: PluginConfig, io: RunIo, live: LiveSettings, keep: boolean): Promise<Rendered> {
  const files = await readInputs([path], io, io.settings.maxInputBytes);
  const { results, targets, kagent1x } = await stampFiles(files, config, io, { live, keyDigests: true, kagentPreview: true, write: false });
  if (hasErrors(results)) throw new InputError(`${which} (${path === '-' ? '<stdin>' : path}): ${summarize(results)}`);
  const agents = kagent1x ? { agents: kagent1x.agents } : {};
  if (!keep) return { targets, warnings: warningLines(results), ...agents };
  const kept = keepForComparison(targets, warningLines(results));
  return { targets: kept.targets, warnings: kept.lines, ...agents };
}

/** A render's warnings as printed. Masked Secrets are left out: the report says what they mean for a diff (#38). */
function warningLines(results: readonly Result[]): string[] {
  return results.filter((r) => r.severity === 'warning' && r.tags.code !== 'MASKED_VALUES').map((r) => `rollstamp: ${formatResult(r)}\n`);
}

/** `rollstamp diff` for the command list (commands/index.ts). */
export const DIFF_COMMAND: CommandModule = { help: DIFF_HELP, flags: [...DIFF_FLAGS, ...CONFIG_FLAGS], run: runDiff };
