// Hash stage, kagent 1.x (#20): every 1.x Agent's revision inputs — the objects whose spec counts and the
// Secret and ConfigMap keys it consumes, each with the chain that led there — as kagent's BuildProvenance
// (adkconfig/builder.go@d48354a6) sees them: a Secret counts only for its consumed keys, a ConfigMap read by
// systemPromptFrom, outputSchemaFrom or promptTemplate.dataSources counts whole (`data`, not `binaryData`).
// Fingerprints that `diff` compares stay in memory (`fingerprintsOf`): no output ever holds one.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../model/canonical.ts';
import { dataEntries } from '../resolve/bundle.ts';
import { resolveSource, type ResolveContext } from '../resolve/index.ts';
import { KAGENT1X_KINDS } from '../kinds/kagent1x-agent.ts';
import { ENABLED_ANNOTATION } from '../model/constants.ts';
import { byteOrder } from '../model/order.ts';
import { errorResult, result, type Result, type Subject } from '../model/results.ts';
import { NodeReader, type FieldPath, type MapNode } from '../model/nodes.ts';
import { sourceId, type KObject, type SourceEntries } from '../model/object.ts';
import { isSafeToRead } from '../model/safety.ts';
import type { Config } from '../model/config.ts';
import type { Resolution } from '../model/dependencies.ts';
import type { Kagent1xEdge } from '../discover/kagent1x-refs.ts';
import type { Kagent1xAgent, Kagent1xInput } from '../model/kagent1x.ts';

/** What `diff` compares of one input: the spec or whole data, and each consumed key. Never printed. */
export interface Fingerprints {
  whole?: string;
  keys: ReadonlyMap<string, string>;
}

const PRINTS = new WeakMap<Kagent1xInput, Fingerprints>();

/** The fingerprints of an input this module reported (empty for one it did not). */
export const fingerprintsOf = (input: Kagent1xInput): Fingerprints => PRINTS.get(input) ?? { keys: new Map() };

export interface PreviewContext extends ResolveContext {
  config: Config;
}

/** `Kind namespace/name`, as chains print them. */
export const labelOf = (kind: string, namespace: string, name: string): string => `${kind} ${namespace}/${name}`;

/** 1.x objects by `Kind/namespace/name`. */
export type Kagent1xLookup = ReadonlyMap<string, KObject[]>;

/**
 * The lookup of a plan's 1.x objects.
 * - Only the kinds the graph walks (KAGENT1X_KINDS); an id that occurs twice keeps both (an error when named).
 */
export function lookupOf(objects: readonly KObject[]): Kagent1xLookup {
  const out = new Map<string, KObject[]>();
  for (const obj of objects) {
    if (!KAGENT1X_KINDS.has(obj.kind)) continue;
    const id = `${obj.kind}/${obj.namespace}/${obj.name}`;
    out.set(id, [...(out.get(id) ?? []), obj]);
  }
  return out;
}

/**
 * Each 1.x Agent in `objects` (input order) with its inputs, in the order the graph is walked; Agents opted out
 * with `rollstamp.dev/enabled: "false"` are left out.
 * - An object a reference names but the input lacks follows onMissing (MISSING_OBJECT, naming the field); one
 *   that occurs twice, or a sub-agent cycle, is a KAGENT_REFERENCE error; a field of the wrong type, WRONG_TYPE.
 */
export function previewAgents(objects: readonly KObject[], lookup: Kagent1xLookup, ctx: PreviewContext): Kagent1xAgent[] {
  const walker = new Walker(lookup, ctx);
  return objects.filter((o) => o.kind === 'Agent' && KAGENT1X_KINDS.has(o.kind) && !isOptedOut(o)).flatMap((agent) => walker.agent(agent));
}

/** An Agent with `rollstamp.dev/enabled: "false"` is left out of the preview, as opted-out objects are everywhere. */
function isOptedOut(obj: KObject): boolean {
  return (obj.annotations.get(ENABLED_ANNOTATION) ?? obj.labels.get(ENABLED_ANNOTATION)) === 'false';
}

class Walker {
  /** Each object's edges, read once (so its problems are reported once). */
  private readonly edges = new Map<KObject, { spec?: MapNode; edges: Kagent1xEdge[] }>();
  private readonly reported = new Set<string>();
  /** The Agent being walked, and whether its inputs already passed the cap. */
  private current?: KObject;
  private capped = false;

  constructor(
    private readonly lookup: Kagent1xLookup,
    private readonly ctx: PreviewContext,
  ) {}

