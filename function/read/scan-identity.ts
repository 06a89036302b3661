// Read stage, skim form: one document's identity (apiVersion, kind, metadata name and namespace) without a tree,
// for objects the planner needs nothing else of (plan/identity-only.ts). It walks the document as the subset
// reader does (read/skim-walker.ts): it accepts exactly where that reader would read the document, and declines
// (undefined) everywhere else.
import { OUT } from './subset-scalars.ts';
import { plainSubsetText } from './subset-yaml.ts';
import { Walker, type Fact, type Role } from './skim-walker.ts';
import type { ScannedIdentity } from '../model/object.ts';

/**
 * The identity of the one document in `text` (one document's text as read/stream-documents.ts cuts it: at
 * most one `---` line, with only blank and comment lines above it), or undefined.
 * - Undefined whenever the subset reader would not read `text` as exactly that one document, for an empty
 *   document, and for one whose root holds `items` (a list wrapper: its entries are the objects), whose
 *   `metadata` is not a block map, or whose apiVersion or kind is not a non-empty string.
 * - Accepting is a promise: the subset reader reads `text` into one document whose root map gives these facts
 *   (test/property/scan-identity.test.ts holds it to that).
 * - `checked`: the caller found plainSubsetText true of a text holding this one. Default: false.
 */
export function scanIdentity(text: string, checked = false): ScannedIdentity | undefined {
  if (!checked && !plainSubsetText(text)) return undefined;
  const { root, metadata } = identityRoles();
  try {
    new Walker(text).document(root);
  } catch (err) {
    if (err === OUT) return undefined;
    throw err;
  }
  return identityOf(root.facts, metadata.facts);
}

const ROOT_KEYS: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata', 'items']);
const METADATA_KEYS: ReadonlySet<string> = new Set(['name', 'generateName', 'namespace']);

/** The roles an identity is read with: the root's keys, and metadata's. */
function identityRoles(): { root: Role; metadata: Role } {
  const metadata: Role = { keys: METADATA_KEYS, facts: new Map() };
  return { root: { keys: ROOT_KEYS, facts: new Map(), under: new Map([['metadata', metadata]]) }, metadata };
}

/** The facts of a root map read: undefined unless they name a Kubernetes object the planner can index as is. */
export function identityOf(root: ReadonlyMap<string, Fact>, metadata: ReadonlyMap<string, Fact>): ScannedIdentity | undefined {
  const meta = root.get('metadata');
  if (root.has('items') || (meta !== undefined && meta !== 'map')) return undefined;
  const apiVersion = factString(root.get('apiVersion'));
  const kind = factString(root.get('kind'));
  if (!apiVersion || !kind) return undefined;
  const name = factString(metadata.get('name')) ?? factString(metadata.get('generateName')) ?? '';
  const namespace = factString(metadata.get('namespace'));
  return namespace === undefined ? { apiVersion, kind, name } : { apiVersion, kind, name, namespace };
}

/** A fact's string, when it is a string scalar. */
export function factString(v: Fact | undefined): string | undefined {
  return typeof v === 'object' && v.kind === 'scalar' && typeof v.value === 'string' ? v.value : undefined;
}
