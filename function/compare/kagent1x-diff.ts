// Compare stage for `rollstamp diff` over kagent 1.x (#20): two runs' Agent previews in, which Agents get a new
// revision (`recompiles`) and which only see a credential the egress gateway reads live (`applies-live`) out,
// with the chain to each changed input and the consumed keys that changed. Names and keys only.
import { fingerprintsOf } from '../hash/kagent1x-preview.ts';
import { byteOrder } from '../model/order.ts';
import type { Kagent1xAgent, Kagent1xEffect, Kagent1xInput } from '../model/kagent1x.ts';
import type { ResourceRef } from '../model/results.ts';
import { identityOf, type KeyChange, type SourceChangeKind } from './stamp-diff.ts';

/** How an Agent differs: a new revision, a live credential only, or it is only in NEW or only in OLD. */
export type AgentChange = 'recompiles' | 'applies-live' | 'appears' | 'disappears';

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
  /** A spec changed (an Agent, AgentTemplate, Harness, ModelConfig, RemoteMCPServer or EgressPolicy). */
  spec?: true;
  /** A ConfigMap kagent hashes whole: its `data` changed (the keys say which). */
  whole?: true;
  keys: KeyChange[];
}

export interface AgentDiff {
  resourceRef: ResourceRef;
  change: AgentChange;
  /** Empty for Agents that appear or disappear. */
  inputs: InputChange[];
}

export interface Kagent1xDiff {
  agents: AgentDiff[];
  summary: Record<AgentChange, number>;
}

const OBJECT_KINDS: ReadonlySet<string> = new Set(['Agent', 'AgentTemplate', 'Harness', 'ModelConfig', 'RemoteMCPServer', 'EgressPolicy']);

/**
 * Every 1.x Agent whose revision inputs differ between two runs, in byte order of its identity.
 * - An Agent recompiles when an input that kagent hashes changed: a spec, a ConfigMap's whole `data`, a
 *   consumed Secret or ConfigMap key, or which inputs it reaches. It applies live when only credentials the
 *   egress gateway injects changed. A key no Agent consumes recompiles nothing; neither does metadata.
 */
export function diffKagent1x(oldAgents: readonly Kagent1xAgent[], newAgents: readonly Kagent1xAgent[]): Kagent1xDiff {
  const olds = byIdentity(oldAgents);
  const news = byIdentity(newAgents);
  const agents: AgentDiff[] = [];
  for (const id of [...new Set([...olds.keys(), ...news.keys()])].sort(byteOrder)) {
    const o = olds.get(id);
    const n = news.get(id);
    if (o && n) {
      const inputs = diffInputs(o.inputs, n.inputs);
      if (inputs.length === 0) continue;
      const change = inputs.some((i) => i.effect === 'recompiles') ? 'recompiles' : 'applies-live';
      agents.push({ resourceRef: n.resourceRef, change, inputs });
    } else if (n) agents.push({ resourceRef: n.resourceRef, change: 'appears', inputs: [] });
    else if (o) agents.push({ resourceRef: o.resourceRef, change: 'disappears', inputs: [] });
  }
  const summary = { recompiles: 0, 'applies-live': 0, appears: 0, disappears: 0 };
  for (const a of agents) summary[a.change]++;
  return { agents, summary };
}

function byIdentity(agents: readonly Kagent1xAgent[]): Map<string, Kagent1xAgent> {
  const out = new Map<string, Kagent1xAgent>();
  for (const a of agents) {
    // kagent.dev/v1alpha3 (the pre-releases) and api.kagent.dev name the same Agent across a migration.
    const id = identityOf(a.resourceRef, (group) => (group === 'kagent.dev' ? 'api.kagent.dev' : group));
    if (!out.has(id)) out.set(id, a);
  }
  return out;
}

const inputId = (i: Kagent1xInput): string => `${i.chain.join(' › ')}|${i.effect}|${i.field}`;

function diffInputs(oldInputs: readonly Kagent1xInput[], newInputs: readonly Kagent1xInput[]): InputChange[] {
  const olds = new Map(oldInputs.map((i) => [inputId(i), i]));
  const news = new Map(newInputs.map((i) => [inputId(i), i]));
  const out: InputChange[] = [];
  for (const id of [...new Set([...olds.keys(), ...news.keys()])].sort(byteOrder)) {
    const o = olds.get(id);
    const n = news.get(id);
    const some = (n ?? o)!;
    const base = { chain: some.chain, kind: some.kind, namespace: some.namespace, name: some.name, effect: some.effect };
    if (o && n) {
      const po = fingerprintsOf(o);
      const pn = fingerprintsOf(n);
      const keys = diffKeys(po.keys, pn.keys);
      const wholeChanged = po.whole !== pn.whole;
      if (!wholeChanged && keys.length === 0 && o.from === n.from) continue;
      const spec = OBJECT_KINDS.has(some.kind) && wholeChanged ? { spec: true as const } : {};
      const whole = !OBJECT_KINDS.has(some.kind) && some.whole && wholeChanged ? { whole: true as const } : {};
      out.push({ ...base, change: 'changed', from: { old: o.from, new: n.from }, ...spec, ...whole, keys });
    } else if (n) out.push({ ...base, change: 'added', from: { new: n.from }, keys: n.keys.filter((k) => k.present).map((k) => ({ key: k.key, change: 'added' })) });
    else if (o) out.push({ ...base, change: 'removed', from: { old: o.from }, keys: o.keys.filter((k) => k.present).map((k) => ({ key: k.key, change: 'removed' })) });
  }
  return out;
}

function diffKeys(olds: ReadonlyMap<string, string>, news: ReadonlyMap<string, string>): KeyChange[] {
  const out: KeyChange[] = [];
  for (const key of [...new Set([...olds.keys(), ...news.keys()])].sort(byteOrder)) {
    const o = olds.get(key);
    const n = news.get(key);
    if (o !== undefined && n !== undefined) {
      if (o !== n) out.push({ key, change: 'changed' });
    } else out.push({ key, change: n !== undefined ? 'added' : 'removed' });
  }
  return out;
}
