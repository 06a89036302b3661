// Write stage, JSON output (`ROLLSTAMP_OUTPUT=json`): the stamped YAML stream as one JSON object per line,
// holding the values Kubernetes reads from that YAML (sigs.k8s.io/yaml over go-yaml v2, see yaml11.ts) —
// `defaultMode: 0440` is 288, `enabled: yes` is true — so switching the output format never changes what is
// applied. Where the YAML itself would not reach Kubernetes as written, the conversion fails with a result
// naming the object and field instead of guessing.
import { isAlias, isMap, isScalar, isSeq, parseAllDocuments, Scalar, type Document, type Node } from 'yaml';
import { jsonStreamAsYaml } from '../read/json-stream.ts';
import { addDuplicateKeyErrors, PARSE_OPTIONS } from '../read/parse-yaml.ts';
import { errorResult, type ResourceRef, type Result } from '../model/results.ts';
import { resolveYaml11, yaml11KeyString, type Yaml11Value } from './yaml11.ts';
import { formatPath, type FieldPath } from '../model/nodes.ts';

/** Deeper nesting is refused (go-yaml v2 stops at 10,000; no Kubernetes object comes near either). */
const MAX_DEPTH = 1000;

/** Thrown inside a conversion, caught at the document: a message built from names and paths only. */
class Refusal extends Error {
  constructor(
    readonly reason: string,
    readonly path: FieldPath,
  ) {
    super(reason);
  }
}

/**
 * Converts a YAML stream (rollstamp's own output) to newline-separated JSON objects.
 * - Plain scalars take their YAML 1.1 value (octal `0NNN`, `yes`/`on`/`y` booleans, `1_000`); quoted and
 *   block scalars are strings.
 * - Aliases are expanded under go-yaml v2's own limit on alias expansion, so an alias bomb is refused.
 * - Refused (error result): a plain scalar Kubernetes reads as a boolean, number or null where it needs a
 *   string (apiVersion, kind, metadata name/namespace/labels/annotations, Secret and ConfigMap data); a map
 *   key that Kubernetes would rename (`y:` becomes "true", `0440:` becomes "288") or finds twice; a merge
 *   key `<<`; an explicit tag other than !!str, !!map, !!seq; `.inf`/`.nan`; nesting over 1000 levels.
 */
export function toKubernetesJson(text: string): { text: string } | { results: Result[] } {
  const lines: string[] = [];
  const results: Result[] = [];
  for (const doc of parseAllDocuments(jsonStreamAsYaml(text), PARSE_OPTIONS) as Document[]) {
    addDuplicateKeyErrors(doc);
    if (doc.errors.length > 0) return { results: [errorResult('YAML_SYNTAX', 'JSON output: the stamped stream does not read back as YAML')] };
    if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) continue;
    const converter = new Converter(doc);
    try {
      lines.push(converter.value(doc.contents, [], 0));
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      const ref = refOf(doc);
      results.push(errorResult('WRONG_TYPE', `JSON output: ${err.reason}`, ref ? { ref } : {}, formatPath(err.path)));
    }
  }
  return results.length > 0 ? { results } : { text: lines.map((l) => `${l}\n`).join('') };
}

class Converter {
  /** go-yaml v2's counters: nodes decoded, and those decoded through an alias. */
  private decoded = 0;
  private throughAlias = 0;
  private aliasDepth = 0;
  private readonly expanding = new Set<Node>();
  constructor(private readonly doc: Document) {}

  value(node: unknown, path: FieldPath, depth: number): string {
    if (depth > MAX_DEPTH) throw new Refusal(`nesting deeper than ${MAX_DEPTH} levels`, path);
    this.count(path);
    if (isAlias(node)) return this.alias(node, path, depth);
    if (isMap(node)) {
      this.checkTag(node, path);
      const seen = new Set<string>();
      const parts: string[] = [];
      for (const pair of node.items) {
        const key = this.key(pair.key, path);
        if (seen.has(key)) throw new Refusal('two keys of this map are the same key to Kubernetes', path);
        seen.add(key);
        parts.push(`${JSON.stringify(key)}:${this.value(pair.value, [...path, key], depth + 1)}`);
      }
      return `{${parts.join(',')}}`;
    }
    if (isSeq(node)) {
      this.checkTag(node, path);
      return `[${node.items.map((item, i) => this.value(item, [...path, i], depth + 1)).join(',')}]`;
    }
    if (node === null || node === undefined) return 'null';
    if (!isScalar(node)) throw new Refusal('a node that is not YAML data', path);
    this.checkTag(node, path);
    if (node.type !== Scalar.PLAIN || node.tag !== undefined) return JSON.stringify(String(node.value ?? ''));
    const v = resolveYaml11(String(node.source ?? node.value ?? ''));
    if (v.type !== 'str' && this.needsString(path)) {
      throw new Refusal(`Kubernetes reads this plain value as ${describe(v)} (YAML 1.1) where it needs a string; quote it`, path);
    }
    return json(v, String(node.source ?? node.value ?? ''), path);
  }

