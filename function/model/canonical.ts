// Model: canonical bytes of a YAML subtree, for hashing the spec fields of a producer (ExternalSecret, Certificate …).
// JSON with map keys in byte order and scalars by their value: formatting, key order, quoting and comments
// never change it; a different value or type does. Callers pass only trees that passed isSafeToRead (no
// aliases, merge keys or deep nesting).
import { byteOrder } from './order.ts';
import { isMapNode, isScalarNode, isSeqNode } from './nodes.ts';


const NONE: ReadonlySet<string> = new Set();

/** Canonical JSON of a node; absent and null are both `null`. `omit`: top-level map keys left out. */
export function canonicalJson(node: unknown, omit: ReadonlySet<string> = NONE): string {
  if (node === undefined || node === null) return 'null';
  if (isMapNode(node)) {
    const pairs: Array<[string, string]> = [];
    for (const pair of node.items) {
      const key = isScalarNode(pair.key) ? String(pair.key.value) : canonicalJson(pair.key);
      if (!omit.has(key)) pairs.push([key, canonicalJson(pair.value)]);
    }
    pairs.sort((a, b) => byteOrder(a[0], b[0]));
    return `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
  }
  if (isSeqNode(node)) return `[${node.items.map((item) => canonicalJson(item)).join(',')}]`;
  if (isScalarNode(node)) return scalarJson(node.value);
  return 'null';
}

function scalarJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value instanceof Uint8Array) return JSON.stringify({ binary: Buffer.from(value).toString('base64') });
  return JSON.stringify(String(value));
}

/**
 * UTF-8 bytes of a JSON object whose members are already canonical JSON texts, in byte order of their names.
 * Members that are absent or `null` are left out, so adding an empty optional field changes nothing.
 */
export function canonicalObject(members: Readonly<Record<string, string | undefined>>): Uint8Array {
  const present = Object.entries(members).filter((m): m is [string, string] => m[1] !== undefined && m[1] !== 'null');
  present.sort((a, b) => byteOrder(a[0], b[0]));
  return Buffer.from(`{${present.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`, 'utf8');
}