  agent(agent: KObject): Kagent1xAgent[] {
    const read = this.read(agent);
    if (!read) return [];
    this.current = agent;
    this.capped = false;
    const label = labelOf('Agent', agent.namespace, agent.name);
    const inputs: Kagent1xInput[] = [objectInput([label], 'Agent', agent, 'spec', read.spec)];
    this.walk(read.edges, agent, [label], new Set(), inputs);
    return [{ resourceRef: agent.subject.ref!, ...(agent.subject.file ? { file: agent.subject.file } : {}), inputs }];
  }

  private read(obj: KObject): { spec?: MapNode; edges: Kagent1xEdge[] } | undefined {
    const known = this.edges.get(obj);
    if (known) return known;
    if (!isSafeToRead(obj, this.ctx.results)) return undefined;
    const reader = new NodeReader(obj.subject, this.ctx.results);
    const spec = reader.mapIn(obj.item.node, [], ['spec']);
    if (!spec && obj.kind === 'Agent') reader.required(['spec'], 'a map');
    const row = KAGENT1X_KINDS.get(obj.kind)!;
    const out = { ...(spec ? { spec } : {}), edges: spec ? row.edges(spec, ['spec'], reader) : [] };
    this.edges.set(obj, out);
    return out;
  }

  private walk(edges: readonly Kagent1xEdge[], holder: KObject, chain: string[], stack: ReadonlySet<string>, out: Kagent1xInput[]): void {
    const ns = holder.namespace;
    for (const edge of edges) {
      if (this.capped || out.length > this.ctx.config.maxReferences) {
        // A graph of shared sub-agent templates can fan out: bounded as a target's references are (#12).
        const message = `the Agent has more than ${this.ctx.config.maxReferences} revision inputs (ROLLSTAMP_MAX_REFERENCES)`;
        if (!this.capped) this.report(errorResult('TOO_MANY_REFERENCES', message, this.current!.subject));
        this.capped = true;
        return;
      }
      if (edge.to === 'inline') {
        // An inline spec is part of the holder's spec; its references are the holder's.
        const reader = new NodeReader(holder.subject, this.ctx.results);
        this.walk(KAGENT1X_KINDS.get(edge.kind)!.edges(edge.spec, edge.path as FieldPath, reader), holder, chain, stack, out);
      } else if (edge.to === 'source') {
        out.push(this.sourceInput(edge, holder, chain));
      } else {
        const label = labelOf(edge.kind, ns, edge.name);
        const id = `${edge.kind}/${ns}/${edge.name}`;
        if (stack.has(id)) {
          this.report(errorResult('KAGENT_REFERENCE', `sub-agent cycle: ${[...chain, label].join(' › ')}`, holder.subject, edge.field));
          continue;
        }
        const found = this.lookup.get(id) ?? [];
        if (found.length !== 1) {
          if (found.length > 1) this.report(errorResult('KAGENT_REFERENCE', `${label} appears ${found.length} times in the input`, found[0]!.subject));
          else this.missing(`${label} is not in the input`, holder.subject, edge.field);
          out.push({ chain: [...chain, label], kind: edge.kind, namespace: ns, name: edge.name, effect: 'recompiles', field: edge.field, from: found.length > 1 ? 'invalid' : 'missing', whole: false, keys: [] });
          continue;
        }
        const obj = found[0]!;
        const read = this.read(obj);
        out.push(objectInput([...chain, label], edge.kind, obj, edge.field, read?.spec));
        if (read) this.walk(read.edges, obj, [...chain, label], new Set([...stack, id]), out);
      }
    }
  }

  /** Source inputs by holder and edge: a Secret shared by many Agents is resolved and digested once. */
  private readonly sources = new Map<string, { input: Kagent1xInput; prints: Fingerprints }>();

  private sourceInput(edge: Extract<Kagent1xEdge, { to: 'source' }>, holder: KObject, chain: string[]): Kagent1xInput {
    const memo = `${holder.index}|${edge.cls}|${edge.name}|${edge.field}|${edge.effect}|${(edge.keys ?? []).join('\0')}|${edge.keys === undefined}`;
    const known = this.sources.get(memo);
    if (known) {
      const input = { ...known.input, chain: [...chain, labelOf(edge.cls, holder.namespace, edge.name)] };
      PRINTS.set(input, known.prints);
      return input;
    }
    const input = this.resolveInput(edge, holder, chain);
    this.sources.set(memo, { input, prints: PRINTS.get(input)! });
    return input;
  }