  private key(node: unknown, path: FieldPath): string {
    if (isScalar(node) && node.type === Scalar.PLAIN && node.tag === undefined) {
      const text = String(node.source ?? node.value ?? '');
      if (text === '<<') throw new Refusal('a merge key (<<): Kubernetes merges it, rollstamp does not', path);
      const v = resolveYaml11(text);
      const key = yaml11KeyString(text, v);
      if (key !== text) throw new Refusal(`a key Kubernetes reads as ${describe(v)} (YAML 1.1), not as written; quote it`, path);
      return key;
    }
    if (isScalar(node) && (node.tag === undefined || node.tag === 'tag:yaml.org,2002:str') && typeof node.value === 'string') return node.value;
    throw new Refusal('a map key that is not a string', path);
  }

  private alias(node: { resolve(doc: Document): Node | undefined }, path: FieldPath, depth: number): string {
    const target = node.resolve(this.doc);
    if (!target) throw new Refusal('an alias without an anchor', path);
    if (this.expanding.has(target)) throw new Refusal('an anchor that contains its own alias', path);
    this.expanding.add(target);
    this.aliasDepth++;
    try {
      return this.value(target, path, depth);
    } finally {
      this.aliasDepth--;
      this.expanding.delete(target);
    }
  }

  /** go-yaml v2 decode.go: "document contains excessive aliasing" once alias-made nodes outweigh the rest. */
  private count(path: FieldPath): void {
    this.decoded++;
    if (this.aliasDepth > 0) this.throughAlias++;
    if (this.throughAlias > 100 && this.decoded > 1000 && this.throughAlias / this.decoded > allowedAliasRatio(this.decoded)) {
      throw new Refusal('excessive aliasing (Kubernetes refuses it too)', path);
    }
  }

  private checkTag(node: { tag?: string }, path: FieldPath): void {
    const tag = node.tag;
    if (tag === undefined || tag === 'tag:yaml.org,2002:str' || tag === 'tag:yaml.org,2002:map' || tag === 'tag:yaml.org,2002:seq') return;
    throw new Refusal('an explicit YAML tag; write the value without it', path);
  }

  /** Fields Kubernetes decodes into strings: a boolean or number there fails the apply. */
  private needsString(full: FieldPath): boolean {
    // Inside a list wrapper, each entry of `items` is an object of its own (list-wrappers.ts).
    const inList = full.length > 2 && full[0] === 'items' && typeof full[1] === 'number';
    const path = inList ? full.slice(2) : full;
    const object = inList ? (this.doc.contents as { get?: (k: string) => unknown })?.get?.('items') : this.doc.contents;
    const obj = inList && isSeq(object) ? object.items[full[1] as number] : object;
    const kind = isMap(obj) && obj.get('apiVersion') === 'v1' ? obj.get('kind') : undefined;
    const [first, second, third] = path;
    if (path.length === 1) return first === 'apiVersion' || first === 'kind';
    if (first === 'metadata') {
      if (path.length === 2) return second === 'name' || second === 'namespace' || second === 'generateName';
      return path.length === 3 && (second === 'labels' || second === 'annotations') && typeof third === 'string';
    }
    const isSource = kind === 'Secret' || kind === 'ConfigMap';
    return isSource && path.length === 2 && (first === 'data' || first === 'stringData' || first === 'binaryData');
  }
}

/** go-yaml v2.4 decode.go allowedAliasRatio: 99% for small documents, falling to 10% for very large ones. */
function allowedAliasRatio(decoded: number): number {
  const low = 400_000;
  const high = 4_000_000;
  if (decoded <= low) return 0.99;
  if (decoded >= high) return 0.1;
  return 0.99 - 0.89 * ((decoded - low) / (high - low));
}

function json(v: Yaml11Value, text: string, path: FieldPath): string {
  switch (v.type) {
    case 'str':
      return JSON.stringify(text);
    case 'null':
      return 'null';
    case 'bool':
      return String(v.value);
    case 'int':
      return v.value.toString();
    case 'float':
      if (!Number.isFinite(v.value)) throw new Refusal('.inf or .nan, which JSON cannot hold', path);
      return String(v.value);
  }
}

function describe(v: Yaml11Value): string {
  return v.type === 'bool' ? 'a boolean' : v.type === 'null' ? 'null' : 'a number';
}

function refOf(doc: Document): ResourceRef | undefined {
  const root = doc.contents;
  if (!isMap(root)) return undefined;
  const apiVersion = root.get('apiVersion');
  const kind = root.get('kind');
  const meta = root.get('metadata');
  const name = isMap(meta) ? meta.get('name') : undefined;
  const namespace = isMap(meta) ? meta.get('namespace') : undefined;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  return { apiVersion, kind, name: typeof name === 'string' ? name : '', ...(typeof namespace === 'string' && namespace !== '' ? { namespace } : {}) };
}
