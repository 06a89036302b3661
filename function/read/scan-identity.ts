// Read stage, skim form: one document's identity (apiVersion, kind, metadata name and namespace) without a tree,
// for objects the planner needs nothing else of (plan/identity-only.ts). It walks the document as the subset
// reader does (read/skim-walker.ts): it accepts exactly where that reader would read the document, and declines
// (undefined) everywhere else.
import { OUT } from './subset-scalars.ts';
import { plainSubsetText } from './subset-yaml.ts';
import { Walker, type Fact, type Role } from './skim-walker.ts';
import type { ScannedIdentity } from '../model/object.ts';
import { keepLayout } from './layouts.ts';

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
  const facts = new SkimFacts();
  try {
    new Walker(text, facts).document(IDENTITY_ROOT);
  } catch (err) {
    if (err === OUT) return undefined;
    throw err;
  }
  return identityOf(facts);
}

/**
 * What a skim keeps of a document's root map and its metadata for its identity (undefined: the key is absent);
 * one object per document, its fields all there from the start (read/scan-source.ts keeps one beside the rest).
 */
export class SkimFacts {
  apiVersion: Fact | undefined = undefined;
  kind: Fact | undefined = undefined;
  metadata: Fact | undefined = undefined;
  /** The root holds `items` (a list wrapper). */
  items = false;
  name: Fact | undefined = undefined;
  generateName: Fact | undefined = undefined;
  namespace: Fact | undefined = undefined;
}
keepLayout(new SkimFacts());

/** Keeps metadata's name, generateName and namespace. */
export function keepMetadataName(key: string, fact: Fact, facts: SkimFacts): void {
  if (key === 'name') facts.name = fact;
  else if (key === 'generateName') facts.generateName = fact;
  else if (key === 'namespace') facts.namespace = fact;
}

/** Keeps the root's apiVersion, kind and metadata, and whether it holds `items`. */
export function keepRootIdentity(key: string, fact: Fact, facts: SkimFacts): void {
  if (key === 'apiVersion') facts.apiVersion = fact;
  else if (key === 'kind') facts.kind = fact;
  else if (key === 'metadata') facts.metadata = fact;
  else if (key === 'items') facts.items = true;
}

const IDENTITY_METADATA: Role<SkimFacts> = { pair: (key, fact, _pos, _indent, _depth, facts) => keepMetadataName(key, fact, facts) };
const IDENTITY_ROOT: Role<SkimFacts> = { under: new Map([['metadata', IDENTITY_METADATA]]), pair: (key, fact, _pos, _indent, _depth, facts) => keepRootIdentity(key, fact, facts) };

/** The facts of a root map read: undefined unless they name a Kubernetes object the planner can index as is. */
export function identityOf(facts: SkimFacts): ScannedIdentity | undefined {
  const meta = facts.metadata;
  if (facts.items || (meta !== undefined && meta !== 'map')) return undefined;
  const apiVersion = factString(facts.apiVersion);
  const kind = factString(facts.kind);
  if (!apiVersion || !kind) return undefined;
  const name = factString(facts.name) ?? factString(facts.generateName) ?? '';
  const namespace = factString(facts.namespace);
  return namespace === undefined ? { apiVersion, kind, name } : { apiVersion, kind, name, namespace };
}

/** A fact's string, when it is a string scalar. */
export function factString(v: Fact | undefined): string | undefined {
  return typeof v === 'object' && v.kind === 'scalar' && typeof v.value === 'string' ? v.value : undefined;
}
