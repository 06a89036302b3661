// Hash stage, kagent 1.x (#20, #35): every 1.x Agent's revision inputs — the objects whose spec counts and the
// Secret and ConfigMap keys it consumes, each with the chain that led there — and what keeps it from compiling,
// walking Agent → AgentTemplate (and sub-agent templates) and Harness → ModelConfig, RemoteMCPServer,
// EgressPolicy → Secret and ConfigMap keys. The walk uses a stack, never recursion, and spends a run-wide row
// budget (Config.maxPreviewRows, #33): a fanned-out template graph ends with one error, not in minutes of work.
import { isDeclarativeShape, KAGENT1X_KINDS } from '../kinds/kagent1x-agent.ts';
import { ENABLED_ANNOTATION } from '../model/constants.ts';
import { errorResult, result, warningResult, type Result, type Subject } from '../model/results.ts';
import { NodeReader, type FieldPath, type MapNode } from '../model/nodes.ts';
import { isSafeToRead } from '../model/safety.ts';
import type { Config } from '../model/config.ts';
import type { Deadline } from '../model/deadline.ts';
import type { KObject } from '../model/object.ts';
import type { ResolveContext } from '../resolve/index.ts';
import type { Kagent1xEdge } from '../discover/kagent1x-refs.ts';
import type { Kagent1xAgent, Kagent1xFailure, Kagent1xInput } from '../model/kagent1x.ts';
import { absentInput, labelOf, objectInput, sourceInput, withChain, type SourceInput } from './kagent1x-inputs.ts';

export { fingerprintsOf, labelOf } from './kagent1x-inputs.ts';

/** Default of Config.maxPreviewRows (ROLLSTAMP_MAX_PREVIEW_ROWS). */
export const DEFAULT_MAX_PREVIEW_ROWS = 500_000;

export interface PreviewContext extends ResolveContext {
  config: Config;
  deadline?: Deadline;
}

/** Thrown when the run's preview rows are spent; previewKagent1x turns it into one TOO_MUCH_PREVIEW_WORK error. */
export class PreviewBudgetSpent extends Error {
  constructor(readonly limit: number) {
    super(`the kagent 1.x preview has more than ${limit} rows (each input of each Agent, counted once per object in its chain); the limit is ROLLSTAMP_MAX_PREVIEW_ROWS`);
  }
}

/** 1.x objects by `Kind/namespace/name`. */
export type Kagent1xLookup = ReadonlyMap<string, KObject[]>;

/** The lookup of a plan's 1.x objects: only the kinds the graph walks; an id that occurs twice keeps both. */
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
 * Each 1.x Agent in `objects` (input order) with its inputs, in the order the graph is walked, and its failures;
 * Agents opted out with `rollstamp.dev/enabled: "false"` are left out, and so are kagent.dev/v1alpha3 Agents in
 * the pre-1.0 Declarative or BYO shape (one warning per run names them).
 * - An object a reference names but the input lacks follows onMissing (MISSING_OBJECT, naming the field); one
 *   that occurs twice, or a sub-agent cycle, is a KAGENT_REFERENCE error; a field of the wrong type, WRONG_TYPE.
 * - Throws PreviewBudgetSpent past `config.maxPreviewRows` rows for the whole run.
 */
export function previewAgents(objects: readonly KObject[], lookup: Kagent1xLookup, ctx: PreviewContext): Kagent1xAgent[] {
  const walker = new Walker(lookup, ctx);
  const out: Kagent1xAgent[] = [];
  const declarative: KObject[] = [];
  for (const obj of objects) {
    if (obj.kind !== 'Agent' || isOptedOut(obj)) continue;
    const agent = walker.agent(obj);
    if (agent === 'declarative') declarative.push(obj);
    else if (agent) out.push(agent);
  }
  if (declarative.length > 0) ctx.results.push(declarativeNote(declarative));
  return out;
}

