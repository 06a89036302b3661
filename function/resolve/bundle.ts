// Resolve stage: a Secret or ConfigMap in the bundle → its bytes per key, exactly as the API server stores them.
// Secret: `data` base64-decoded, `stringData` folded in (it wins). ConfigMap: `data` as UTF-8, `binaryData` decoded.
import { decodeBase64StrictKept, utf8Kept } from './base64.ts';
import { errorResult, warningResult, type Result } from '../model/results.ts';
import { child, formatPath, NodeReader } from '../model/nodes.ts';
import { entryFields, type KObject, type SourceEntries } from '../model/object.ts';
import { isSafeToRead } from '../model/safety.ts';

// Kept on the entries map itself (as the subset reader keeps map layouts): which keys of a ConfigMap came
// from `binaryData`. A reader of one key by name may look at `data` only: kagent's Foundry endpointFrom
// (`cm.Data[key]`, #13).
const BINARY_DATA_KEYS = Symbol('rollstamp.binaryDataKeys');
type WithBinaryKeys = Map<string, Uint8Array> & { [BINARY_DATA_KEYS]?: ReadonlySet<string> };
const NONE: ReadonlySet<string> = new Set();

/** Records which keys of a ConfigMap's entries came from `binaryData`. */
export function markBinaryDataKeys(entries: Map<string, Uint8Array>, keys: ReadonlySet<string>): void {
  (entries as WithBinaryKeys)[BINARY_DATA_KEYS] = keys;
}

/** The keys of a ConfigMap's entries that came from `binaryData` (empty for a Secret). */
export function binaryDataKeys(entries: SourceEntries): ReadonlySet<string> {
  return (entries as WithBinaryKeys)[BINARY_DATA_KEYS] ?? NONE;
}

// Argo CD's API shows every value of a Secret's `data` as a run of `+` (argoproj/argo-cd
// gitops-engine/pkg/diff/diff.go HideSecretData: `++++++++`, four more for each further distinct value of a
// key), and argocd-diff-preview's renders come from that API (server/application/application.go GetManifests).
// Such a value is valid base64, of bytes no real Secret holds: it is hashed as written, and marked, so `diff`
// can fall back to the stamps the render already carries (#38).
const ARGO_CD_MASK = /^(?:\+{4}){2,}$/;
const MASKED_KEYS = Symbol('rollstamp.maskedKeys');
type WithMaskedKeys = Map<string, Uint8Array> & { [MASKED_KEYS]?: ReadonlySet<string> };

/** The keys of a Secret's entries whose `data` value is Argo CD's mask (empty for a real value). */
export function maskedKeys(entries: SourceEntries): ReadonlySet<string> {
  return (entries as WithMaskedKeys)[MASKED_KEYS] ?? NONE;
}

/** The entries without the keys that came from `binaryData`: what a reader of ConfigMap `data` sees. */
export function dataEntries(entries: SourceEntries): SourceEntries {
  const binary = binaryDataKeys(entries);
  return binary.size === 0 ? entries : new Map([...entries].filter(([key]) => !binary.has(key)));
}

/**
 * Decodes one Secret or ConfigMap.
 * - Errors (non-base64 `data`, non-string values, a key in both `data` and `binaryData`, aliases)
 *   name the object and the field, never the value. Returns undefined when there was any.
 * - A Secret whose `data` holds Argo CD's mask is decoded as written, its masked keys marked (maskedKeys),
 *   with one MASKED_VALUES warning.
 */
export function decodeSourceObject(obj: KObject, results: Result[]): SourceEntries | undefined {
  if (!isSafeToRead(obj, results)) return undefined;
  const reader = new NodeReader(obj.subject, results);
  const node = obj.item.node;
  // Each field is read when decoding comes to it, so its problems are reported in the order they always were.
  const field = (name: string) => (): Pairs => {
    const map = reader.map(child(node, name), [name]);
    return map ? reader.stringEntries(map, [name]) : [];
  };
  const [base64Field, textField] = fieldsOf(obj);
  return decodeEntries(obj, field(base64Field), field(textField), results);
}

/**
 * The entries of a plain Secret or ConfigMap whose tree is gone (KObject.decoded, KObject.entryTexts): decoded
 * when it was indexed, or now, from the entries its scan kept (read/scan-source.ts), the same way.
 */
export function treelessEntries(obj: KObject, results: Result[]): SourceEntries | undefined {
  if (obj.decoded) {
    results.push(...obj.decoded.results);
    return obj.decoded.entries;
  }
  const texts = obj.entryTexts!.read();
  return decodeEntries(obj, () => texts.base64, () => texts.text, results);
}

/** The base64 field and the text field of a Secret or ConfigMap (model/object.ts). */
function fieldsOf(obj: KObject): readonly [base64: string, text: string] {
  return entryFields(obj.kind === 'Secret' ? 'Secret' : 'ConfigMap');
}

/** [key, value] of a field's entries, in input order. */
type Pairs = ReadonlyArray<readonly [string, string, ...unknown[]]>;

/** The entries from the base64 field's and then the text field's string values (see decodeSourceObject). */
function decodeEntries(obj: KObject, base64: () => Pairs, texts: () => Pairs, results: Result[]): SourceEntries | undefined {
  const before = results.length;
  const [base64Field, textField] = fieldsOf(obj);
  const entries = new Map<string, Uint8Array>();
  // Made when a key needs them: a Secret never marks its keys as binary, and few values are masked (#37).
  let binaryKeys: Set<string> | undefined;
  let masked: Set<string> | undefined;
  for (const [key, value] of base64()) {
    if (obj.kind === 'ConfigMap') (binaryKeys ??= new Set()).add(key);
    if (obj.kind === 'Secret' && ARGO_CD_MASK.test(value)) (masked ??= new Set()).add(key);
    const bytes = decodeBase64StrictKept(value);
    if (bytes) entries.set(key, bytes);
    else results.push(errorResult('BAD_BASE64', 'value is not valid base64', obj.subject, formatPath([base64Field, key])));
  }
  for (const [key, value] of texts()) {
    if (obj.kind === 'ConfigMap' && entries.has(key)) {
      results.push(errorResult('DUPLICATE_KEY', 'key is in both data and binaryData', obj.subject, formatPath([textField, key])));
    }
    entries.set(key, utf8Kept(value)); // Secret: stringData wins over data, as the API server merges it
  }
  if (binaryKeys !== undefined) markBinaryDataKeys(entries, binaryKeys);
  if (results.length > before) return undefined;
  if (masked !== undefined) {
    (entries as WithMaskedKeys)[MASKED_KEYS] = masked;
    const message = 'values are masked as Argo CD\'s API shows them (++++++++): a hash over them does not follow the real values (rollstamp diff compares the stamps the render carries)';
    results.push(warningResult('MASKED_VALUES', message, obj.subject, base64Field));
  }
  return entries;
}
