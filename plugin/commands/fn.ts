// `rollstamp fn` (and `rollstamp` with no arguments): the KRM function. ResourceList on stdin, ResourceList
// with results on stdout. Any error result: exit 1, one line on stderr, nothing on stdout.
import { InputError, UsageError } from '../errors.ts';
import type { Io } from '../io.ts';
import { readLiveSources } from '../live-sources.ts';
import { unknownFlagMessage } from '../flags.ts';
import { readInputs } from '../read-inputs.ts';
import { refuseTerminalStdin } from '../terminal-hint.ts';
import { configFrom, loadHashKey, maxInputBytes, plainObject, printWarnings, readModes, summarize, withOperatorLimits } from '../settings.ts';
import { apply, type Config, type FetchedSources, hasErrors, infoResult, parseResourceList, plan, type Plan, type ReadMode, type ResourceList, type Result, serializeResourceList, sortResults, splitResourceList, startPlan } from '../../function/index.ts';

export const FN_HELP = `Usage: rollstamp [fn]

Runs as a KRM function (kpt, kustomize): reads a ResourceList (YAML or JSON) on stdin and writes it back
with every target's pod template stamped and results in .results.

functionConfig: a RollstampConfig (apiVersion rollstamp.dev/v1alpha1, settings under spec) or a ConfigMap
(settings under data, what \`kpt fn eval -- key=value\` sends). Settings: targets, selector, annotationKey,
onMissing, defaultNamespace, hashKeyFile, kagent, hashScheme, live (never|missing|always: read Secrets and
ConfigMaps from the cluster of KUBECONFIG or the in-cluster service account). The env ROLLSTAMP_HASH_KEY
keys digests with HMAC-SHA256.

Examples:
  kpt fn eval ./pkg --exec "rollstamp" -- selector=restart-on-config-update=true
  kpt fn eval ./pkg --exec "rollstamp" --fn-config rollstamp-config.yaml

Exit status: 0 success, 1 an error result (one line on stderr says why; nothing on stdout).`;

export async function runFn(args: readonly string[], io: Io): Promise<number> {
  const [first] = args;
  if (first !== undefined && first.startsWith('-') && first !== '-') throw new UsageError(unknownFlagMessage(first.split('=')[0]!, [], 'fn'));
  if (first !== undefined) throw new UsageError(`fn takes no arguments (got ${first}); it reads a ResourceList on stdin`);
  refuseTerminalStdin('fn', [], io);
  const [stdin] = await readInputs(['-'], io, maxInputBytes(io));
  const text = stdin!.text;
  if (isManifestStream(text)) {
    throw new InputError('stdin is a manifest stream, not a ResourceList: rollstamp fn reads the one ResourceList kpt or kustomize sends; for plain manifests run rollstamp stamp -');
  }
  let fetched: { sources: FetchedSources | undefined } | undefined;
  for (const pass of readModes(io)) {
    const { rl, planned } = planList(text, pass, io);
    const hashKey = await loadHashKey(planned.config, io);
    fetched ??= { sources: await readLiveSources(planned, {}, io) };
    const sources = fetched.sources;
    const outcome = apply(planned, { ...(hashKey ? { hashKey } : {}), ...(sources ? { fetched: sources } : {}) });
    if (hasErrors(outcome.results)) throw new InputError(summarize(outcome.results));
    const out = serializeResourceList(rl, withEmptyNote(outcome.results, planned.items), outcome.changed);
    if (out === undefined) continue;
    // kustomize ignores `results` but sets LOG_TO_STDERR for container functions: show warnings there.
    if (io.env.LOG_TO_STDERR === 'true') printWarnings(outcome.results, io);
    await io.writeStdout(out);
    return 0;
  }
  throw new Error('internal: the ResourceList read in full could not be written');
}

/**
 * Plain manifests piped into `fn` (`kustomize build | rollstamp`): YAML whose top-level `kind:` lines name
 * something, none of them ResourceList. A JSON ResourceList has no such line, so it is never taken for one.
 */
function isManifestStream(text: string): boolean {
  const kinds = [...text.matchAll(/^kind:[ \t]*["']?([A-Za-z][\w]*)/gm)].map((m) => m[1]);
  return kinds.length > 0 && !kinds.includes('ResourceList');
}

/** Reads and plans the ResourceList. The items stay inside: once planned, a tree nothing reads again can be freed. */
function planList(text: string, pass: ReadMode, io: Io): { rl: ResourceList; planned: Plan } {
  const itemByItem = pass === 'fast' ? planItemByItem(text, io) : undefined;
  if (itemByItem) return itemByItem;
  const parsed = parseResourceList(text, pass);
  if ('results' in parsed) throw new InputError(summarize(parsed.results));
  const config: Config = withOperatorLimits(configFrom(plainObject(parsed.rl.functionConfig, 'functionConfig'), {}, 'functionConfig'), io);
  return { rl: parsed.rl, planned: plan(parsed.items, config) };
}

/**
 * Reads the items one at a time and plans each as it comes, so only one item's tree (and those the plan keeps)
 * exists at a time. Undefined when the list is outside the YAML subset, or its settings are refused: reading
 * it whole then gives the same plan, or the error it would report first.
 */
function planItemByItem(text: string, io: Io): { rl: ResourceList; planned: Plan } | undefined {
  const list = splitResourceList(text);
  if (!list) return undefined;
  let config: Config;
  try {
    config = withOperatorLimits(configFrom(plainObject(list.rl.functionConfig, 'functionConfig'), {}, 'functionConfig'), io);
  } catch {
    return undefined; // items that are not objects are reported before settings: the whole reading says which
  }
  const planner = startPlan(config);
  const results = list.read((items) => planner.add(items));
  if (results === false) return undefined;
  if (results.length > 0) throw new InputError(summarize(results));
  return { rl: list.rl, planned: planner.finish() };
}

/**
 * KRM convention: an empty ResourceList is not an error (a kpt pipeline may filter every item out); it comes
 * back as it went in, with an info result saying nothing was stamped. (`stamp` and `explain` refuse it.)
 */
function withEmptyNote(results: Result[], items: number): Result[] {
  if (items > 0) return results;
  return sortResults([...results, infoResult('EMPTY_INPUT', 'the ResourceList has no items: nothing to stamp')]);
}