/** One warning for every pre-1.0 Declarative or BYO Agent: passed through, not previewed. */
function declarativeNote(agents: readonly KObject[]): Result {
  const first = agents[0]!;
  const more = agents.length > 1 ? ` and ${agents.length - 1} more` : '';
  return warningResult(
    'UNSUPPORTED_KAGENT_VERSION',
    `${first.apiVersion} Agent ${first.namespace}/${first.name}${more} in the Declarative or BYO shape of kagent's pre-1.0 main branch ` +
      '(spec.declarative, spec.byo) passed through, not previewed: kagent 1.0 compiles Agents of spec.template and spec.harness',
  );
}

/** An Agent with `rollstamp.dev/enabled: "false"` is left out of the preview, as opted-out objects are everywhere. */
function isOptedOut(obj: KObject): boolean {
  return (obj.annotations.get(ENABLED_ANNOTATION) ?? obj.labels.get(ENABLED_ANNOTATION)) === 'false';
}

/** The ids of the objects above a frame, for finding a sub-agent cycle without copying a set per level. */
interface Ancestry {
  id: string;
  up?: Ancestry;
}

/** One object being walked: its edges, how far, its chain, and whether its templates are the Agent's root template. */
interface Frame {
  edges: readonly Kagent1xEdge[];
  next: number;
  holder: KObject;
  chain: string[];
  ancestry?: Ancestry;
  /** Its templates are the Agent's root template (false below a sub-agent). */
  root: boolean;
  /** Its edges are an AgentTemplate's (inline or referenced): an AgentTemplate it names is a sub-agent. */
  inTemplate: boolean;
}

class Walker {
  /** Each object's edges, read once (so its problems are reported once). */
  private readonly edges = new Map<KObject, { spec?: MapNode; edges: Kagent1xEdge[] }>();
  /** Source inputs by holder and edge: a Secret shared by many Agents is resolved and digested once. */
  private readonly sources = new Map<string, SourceInput>();
  private readonly reported = new Set<string>();
  private spent = 0;

  constructor(
    private readonly lookup: Kagent1xLookup,
    private readonly ctx: PreviewContext,
  ) {}

  agent(agent: KObject): Kagent1xAgent | 'declarative' | undefined {
    // Looked at quietly: read() below reports what is wrong with it.
    const spec = isSafeToRead(agent, []) ? new NodeReader(agent.subject, []).mapIn(agent.item.node, [], ['spec']) : undefined;
    if (spec && agent.group !== 'api.kagent.dev' && isDeclarativeShape(spec)) return 'declarative';
    const read = this.read(agent);
    if (!read) return undefined;
    const label = labelOf('Agent', agent.namespace, agent.name);
    const inputs: Kagent1xInput[] = [];
    const failures: Kagent1xFailure[] = [];
    this.add(inputs, objectInput([label], 'Agent', agent, 'spec', read.spec));
    const stack: Frame[] = [{ edges: read.edges, next: 0, holder: agent, chain: [label], root: true, inTemplate: false }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const edge = frame.edges[frame.next++];
      if (!edge) {
        stack.pop();
        continue;
      }
      if (inputs.length > this.ctx.config.maxReferences) {
        // One Agent's graph of shared sub-agent templates can fan out: bounded as a target's references are (#12).
        this.report(errorResult('TOO_MANY_REFERENCES', `the Agent has more than ${this.ctx.config.maxReferences} revision inputs (ROLLSTAMP_MAX_REFERENCES)`, agent.subject));
        break;
      }
      const pushed = this.step(edge, frame, inputs, failures);
      if (pushed) stack.push(pushed);
    }
    return { resourceRef: agent.subject.ref!, ...(agent.subject.file ? { file: agent.subject.file } : {}), inputs, failures };
  }