  private resolveInput(edge: Extract<Kagent1xEdge, { to: 'source' }>, holder: KObject, chain: string[]): Kagent1xInput {
    const ns = holder.namespace;
    const label = labelOf(edge.cls, ns, edge.name);
    const resolution = resolveSource({ id: sourceId(edge.cls, ns, edge.name), cls: edge.cls, namespace: ns, name: edge.name, whole: edge.keys === undefined, keys: new Map(), optional: false, fields: [edge.field] }, this.ctx);
    const input: Kagent1xInput = { chain: [...chain, label], kind: edge.cls, namespace: ns, name: edge.name, effect: edge.effect, field: edge.field, from: resolution.from, whole: edge.keys === undefined, keys: [] };
    const prints: { whole?: string; keys: Map<string, string> } = { keys: new Map() };
    if ('entries' in resolution) {
      const data = edge.cls === 'ConfigMap' ? dataEntries(resolution.entries) : resolution.entries;
      const keys = edge.keys ?? [...data.keys()].sort(byteOrder);
      input.keys = keys.map((key) => ({ key, present: data.has(key) }));
      for (const key of keys) if (data.has(key)) prints.keys.set(key, digest('key', data.get(key)!));
      if (edge.keys === undefined) prints.whole = entriesDigest(data);
      const absent = input.keys.filter((k) => !k.present && !edge.optionalKeys);
      for (const k of absent) this.missing(`key "${k.key}" is not in ${label}`, holder.subject, edge.field);
    } else if ('produced' in resolution) {
      input.producedBy = resolution.produced.producer;
      input.keys = (edge.keys ?? []).map((key) => ({ key, present: true }));
      const common = digest('produced', resolution.produced.common);
      for (const k of input.keys) prints.keys.set(k.key, resolution.produced.keyed?.get(k.key) ? digest('produced', resolution.produced.keyed.get(k.key)!) : common);
      prints.whole = common;
    } else {
      input.keys = (edge.keys ?? []).map((key) => ({ key, present: false }));
      if (resolution.from === 'missing') this.missing(`${label} is not in the input`, holder.subject, edge.field);
    }
    PRINTS.set(input, prints);
    return input;
  }

  private missing(message: string, subject: Subject, field: string): void {
    const { onMissing } = this.ctx.config;
    if (onMissing === 'ignore') return;
    this.report(result(onMissing === 'error' ? 'error' : 'warning', message.includes('key "') ? 'MISSING_KEY' : message.startsWith('Secret') || message.startsWith('ConfigMap') ? 'MISSING_SOURCE' : 'MISSING_OBJECT', message, subject, field));
  }

  private report(r: Result): void {
    const id = `${r.resourceRef?.kind}/${r.resourceRef?.namespace}/${r.resourceRef?.name}|${r.field?.path}|${r.message}`;
    if (this.reported.has(id)) return;
    this.reported.add(id);
    this.ctx.results.push(r);
  }
}

/** Spec digests by spec node: an object shared by many Agents is digested once. */
const SPEC_PRINTS = new WeakMap<MapNode, string>();

function objectInput(chain: string[], kind: string, obj: KObject, field: string, spec: MapNode | undefined): Kagent1xInput {
  const input: Kagent1xInput = { chain, kind, namespace: obj.namespace, name: obj.name, effect: 'recompiles', field, from: 'bundle', whole: false, keys: [] };
  // kagent hashes the spec (BuildProvenance: UID, generation and a spec hash); metadata alone recompiles nothing.
  let whole = spec ? SPEC_PRINTS.get(spec) : undefined;
  if (whole === undefined) {
    whole = digest('spec', Buffer.from(canonicalJson(spec), 'utf8'));
    if (spec) SPEC_PRINTS.set(spec, whole);
  }
  PRINTS.set(input, { whole, keys: new Map() });
  return input;
}

/** A domain-separated SHA-256, hex. */
function digest(domain: string, bytes: Uint8Array): string {
  return createHash('sha256').update(`rollstamp kagent1x ${domain}\0`).update(bytes).digest('hex');
}

/** Every entry, length-prefixed, in byte order of its key. */
function entriesDigest(entries: SourceEntries): string {
  const hash = createHash('sha256').update('rollstamp kagent1x data\0');
  for (const key of [...entries.keys()].sort(byteOrder)) {
    const k = Buffer.from(key, 'utf8');
    const v = entries.get(key)!;
    hash.update(`${k.length}:`).update(k).update(`${v.length}:`).update(v);
  }
  return hash.digest('hex');
}

export type { Resolution };
