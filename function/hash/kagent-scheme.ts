// Hash stage, `hashScheme: kagent`: kagent's own ModelConfig status.secretHash (computeStatusSecretHash in
// kagent's reconciler), reproduced bit for bit so a stamp can be compared with the live status.
import { createHash } from 'node:crypto';
import { byteOrder } from '../model/order.ts';
import type { SourceEntries } from '../resolve/bundle.ts';

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