  /** One edge of a frame: its input and failures; the frame to walk next when it leads to an object. */
  private step(edge: Kagent1xEdge, frame: Frame, inputs: Kagent1xInput[], failures: Kagent1xFailure[]): Frame | undefined {
    const { holder, chain } = frame;
    if (edge.to === 'unsupported') {
      failures.push({ code: 'unsupported-credential', chain, field: edge.field, reason: edge.reason });
      return undefined;
    }
    if (edge.to === 'inline') {
      // An inline spec is part of the holder's spec; its references are the holder's.
      const reader = new NodeReader(holder.subject, this.ctx.results);
      return { ...frame, edges: KAGENT1X_KINDS.get(edge.kind)!.edges(edge.spec, edge.path as FieldPath, reader), next: 0, inTemplate: edge.kind === 'AgentTemplate' };
    }
    if (edge.to === 'source') {
      // outputSchemaFrom counts only on the root template: a sub-agent's schema is not compiled (outputschema.go).
      if (edge.rootOnly && !frame.root) return undefined;
      const found = this.source(edge, holder, chain);
      this.add(inputs, found.input);
      for (const f of found.failures) failures.push({ ...f, chain: found.input.chain });
      for (const message of found.missing) this.missing(message, holder.subject, edge.field);
      return undefined;
    }
    const label = labelOf(edge.kind, holder.namespace, edge.name);
    const id = `${edge.kind}/${holder.namespace}/${edge.name}`;
    for (let a = frame.ancestry; a; a = a.up) {
      if (a.id !== id) continue;
      this.report(errorResult('KAGENT_REFERENCE', `sub-agent cycle: ${[...chain, label].join(' › ')}`, holder.subject, edge.field));
      return undefined;
    }
    const found = this.lookup.get(id) ?? [];
    if (found.length !== 1) {
      if (found.length > 1) this.report(errorResult('KAGENT_REFERENCE', `${label} appears ${found.length} times in the input`, found[0]!.subject));
      else this.missing(`${label} is not in the input`, holder.subject, edge.field);
      this.add(inputs, absentInput([...chain, label], edge.kind, holder.namespace, edge.name, edge.field, found.length > 1 ? 'invalid' : 'missing'));
      return undefined;
    }
    const obj = found[0]!;
    const read = this.read(obj);
    this.add(inputs, objectInput([...chain, label], edge.kind, obj, edge.field, read?.spec));
    if (!read) return undefined;
    // A template reached from the Agent itself is its root template; one a template names is a sub-agent's.
    const root = frame.root && !(frame.inTemplate && edge.kind === 'AgentTemplate');
    const ancestry = { id, ...(frame.ancestry ? { up: frame.ancestry } : {}) };
    return { edges: read.edges, next: 0, holder: obj, chain: [...chain, label], ancestry, root, inTemplate: edge.kind === 'AgentTemplate' };
  }

  /** Adds a row, spending the run's budget by its chain's length. */
  private add(inputs: Kagent1xInput[], input: Kagent1xInput): void {
    this.spent += input.chain.length;
    if (this.spent > (this.ctx.config.maxPreviewRows ?? DEFAULT_MAX_PREVIEW_ROWS)) throw new PreviewBudgetSpent(this.ctx.config.maxPreviewRows ?? DEFAULT_MAX_PREVIEW_ROWS);
    if (inputs.length % 1024 === 0) this.ctx.deadline?.check('previewing kagent 1.x agents');
    inputs.push(input);
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

  private source(edge: Extract<Kagent1xEdge, { to: 'source' }>, holder: KObject, chain: string[]): SourceInput {
    const memo = `${holder.index}|${edge.cls}|${edge.name}|${edge.field}|${edge.effect}|${(edge.keys ?? []).join('\0')}|${edge.keys === undefined}|${edge.required ?? ''}`;
    const known = this.sources.get(memo);
    if (known) return { ...known, input: withChain(known.input, [...chain, labelOf(edge.cls, holder.namespace, edge.name)]) };
    const found = sourceInput(edge, holder, chain, this.ctx);
    this.sources.set(memo, found);
    return found;
  }

  private missing(message: string, subject: Subject, field: string): void {
    const { onMissing } = this.ctx.config;
    if (onMissing === 'ignore') return;
    const code = message.includes('key "') ? 'MISSING_KEY' : message.startsWith('Secret') || message.startsWith('ConfigMap') ? 'MISSING_SOURCE' : 'MISSING_OBJECT';
    this.report(result(onMissing === 'error' ? 'error' : 'warning', code, message, subject, field));
  }

  private report(r: Result): void {
    const id = `${r.resourceRef?.kind}/${r.resourceRef?.namespace}/${r.resourceRef?.name}|${r.field?.path}|${r.message}`;
    if (this.reported.has(id)) return;
    this.reported.add(id);
    this.ctx.results.push(r);
  }
}
