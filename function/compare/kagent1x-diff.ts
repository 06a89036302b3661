// Compare stage for `rollstamp diff` over kagent 1.x (#20, #35): two runs' Agent previews in; out, the Agents
// kagent 1.0.x will not compile (naming what fails), those that get a new revision (`recompiles`), and those that
// only see a credential the egress gateway reads live (`applies-live`), with the chain to each changed input and
// the consumed keys that changed. Names and keys only.
import { fingerprintsOf } from '../hash/kagent1x-preview.ts';
import type { Kagent1xAgent, Kagent1xEffect, Kagent1xFailure, Kagent1xInput } from '../model/kagent1x.ts';
import type { ResourceRef } from '../model/results.ts';
import type { KeyChange, SourceChangeKind } from './stamp-diff.ts';
import { diffKeyMaps, identityOf, matchById } from './match-identity.ts';

/** How an Agent differs: it will not compile, a new revision, a live credential only, only in NEW or only in OLD. */
export type AgentChange = 'will-not-compile' | 'recompiles' | 'applies-live' | 'appears' | 'disappears';

/** One changed input of an Agent: its chain, what it does, how it changed, and the keys that changed. */
export interface InputChange {
  /** `Agent agents/lead › AgentTemplate agents/lead › ModelConfig agents/openai › Secret agents/openai-key`. */
  chain: string[];
  kind: string;
  namespace: string;
  name: string;
  effect: Kagent1xEffect;
  /** `changed`: its spec, data or a consumed key; `added`/`removed`: only NEW / only OLD reaches it. */
  change: SourceChangeKind;
  /** Where it resolved in OLD and in NEW. */
  from: { old?: string; new?: string };
  /** A spec (or the UID) changed (an Agent, AgentTemplate, Harness, ModelConfig, RemoteMCPServer or EgressPolicy). */
  spec?: true;
  /** A ConfigMap kagent hashes whole: its `data` (or UID) changed (the keys say which). */
  whole?: true;
  /** A gateway credential's Secret was deleted and created again. */
  recreated?: true;
  keys: KeyChange[];
}

export interface AgentDiff {
  resourceRef: ResourceRef;
  change: AgentChange;
  /** Empty for Agents that appear or disappear. */
  inputs: InputChange[];
  /** What keeps it from compiling in NEW; empty unless `change` is `will-not-compile`. */
  failures: Kagent1xFailure[];
}

export interface Kagent1xDiff {
  agents: AgentDiff[];
  summary: Record<AgentChange, number>;
}

const OBJECT_KINDS: ReadonlySet<string> = new Set(['Agent', 'AgentTemplate', 'Harness', 'ModelConfig', 'RemoteMCPServer', 'EgressPolicy']);

/**
 * Every 1.x Agent whose revision inputs or compile failures differ between two runs, in byte order of its identity.
 * - Will not compile: NEW shows a failure (a consumed key absent, a credential mode kagent 1.0 cannot serve, an
 *   invalid output schema) and something changed, or an input the old render held is gone from the new one.
 * - Recompiles: an input kagent hashes changed — a spec or UID, a prompt ConfigMap's `data` or UID, a compiled
 *   ConfigMap key, the output schema as canonical JSON, or which inputs the Agent reaches.
 * - Applies live: only credentials the egress gateway injects changed (a key, or the Secret recreated).
 * - Nothing: a key no Agent consumes, metadata, binaryData, a reformatted output schema.
 */
