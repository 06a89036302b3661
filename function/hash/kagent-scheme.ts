// Hash stage, `hashScheme: kagent`: kagent's own ModelConfig status.secretHash (computeStatusSecretHash in
// kagent's reconciler), reproduced bit for bit so a stamp can be compared with the live status, and the
// inputs kagent hashes, taken from a ModelConfig's references.
import { createHash } from 'node:crypto';
import { mergeRefs } from '../discover/index.ts';
import type { Config } from '../model/config.ts';
import type { Resolution, SourceRef, SourceUse } from '../model/dependencies.ts';
import type { KObject, SourceEntries } from '../model/object.ts';
import { byteOrder } from '../model/order.ts';
import { warningResult, type Result } from '../model/results.ts';
import type { Hasher } from './scheme.ts';

export interface KagentSecret {
  /** `<namespace>/<name>`. */
  namespacedName: string;
  data: SourceEntries;
}

/**
 * SHA-256 over, for each Secret in (stable) byte order of `namespace/name`: that string, then every data
 * key in byte order followed by its raw value. No separators or lengths, exactly as kagent does.
 */
export function kagentSecretHash(secrets: readonly KagentSecret[]): Buffer {
  const hash = createHash('sha256');
  for (const s of [...secrets].sort((a, b) => byteOrder(a.namespacedName, b.namespacedName))) {
    hash.update(s.namespacedName, 'utf8');
    for (const key of [...s.data.keys()].sort(byteOrder)) {
      hash.update(key, 'utf8');
      hash.update(s.data.get(key)!);
    }
  }
  return hash.digest();
}

/** The hasher a unit's stamp is formatted with: kagent's hash is a plain SHA-256, so it is written as `sha256:`. */
export const unitHasher = (ctx: { config: Config; hasher: Hasher }): Hasher => (ctx.config.hashScheme === 'kagent' ? { ...ctx.hasher, algorithm: 'sha256' as const } : ctx.hasher);

/** With `hashScheme: kagent`, a unit's digest as kagent computes it; undefined under scheme v1. */
export function kagentUnitDigest(obj: KObject, refs: readonly SourceRef[], ctx: { config: Config; results: Result[] }, resolveFor: (use: SourceUse) => Resolution): Buffer | undefined {
  return ctx.config.hashScheme === 'kagent' ? kagentSecretHash(kagentInputs(obj, refs, ctx.results, resolveFor)) : undefined;
}

/**
 * kagent's inputs, in its order (API key, CA, Foundry endpoint; one entry per reference, so a Secret named
 * twice counts twice): every data key of each Secret it finds, only the selected key of the ConfigMap.
 */
function kagentInputs(obj: KObject, refs: readonly SourceRef[], results: Result[], resolveFor: (use: SourceUse) => Resolution): KagentSecret[] {
  const out: KagentSecret[] = [];
  for (const use of refs.map((ref) => mergeRefs(obj, [ref])[0]!)) {
    if (use.fields[0] === 'spec.apiKeySecretRef') {
      // kagent reads ModelConfigs through its v1alpha2 type, which has no apiKeySecretRef and no conversion
      // (go/api/v1alpha2/modelconfig_types.go; kagent.dev_modelconfigs.yaml has no spec.conversion).
      const why = "hashScheme kagent: kagent reads ModelConfigs as kagent.dev/v1alpha2, which has no apiKeySecretRef, so its status.secretHash leaves that Secret out";
      results.push(warningResult('UNMATCHABLE_KAGENT_HASH', why, obj.subject, use.fields[0]));
      continue;
    }
    const resolution = resolveFor(use);
    if ('produced' in resolution) {
      const why = `hashScheme kagent: ${use.cls} ${use.namespace}/${use.name} is made by ${resolution.produced.producer}, whose values are not in the input; kagent's hash covers them (read them with live: always)`;
      results.push(warningResult('UNMATCHABLE_KAGENT_HASH', why, obj.subject, use.requiredField ?? use.fields[0]));
    }
    if (!('entries' in resolution)) continue; // kagent skips objects it cannot find
    const namespacedName = `${use.namespace}/${use.name}`;
    if (use.cls === 'Secret') out.push({ namespacedName, data: resolution.entries });
    else out.push({ namespacedName, data: new Map([...use.keys.keys()].map((k) => [k, resolution.entries.get(k) ?? new Uint8Array()])) });
  }
  return out;
}
