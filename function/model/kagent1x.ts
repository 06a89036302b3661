// Model: what a run reports of kagent 1.x objects (#20) — each Agent's revision inputs and each ModelConfig's
// status.secretHash — names, keys and kagent's own hashes only, never a value.
import type { FileRef, ResourceRef } from './results.ts';

/**
 * What a change of an input does to an Agent:
 * - `recompiles`: kagent compiles a new revision (the input is hashed into its provenance or config);
 * - `applies-live`: kagent's egress gateway injects the current value at request time; no new revision.
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
  /** A ConfigMap kagent hashes whole (`data`, not `binaryData`); false: only `keys` count. */
  whole: boolean;
  /** The keys consumed (for a whole ConfigMap: the keys of its `data`), each present or not. */
  keys: Array<{ key: string; present: boolean }>;
  /** The producer that makes the Secret or ConfigMap (`ExternalSecret ns/name`). */
  producedBy?: string;
}

export interface Kagent1xAgent {
  resourceRef: ResourceRef;
  file?: FileRef;
  inputs: Kagent1xInput[];
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