export function diffKagent1x(oldAgents: readonly Kagent1xAgent[], newAgents: readonly Kagent1xAgent[]): Kagent1xDiff {
  const agents: AgentDiff[] = [];
  for (const { old: o, new: n } of matchById(oldAgents, newAgents, agentId, 'first')) {
    if (o && n) {
      const inputs = diffInputs(o.inputs, n.inputs);
      const failures = [...n.failures, ...removals(o.inputs, n.inputs)];
      const newFailure = failures.some((f) => !o.failures.some((of) => failureId(of) === failureId(f)));
      if (failures.length > 0 && (inputs.length > 0 || newFailure)) agents.push({ resourceRef: n.resourceRef, change: 'will-not-compile', inputs, failures });
      else if (inputs.length > 0) agents.push({ resourceRef: n.resourceRef, change: inputs.some((i) => i.effect === 'recompiles') ? 'recompiles' : 'applies-live', inputs, failures: [] });
    } else if (n) agents.push({ resourceRef: n.resourceRef, change: n.failures.length > 0 ? 'will-not-compile' : 'appears', inputs: [], failures: n.failures });
    else if (o) agents.push({ resourceRef: o.resourceRef, change: 'disappears', inputs: [], failures: [] });
  }
  const summary = { 'will-not-compile': 0, recompiles: 0, 'applies-live': 0, appears: 0, disappears: 0 };
  for (const a of agents) summary[a.change]++;
  return { agents, summary };
}

// kagent.dev/v1alpha3 (the pre-releases) and api.kagent.dev name the same Agent across a migration.
const agentId = (a: Kagent1xAgent): string => identityOf(a.resourceRef, (group) => (group === 'kagent.dev' ? 'api.kagent.dev' : group));

const inputId = (i: Kagent1xInput): string => `${i.chain.join(' › ')}|${i.effect}|${i.field}`;
const failureId = (f: Kagent1xFailure): string => `${f.code}|${f.chain.join(' › ')}|${f.field}|${f.reason}`;
const HELD: ReadonlySet<string> = new Set(['bundle', 'producer']);

/** Inputs the old render held (from the bundle or a producer) that the new one references but lacks. */
function removals(oldInputs: readonly Kagent1xInput[], newInputs: readonly Kagent1xInput[]): Kagent1xFailure[] {
  const olds = new Map(oldInputs.map((i) => [inputId(i), i]));
  const out: Kagent1xFailure[] = [];
  for (const n of newInputs) {
    const o = olds.get(inputId(n));
    if (!o || n.from !== 'missing' || !HELD.has(o.from)) continue;
    const what = `${n.kind} ${n.namespace}/${n.name}`;
    out.push({ code: 'removed', chain: n.chain, field: n.field, reason: `${what} is in the old render and not in the new one (removed or renamed)` });
  }
  return out;
}

function diffInputs(oldInputs: readonly Kagent1xInput[], newInputs: readonly Kagent1xInput[]): InputChange[] {
  const out: InputChange[] = [];
  for (const { old: o, new: n } of matchById(oldInputs, newInputs, inputId, 'last')) {
    const some = (n ?? o)!;
    const base = { chain: some.chain, kind: some.kind, namespace: some.namespace, name: some.name, effect: some.effect };
    if (o && n) {
      const po = fingerprintsOf(o);
      const pn = fingerprintsOf(n);
      const keys = diffKeyMaps(po.keys, pn.keys);
      const wholeChanged = po.whole !== pn.whole;
      // A UID is known only where the render carries one; one appearing or going is not a recreation.
      const recreated = po.uid !== undefined && pn.uid !== undefined && po.uid !== '' && pn.uid !== '' && po.uid !== pn.uid;
      if (!wholeChanged && !recreated && keys.length === 0 && o.from === n.from) continue;
      const spec = OBJECT_KINDS.has(some.kind) && wholeChanged ? { spec: true as const } : {};
      const whole = !OBJECT_KINDS.has(some.kind) && some.whole && wholeChanged ? { whole: true as const } : {};
      out.push({ ...base, change: 'changed', from: { old: o.from, new: n.from }, ...spec, ...whole, ...(recreated ? { recreated: true as const } : {}), keys });
    } else if (n) out.push({ ...base, change: 'added', from: { new: n.from }, keys: n.keys.filter((k) => k.present).map((k) => ({ key: k.key, change: 'added' })) });
    else if (o) out.push({ ...base, change: 'removed', from: { old: o.from }, keys: o.keys.filter((k) => k.present).map((k) => ({ key: k.key, change: 'removed' })) });
  }
  return out;
}

