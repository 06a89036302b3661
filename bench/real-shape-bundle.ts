// A real-shape bundle for the benchmark: the documents of fixtures/real-shapes/*/input.yaml (the YAML
// constructs real Helm and kustomize renders use: flow collections and block scalars below their key,
// `:`-led plain values, wrapped scalars), repeated until the stream holds the objects asked for. Each copy of
// a fixture gets its own names (`-<copy>` after every metadata.name, and after every value naming one of
// them, so workloads still consume their copy's Secrets and ConfigMaps) and a namespace (`real-<copy % 20>`)
// where the object has none. Only whole lines change, and only values and a namespace line are written, so
// each document keeps its construct. Every folder of fixtures/real-shapes/ with an input.yaml is read.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';

export const REAL_SHAPES_DIR = fileURLToPath(new URL('../fixtures/real-shapes/', import.meta.url));

/** One fixture: its documents' text (each ending in a newline, no `---`) and the metadata.names in it. */
export interface ShapeUnit {
  fixture: string;
  docs: string[];
  names: Set<string>;
}

/** Kinds without a namespace: no `namespace:` line is added to them. */
const CLUSTER_SCOPED = new Set(['Namespace', 'Node', 'PersistentVolume', 'StorageClass', 'PriorityClass', 'RuntimeClass', 'IngressClass', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'APIService', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'CSIDriver', 'VolumeSnapshotClass', 'ClusterIssuer', 'ClusterSecretStore']);

/** The fixtures of `dir` (sorted by folder name), split into documents at their `---` lines. */
export function realShapeUnits(dir: string = REAL_SHAPES_DIR): ShapeUnit[] {
  const units: ShapeUnit[] = [];
  for (const fixture of readdirSync(dir).sort()) {
    const file = join(dir, fixture, 'input.yaml');
    if (!existsSync(file)) continue;
    const docs = readFileSync(file, 'utf8')
      .split(/^---[ \t]*\n/m)
      .filter((d) => /^[^#\s]/m.test(d)) // a piece with content, not only comments or blank lines
      .map((d) => (d.endsWith('\n') ? d : `${d}\n`));
    const names = new Set<string>();
    for (const d of docs) {
      const name: unknown = parseDocument(d).getIn(['metadata', 'name']);
      if (typeof name === 'string' && name !== '') names.add(name);
    }
    units.push({ fixture, docs, names });
  }
  if (units.length === 0) throw new Error(`no fixtures/real-shapes/*/input.yaml under ${dir}`);
  return units;
}

/** A block-context line whose whole value is one plain or quoted word: `key: value`, `- value`, `- key: value`. */
const VALUE_LINE = /^([ ]*(?:- )*(?:(?:[^\s#'"{[\-][^:#]*?|"[^"]*"|'[^']*'):[ ]+)?)(["']?)([^\s"'#{}[\],]+)\2([ ]*(?:#.*)?)$/;
/** A `key: value` entry of a one-line flow map: the value ends at `,` or `}`. */
const FLOW_VALUE = /([{,][ ]*[^\s:{},[\]]+:[ ]+)([^\s"'{}[\],]+)(?=[ ]*[,}])/g;

/** A copy of `doc` with each of `names` renamed to `name + suffix` where it is a whole value, and `namespace` added under metadata when the object has none. */
export function renameDocument(doc: string, names: ReadonlySet<string>, suffix: string, namespace: string): string {
  const lines = doc.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    const m = VALUE_LINE.exec(line);
    if (m && names.has(m[3]!)) line = `${m[1]}${m[2]}${m[3]}${suffix}${m[2]}${m[4]}`;
    else if (line.includes('{')) line = line.replace(FLOW_VALUE, (all, lead: string, value: string) => (names.has(value) ? `${lead}${value}${suffix}` : all));
    out.push(line);
    if (line === 'metadata:') {
      const child = /^([ ]+)\S/.exec(lines[i + 1] ?? '');
      const kind = /^kind:[ ]+(\S+)/m.exec(doc)?.[1] ?? '';
      if (child && !CLUSTER_SCOPED.has(kind) && !hasNamespace(lines, i + 1, child[1]!)) out.push(`${child[1]}namespace: ${namespace}`);
    }
  }
  return out.join('\n');
}

/** Whether the block map starting at line `from`, indented `indent`, has a `namespace:` entry. */
function hasNamespace(lines: readonly string[], from: number, indent: string): boolean {
  for (let j = from; j < lines.length; j++) {
    const line = lines[j]!;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!line.startsWith(indent)) return false;
    if (line.startsWith(`${indent}namespace:`)) return true;
  }
  return false;
}

/**
 * The documents of a real-shape bundle of about `count` objects: the fixtures in turn, copy after copy, each
 * fixture whole (so no workload loses the object it consumes): the stream holds `count` objects or a few
 * more, up to one fixture's documents less one. Deterministic.
 */
export function realShapeDocuments(count: number, dir: string = REAL_SHAPES_DIR): string[] {
  const units = realShapeUnits(dir);
  const docs: string[] = [];
  for (let copy = 0; docs.length < count; copy++) {
    for (const unit of units) {
      if (docs.length >= count) break;
      for (const d of unit.docs) docs.push(renameDocument(d, unit.names, `-${copy}`, `real-${copy % 20}`));
    }
  }
  return docs;
}
