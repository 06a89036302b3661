// Read stage, skim form: a plain Secret's or ConfigMap's facts without a tree — its identity, labels,
// annotations and uid, and each `data`/`stringData`/`binaryData` entry's key and where its value is written.
// A value is read again from the input (and then decoded by resolve/bundle.ts) only when a target consumes it.
// It walks the document as the subset reader does (read/skim-walker.ts) and declines (undefined) what it is not sure of.
import { OUT, outside } from './subset-scalars.ts';
import { plainSubsetText } from './subset-yaml.ts';
import { factString, identityOf } from './scan-identity.ts';
import { Walker, type Fact, type Role, type ValueSite } from './skim-walker.ts';
import { entryFields, type EntryTexts, type ScannedSource } from '../model/object.ts';

/** Keys a plain Secret or ConfigMap may hold at its root here (others, such as `sops:`, decline the document). */
const ROOT_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  Secret: new Set(['apiVersion', 'kind', 'metadata', 'type', 'immutable', 'data', 'stringData']),
  ConfigMap: new Set(['apiVersion', 'kind', 'metadata', 'immutable', 'data', 'binaryData']),
};
const KIND_LINE = /^kind: *(Secret|ConfigMap) *$/m;

/**
 * The facts of the one plain Secret or ConfigMap (`apiVersion: v1`) in `text` (one document's text, as for
 * scanIdentity), or undefined.
 * - Undefined whenever scanIdentity would be, when its name (else generateName) is empty, when its root holds
 *   a key a plain Secret or ConfigMap does not (`sops:` makes a SOPS Secret), and when any label, annotation or
 *   entry value is not a string scalar, or labels, annotations or an entry field is neither a map nor empty
 *   (a non-empty flow map of entries, too): the tree path reads those and reports what it finds.
 * - Accepting is a promise: the subset reader's tree of `text` gives the same identity, labels, annotations, uid,
 *   and the same entries in the same order (test/property/scan-source.test.ts holds it to that).
 * - `checked`: the caller found plainSubsetText true of a text holding this one. Default: false.
 */
export function scanSource(text: string, checked = false): ScannedSource | undefined {
  const kind = KIND_LINE.exec(text)?.[1] as 'Secret' | 'ConfigMap' | undefined;
  if (kind === undefined || (!checked && !plainSubsetText(text))) return undefined;
  const labels = new Map<string, string>();
  const annotations = new Map<string, string>();
  const [base64, textField] = entryFields(kind);
  const entries = new SourceText(text);
  const metadata: Role = { keys: METADATA_KEYS, facts: new Map(), under: new Map([['labels', stringsInto(labels)], ['annotations', stringsInto(annotations)]]) };
  const allowed = ROOT_KEYS[kind]!;
  const root: Role = {
    keys: allowed,
    facts: new Map(),
    under: new Map([['metadata', metadata], [base64, entriesInto(entries, 0)], [textField, entriesInto(entries, 1)]]),
    each: (key) => allowed.has(key) || outside(),
  };
  try {
    new Walker(text).document(root);
    const identity = identityOf(root.facts, metadata.facts);
    if (!identity || identity.apiVersion !== 'v1' || identity.kind !== kind || identity.name === '') return undefined;
    if (!isMapOrEmpty(metadata.facts.get('labels'), labels) || !isMapOrEmpty(metadata.facts.get('annotations'), annotations)) return undefined;
    if (!isMapOrEmpty(root.facts.get(base64)) || !isMapOrEmpty(root.facts.get(textField))) return undefined;
    const uid = factString(metadata.facts.get('uid'));
    return { identity, labels, annotations, ...(uid ? { uid } : {}), entries: entries.settled() };
  } catch (err) {
    if (err === OUT) return undefined;
    throw err;
  }
}

const METADATA_KEYS: ReadonlySet<string> = new Set(['name', 'generateName', 'namespace', 'uid', 'labels', 'annotations']);

/** A role that keeps every pair of a block map whose value is a string scalar, and declines any other. */
function stringsInto(out: Map<string, string>): Role {
  return { keys: NO_KEYS, facts: NO_FACTS, each: (key, fact) => out.set(key, stringOf(fact)) };
}

/** A role that keeps where every string value of a block map of entries is (field 0: base64, 1: text). */
function entriesInto(out: SourceText, field: 0 | 1): Role {
  return {
    keys: NO_KEYS,
    facts: NO_FACTS,
    each: (key, fact, site) => {
      stringOf(fact);
      out.add(field, key, site);
    },
  };
}

const NO_KEYS: ReadonlySet<string> = new Set();
/** The facts of a role that keeps none (NO_KEYS): the walker never adds to it, so every such role shares it (#37). */
const NO_FACTS = new Map<string, Fact>();

function stringOf(fact: Fact): string {
  const value = factString(fact);
  return value === undefined ? outside() : value;
}

/**
 * Whether a field is absent, empty (`labels:`) or a map: a block map (its pairs kept by its role), or a flow map
 * whose pairs go into `into` (string values only) — with no `into`, only an empty flow map.
 */
function isMapOrEmpty(fact: Fact | undefined, into?: Map<string, string>): boolean {
  if (fact === undefined || fact === 'map') return true;
  if (fact === 'other') return false;
  if (fact.kind === 'scalar') return fact.value === null;
  if (fact.kind !== 'map') return false;
  if (!into) return fact.items.length === 0;
  for (const pair of fact.items) into.set(factString(pair.key as Fact)!, stringOf(pair.value as Fact));
  return true;
}

/**
 * The entries of one scanned document as written: keys in input order, the base64 field's first, and where each
 * value is. `read` reads the values again with the walker that accepted them, so they are the strings the subset
 * reader's tree holds.
 */
class SourceText implements EntryTexts {
  private keys: string[] = [];
  /** pos, indent and depth of each value (ValueSite), three numbers per key. */
  private sites: number[] = [];
  /** How many keys come from the base64 field. */
  private base64Count = 0;

  constructor(private readonly text: string) {}

  add(field: 0 | 1, key: string, site: ValueSite): void {
    // The walker reads the root map's pairs in order: a base64 field after the text field puts its keys first.
    const at = field === 0 ? this.base64Count++ : this.keys.length;
    if (at === this.keys.length) {
      // The usual case, appended: splice would make an array of what it removes each time (#37).
      this.keys.push(key);
      this.sites.push(site.pos, site.indent, site.depth);
      return;
    }
    this.keys.splice(at, 0, key);
    this.sites.splice(at * 3, 0, site.pos, site.indent, site.depth);
  }

  /** Itself, its arrays at their length (grown ones keep room for more): a plan keeps it to the end of the run (#37). */
  settled(): this {
    this.keys = this.keys.slice();
    this.sites = this.sites.slice();
    return this;
  }

  read(): { base64: Array<[string, string]>; text: Array<[string, string]> } {
    const walker = new Walker(this.text);
    const pairs = this.keys.map((key, i): [string, string] => {
      const s = this.sites;
      const value = walker.valueAt({ pos: s[i * 3]!, indent: s[i * 3 + 1]!, depth: s[i * 3 + 2]! })?.value;
      if (typeof value !== 'string') throw new Error('internal: a scanned entry read differently the second time');
      return [key, value];
    });
    return { base64: pairs.slice(0, this.base64Count), text: pairs.slice(this.base64Count) };
  }
}
