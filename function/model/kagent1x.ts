// Model: what a run reports of kagent 1.x objects (#20, #35) — each Agent's revision inputs, the credentials its
// egress gateway injects, what keeps it from compiling, and each ModelConfig's status.secretHash — names, keys
// and kagent's own hashes only, never a value.
import type { FileRef, ResourceRef } from './results.ts';

/**
 * What a change of an input does to an Agent (kagent 1.0.x as released):
 * - `recompiles`: kagent compiles a new revision (the input is in its provenance or compiled config);
 * - `applies-live`: kagent's egress gateway injects the current value at request time; no new revision, also
 *   when the Secret is deleted and created again.
 */
export type Kagent1xEffect = 'recompiles' | 'applies-live';

/** One input of a 1.x Agent: an object whose spec counts, or a Secret or ConfigMap whose keys (or data) count. */
export interface Kagent1xInput {
  /** From the Agent to this input, each `Kind namespace/name` (`Agent agents/lead`, `AgentTemplate agents/lead` …). */
  chain: string[];
  kind: string;
  namespace: string;
  name: string;
  effect: Kagent1xEffect;
  /** The field of the last object before this input that names it (dot path); the Agent's own spec: `spec`. */
  field: string;
  /** Where it resolved: `bundle`, `producer`, `missing`, `ignored`, `invalid` (as for a target's sources). */
  from: string;
  /** A ConfigMap kagent hashes whole with its UID (`data`, not `binaryData`); false: only `keys` count. */
  whole: boolean;
  /** The one key is an output schema: compared as canonical JSON (a reformat changes nothing). */
  schema?: true;
  /** The keys consumed (for a whole ConfigMap: the keys of its `data`), each present or not. */
  keys: Array<{ key: string; present: boolean }>;
  /** The producer that makes the Secret or ConfigMap (`ExternalSecret ns/name`). */
  producedBy?: string;
}

/** Why kagent 1.0.x will not compile an Agent (it goes not Ready), as the render shows it. */
export type Kagent1xFailureCode =
  /** A consumed key is not in a Secret or ConfigMap the render holds. */
  | 'missing-key'
  /** A consumed object, Secret or ConfigMap the render held before is gone (`diff` only). */
  | 'removed'
  /** A credential mode kagent 1.0's egress gateway cannot serve (kagent issue #2873). */
  | 'unsupported-credential'
  /** The root template's output schema is not a JSON document kagent accepts. */
  | 'invalid-output-schema';

export interface Kagent1xFailure {
  code: Kagent1xFailureCode;
  /** From the Agent to the object whose field fails (`Agent agents/lead › AgentTemplate agents/lead › …`). */
  chain: string[];
  /** The field (dot path) of the last object in the chain. */
  field: string;
  /** What fails, in names and keys only (`key "api-key" is not in Secret agents/openai-key`). */
  reason: string;
}

export interface Kagent1xAgent {
  resourceRef: ResourceRef;
  file?: FileRef;
  inputs: Kagent1xInput[];
  /** What keeps it from compiling, as far as the render shows; empty when nothing does. */
  failures: Kagent1xFailure[];
}

/** A 1.x ModelConfig and the `status.secretHash` kagent's controller will report for it. */
export interface Kagent1xModelConfig {
  resourceRef: ResourceRef;
  file?: FileRef;
  /** Lowercase hex, no prefix, as in the status; absent when `unknown` says why it cannot be computed offline. */
  secretHash?: string;
  unknown?: string;
  /** What it covers: `Secret ns/name` (all of data), `ConfigMap ns/name key k`. */
  covers: string[];
  /** The command that shows the live value. */
  check: string;
}

export interface Kagent1xReport {
  agents: Kagent1xAgent[];
  modelConfigs: Kagent1xModelConfig[];
}
