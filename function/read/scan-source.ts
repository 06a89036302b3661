// Read stage, skim form: a plain Secret's or ConfigMap's facts without a tree — its identity, labels,
// annotations and uid, and each `data`/`stringData`/`binaryData` entry's key and where its value is written.
// A value is read again from the input (and then decoded by resolve/bundle.ts) only when a target consumes it.
// It walks the document as the subset reader does (read/skim-walker.ts) and declines (undefined) what it is not sure of.
import { OUT, outside } from './subset-scalars.ts';
import { plainSubsetText } from './subset-yaml.ts';
import { factString, identityOf, keepMetadataName, keepRootIdentity, SkimFacts } from './scan-identity.ts';
import { Walker, type Fact, type Role } from './skim-walker.ts';
import { entryFields, type EntryTexts, type ScannedSource } from '../model/object.ts';
import { keepLayout } from './layouts.ts';

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
 * - `kind`: the caller found it on the text's first top-level `kind:` line, so it is not searched for again.
 */
export function scanSource(text: string, checked = false, kind?: 'Secret' | 'ConfigMap'): ScannedSource | undefined {
  kind ??= KIND_LINE.exec(text)?.[1] as 'Secret' | 'ConfigMap' | undefined;
  if (kind === undefined || (!checked && !plainSubsetText(text))) return undefined;
  const scan = new SourceScan(text);
  try {
    new Walker(text, scan).document(kind === 'Secret' ? SECRET_ROOT : CONFIG_MAP_ROOT);
    const identity = identityOf(scan.identity);
    if (!identity || identity.apiVersion !== 'v1' || identity.kind !== kind || identity.name === '') return undefined;
    if (!isMapOrEmpty(scan.labelsFact, scan.labels) || !isMapOrEmpty(scan.annotationsFact, scan.annotations)) return undefined;
    if (!isMapOrEmpty(scan.base64) || !isMapOrEmpty(scan.textField)) return undefined;
    const uid = factString(scan.uid);
    return { identity, labels: scan.labels, annotations: scan.annotations, ...(uid ? { uid } : {}), entries: scan.entries.settled() };
  } catch (err) {
    if (err === OUT) return undefined;
    throw err;
  }
}

/**
 * What scanning one Secret or ConfigMap keeps: its identity's facts, its uid, labels, annotations and entries. The
 * identity's facts are a SkimFacts of their own, not inherited: as a subclass, scanIdentity's objects and these had
 * two layouts, and SkimFacts' field initializer and the identity helpers were optimized again for the second (#37).
 */
class SourceScan {
  readonly identity = new SkimFacts();
  uid: Fact | undefined = undefined;
  labelsFact: Fact | undefined = undefined;
  annotationsFact: Fact | undefined = undefined;
  /** The facts of the base64 field and of the text field (`data` and `stringData` of a Secret, `binaryData` and `data` of a ConfigMap). */
  base64: Fact | undefined = undefined;
  textField: Fact | undefined = undefined;
  readonly labels = new Map<string, string>();
  readonly annotations = new Map<string, string>();
  readonly entries: SourceText;

  constructor(text: string) {
    this.entries = new SourceText(text);
  }
}

/** Every pair of a block map of labels or annotations, whose values must be string scalars (else the scan declines). */
const LABELS: Role<SourceScan> = { pair: (key, fact, _pos, _indent, _depth, scan) => scan.labels.set(key, stringOf(fact)) };
const ANNOTATIONS: Role<SourceScan> = { pair: (key, fact, _pos, _indent, _depth, scan) => scan.annotations.set(key, stringOf(fact)) };

/** Where every string value of a block map of entries is (field 0: base64, 1: text). */
const BASE64_ENTRIES: Role<SourceScan> = { pair: (key, fact, pos, indent, depth, scan) => addEntry(scan, 0, key, fact, pos, indent, depth) };
const TEXT_ENTRIES: Role<SourceScan> = { pair: (key, fact, pos, indent, depth, scan) => addEntry(scan, 1, key, fact, pos, indent, depth) };

function addEntry(scan: SourceScan, field: 0 | 1, key: string, fact: Fact, pos: number, indent: number, depth: number): void {
  stringOf(fact); // a value that is not a string scalar declines the scan
  scan.entries.add(field, key, pos, indent, depth);
}

const METADATA: Role<SourceScan> = {
  under: new Map([
    ['labels', LABELS],
    ['annotations', ANNOTATIONS],
  ]),
  pair: (key, fact, _pos, _indent, _depth, scan) => {
    if (key === 'uid') scan.uid = fact;
    else if (key === 'labels') scan.labelsFact = fact;
    else if (key === 'annotations') scan.annotationsFact = fact;
    else keepMetadataName(key, fact, scan.identity);
  },
};

/** The root role of a kind: only the keys such an object may hold, each field of entries read with its role. */
function sourceRoot(kind: 'Secret' | 'ConfigMap'): Role<SourceScan> {
  const [base64, textField] = entryFields(kind);
  const allowed = ROOT_KEYS[kind]!;
  return {
    under: new Map([
      ['metadata', METADATA],
      [base64, BASE64_ENTRIES],
      [textField, TEXT_ENTRIES],
    ]),
    pair: (key, fact, _pos, _indent, _depth, scan) => {
      if (!allowed.has(key)) outside();
      if (key === base64) scan.base64 = fact;
      else if (key === textField) scan.textField = fact;
      else keepRootIdentity(key, fact, scan.identity);
    },
  };
}
const SECRET_ROOT = sourceRoot('Secret');
const CONFIG_MAP_ROOT = sourceRoot('ConfigMap');

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

  /** An entry of field 0 (base64) or 1 (text) whose value is at the ValueSite `pos`, `indent`, `depth`. */
  add(field: 0 | 1, key: string, pos: number, indent: number, depth: number): void {
    // The walker reads the root map's pairs in order: a base64 field after the text field puts its keys first.
    const at = field === 0 ? this.base64Count++ : this.keys.length;
    if (at === this.keys.length) {
      // The usual case, appended: splice would make an array of what it removes each time (#37).
      this.keys.push(key);
      this.sites.push(pos, indent, depth);
      return;
    }
    this.keys.splice(at, 0, key);
    this.sites.splice(at * 3, 0, pos, indent, depth);
  }

  /** Itself, its arrays at their length (grown ones keep room for more): a plan keeps it to the end of the run (#37). */
  settled(): this {
    this.keys = this.keys.slice();
    this.sites = this.sites.slice();
    return this;
  }

  read(): { base64: Array<[string, string]>; text: Array<[string, string]> } {
    const walker = new Walker(this.text, undefined);
    const pairs = this.keys.map((key, i): [string, string] => {
      const s = this.sites;
      const value = walker.valueAt({ pos: s[i * 3]!, indent: s[i * 3 + 1]!, depth: s[i * 3 + 2]! })?.value;
      if (typeof value !== 'string') throw new Error('internal: a scanned entry read differently the second time');
      return [key, value];
    });
    return { base64: pairs.slice(0, this.base64Count), text: pairs.slice(this.base64Count) };
  }
}
// After SourceText, which making one needs.
keepLayout(new SourceScan(''));
