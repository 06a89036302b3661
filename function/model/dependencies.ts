// Model: what a target depends on — references found in its spec, merged per Secret or ConfigMap, and the
// kagent objects it names — and what one dependency resolved to.
import type { Produced, SourceClass, SourceEntries } from './object.ts';

/** One reference from a target to a Secret or ConfigMap. */
export interface SourceRef {
  cls: SourceClass;
  /** Empty means the target's own namespace. */
  namespace: string;
  name: string;
  /** `whole` for envFrom, volumes without items and extra-dependency annotations. */
  keys: 'whole' | string[];
  optional: boolean;
  /** Dot path of the field that holds the reference. */
  field: string;
  /** A ConfigMap read through `data` only (kagent's `cm.Data[key]`): keys only in `binaryData` count as absent. */
  dataOnly?: boolean;
}

/** Everything one target uses of one Secret or ConfigMap. */
export interface SourceUse {
  id: string;
  /** The plan's one slot for this id, shared by every planned use of it (plan/shared-strings.ts); none on a use made later. */
  slot?: SourceSlot;
  cls: SourceClass;
  namespace: string;
  name: string;
  /** The whole object is used (envFrom, a volume without items, an annotation). */
  whole: boolean;
  /** Keys named explicitly (keyRefs, volume items); with `whole`, they still count when absent. */
  keys: ReadonlyMap<string, KeyUse>;
  /** Every reference is `optional: true`. */
  optional: boolean;
  /** Fields that hold the references, in document order. */
  fields: string[];
  /** The first field of a non-optional reference (what a "missing" result points at). */
  requiredField?: string;
  /** Every reference reads ConfigMap `data` only (see SourceRef.dataOnly). */
  dataOnly?: boolean;
}

/** How a target asks for one key. */
export interface KeyUse {
  /** Every reference naming this key is optional. */
  optional: boolean;
  /** The first field naming the key, preferring a non-optional one. */
  field: string;
}

/** What a target depends on: Secrets and ConfigMaps, and kagent objects. */
export interface Dependencies {
  /** Merged per object, sorted by id. */
  uses: SourceUse[];
  /** ModelConfigs, RemoteMCPServers and tool Agents, in document order. */
  objects: readonly ObjectRef[];
}

/** A reference from an Agent to another kagent object. */
export interface ObjectRef {
  kind: 'ModelConfig' | 'RemoteMCPServer' | 'Agent' | 'SandboxAgent';
  namespace: string;
  name: string;
  field: string;
}

/** What a target's hash covers, before merging: source references and the objects it names. */
export interface FoundRefs {
  /** Secrets and ConfigMaps (namespace '' = the target's). */
  refs: SourceRef[];
  /** ModelConfigs (hashed as units) and the RemoteMCPServers and Agents used as tools. */
  objects: ObjectRef[];
}

/** Where a source's bytes came from. */
export type Resolution =
  | { from: 'bundle' | 'cluster'; entries: SourceEntries }
  /** A producer in the bundle, or a SOPS Secret (`bundle`): the fields that determine the value. */
  | { from: 'bundle' | 'producer'; produced: Produced }
  | { from: 'ignored' }
  /** `cluster`: a live read found nothing either. */
  | { from: 'missing'; cluster?: boolean }
  /** The object exists but could not be read; the errors are already in the results. */
  | { from: 'invalid' };

/**
 * One Secret or ConfigMap id of a plan, shared by all its planned uses, so that hashing keeps what it keeps per
 * source on it rather than in maps of every source id, each looked up per use (#37). Made by the plan; the fields
 * after `readers` are one apply's, set afresh when an apply starts (resolve/index.ts resetSlots).
 */
export interface SourceSlot {
  readonly id: string;
  /** How many planned targets read the source through their own dependencies (hash/targets.ts digests them). */
  readers: number;
  /** Of `readers`, those that have not read it yet in this apply: at 0 the resolution goes unless `kept`. */
  left: number;
  /** The resolution: while planned readers are left, or for the rest of the apply when `kept`. */
  resolution: Resolution | undefined;
  /** Kept to the end of the apply: read live, reported something, or resolved for a reader no plan counted. */
  kept: boolean;
  /** The source's digested selections (hash/shared-digests.ts owns their shape). */
  selections: unknown;
}

/** Sources read outside the core (the live cluster): id → entries, or null for "not found". */
export type FetchedSources = ReadonlyMap<string, SourceEntries | null>;

/** The uid and resourceVersion of each source read from the cluster (by id), for the live-read record. */
export type LiveVersions = ReadonlyMap<string, { uid: string; resourceVersion: string }>;
