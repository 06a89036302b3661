// Model: the objects the core reads — one input item, a Kubernetes object's identity, the index of
// Secrets, ConfigMaps, kagent objects and producers — and the ids that key them. Types and pure helpers only.
import type { FileRef, Result, Subject } from './results.ts';
import type { MapNode } from './nodes.ts';

/** One input object: its map node and where it came from. */
export interface Item {
  node: MapNode;
  file?: FileRef;
  /** Which reader built the tree: what it vouches for, and whether its document can be printed again (see ReadBy). */
  readBy: ReadBy;
}

/**
 * Which reader built a tree.
 * - `subset`: the subset reader, which declines aliases, merge keys and nesting deeper than MAX_DEPTH, so the
 *   tree needs no safety walk; it keeps no document to print again (a stamp is written by a text edit only).
 * - `yaml`: the yaml library, over the whole stream or list: the tree is walked for safety, and its document
 *   can be printed again (a stamp is written into the tree too).
 * - `yaml-document`: the yaml library, over one document of a stream on its own (the subset reader declined
 *   it): walked for safety like `yaml`, but not printed again, since alone it may print differently than
 *   within its stream; a stamp that needs a new rendering reads the stream again whole.
 */
export type ReadBy = 'subset' | 'yaml' | 'yaml-document';

/** True when the reader vouches that the tree holds no alias, merge key or over-deep nesting. */
export function isVouchedFor(readBy: ReadBy): boolean {
  return readBy === 'subset';
}

/** True when the tree's document can be printed again, so a stamp is written into the tree too. */
export function isReprintable(readBy: ReadBy): boolean {
  return readBy === 'yaml';
}

/**
 * What a document holds that the planner reads of an object it needs only the identity of (read/scan-identity.ts):
 * apiVersion and kind (non-empty strings), metadata.name (else metadata.generateName, else empty) and
 * metadata.namespace when it is a string.
 */
export interface ScannedIdentity {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

/**
 * What a plain Secret or ConfigMap holds that rollstamp reads, scanned without a tree (read/scan-source.ts): its
 * identity, labels, annotations and uid (as readObject gives them), and its entries as written.
 */
export interface ScannedSource {
  identity: ScannedIdentity;
  labels: ReadonlyMap<string, string>;
  annotations: ReadonlyMap<string, string>;
  uid?: string;
  entries: EntryTexts;
}

/** A scanned Secret's or ConfigMap's entries as written, read from the input only when asked. */
export interface EntryTexts {
  /**
   * [key, value] of each entry of the base64 field (`data` of a Secret, `binaryData` of a ConfigMap), then of the
   * text field (`stringData`, `data`), each in input order: the strings the subset reader's tree holds.
   */
  read(): { base64: Array<[string, string]>; text: Array<[string, string]> };
}

/** A Secret's or ConfigMap's base64 field and text field: `data` and `stringData`, or `binaryData` and `data`. */
export function entryFields(kind: 'Secret' | 'ConfigMap'): readonly [base64: string, text: string] {
  return kind === 'Secret' ? ['data', 'stringData'] : ['binaryData', 'data'];
}

/** A Kubernetes object read from one item. */
export interface KObject {
  item: Item;
  /** Position of its item among the items read. */
  index: number;
  apiVersion: string;
  /** API group: `apps` for `apps/v1`, empty for `v1`. */
  group: string;
  kind: string;
  name: string;
  /** metadata.namespace, or the configured default. */
  namespace: string;
  labels: ReadonlyMap<string, string>;
  annotations: ReadonlyMap<string, string>;
  /**
   * Problems reading labels or annotations (an alias, a non-map, a non-string rollstamp.dev/* value).
   * Reported only for objects rollstamp interprets (workloads, Secrets, ConfigMaps); others pass through.
   */
  metadataProblems: readonly Result[];
  subject: Subject;
  /** metadata.uid, when the render carries one (an export of live objects does). */
  uid?: string;
  /**
   * A plain Secret or ConfigMap, decoded when it was indexed (its tree is released then: reading `item` throws):
   * its entries (undefined when decoding found errors) and the results decoding gave, reported when it is
   * resolved.
   */
  decoded?: { entries: SourceEntries | undefined; results: Result[] };
  /** A plain Secret or ConfigMap read without a tree (ScannedSource): its entries as written, decoded when it is resolved. */
  entryTexts?: EntryTexts;
}

/** True for a plain Secret or ConfigMap whose tree is gone (decoded when indexed, or scanned): only its entries are read. */
export function isTreeless(obj: KObject): boolean {
  return obj.decoded !== undefined || obj.entryTexts !== undefined;
}

/**
 * What a target reads: a Secret or ConfigMap (from the bundle, a producer or the cluster), or the files a
 * SecretProviderClass mounts through a CSI volume (only ever from its producer).
 */
export type SourceClass = 'Secret' | 'ConfigMap' | 'SecretProviderClass';

/** A producer in the bundle and what it makes. */
export interface ProducerEntry {
  obj: KObject;
  output: ProducerOutput;
}

/** The indexes resolving reads: everything of the inventory but the list of all objects. */
export interface SourceIndex {
  /** Secrets and ConfigMaps by `class/namespace/name`; more than one entry means ambiguous. */
  sources: Map<string, KObject[]>;
  /** kagent objects (ModelConfig, RemoteMCPServer, Agent, SandboxAgent) and Namespaces by `Kind/namespace/name`. */
  related: Map<string, KObject[]>;
  /** Producers (SealedSecret, ExternalSecret …) by the `class/namespace/name` of what they make. */
  producers: Map<string, ProducerEntry[]>;
}

export interface Inventory extends SourceIndex {
  objects: KObject[];
}

export const sourceId = (cls: SourceClass, namespace: string, name: string): string => `${cls}/${namespace}/${name}`;

/** Key of `related`: `Kind/namespace/name` (a Namespace is `Namespace//name`). */
export const relatedId = (kind: string, namespace: string, name: string): string => `${kind}/${namespace}/${name}`;

/** What a producer (or a SOPS Secret) contributes to a source digest. */
export interface Produced {
  /** `group/Kind` of the producer (`external-secrets.io/ExternalSecret`), or `sops`. */
  kind: string;
  /** The producer, for reports: `Kind namespace/name`. */
  producer: string;
  /** Canonical bytes of the fields that determine every key's value. */
  common: Uint8Array;
  /**
   * Per-key inputs when the produced keys are known and each depends only on its own entry (a keyed
   * reference then hashes only its key). Undefined: the fields in `common` decide every key.
   */
  keyed?: ReadonlyMap<string, Uint8Array>;
}

/** One object a producer makes: a Secret, a ConfigMap, or (SecretProviderClass) the files of a CSI mount. */
export interface ProducerOutput {
  cls: SourceClass;
  name: string;
}

/** Key → bytes. A Map, so keys such as `__proto__` are ordinary keys. */
export type SourceEntries = ReadonlyMap<string, Uint8Array>;
