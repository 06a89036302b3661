// Hash stage, kagent 1.x: an AgentTemplate's output schema as kagent 1.0.x compiles it (#35). kagent reads one
// ConfigMap key, refuses what is not one JSON document of at most 64 KiB, and keeps the schema re-encoded, so a
// reformat or a key reorder of the same document compiles to the same revision
// (go/core/internal/translator/outputschema.go@25bc8a04 `resolveOutputSchema`, `validateOutputSchema`).
import { byteOrder } from '../model/order.ts';

/** kagent's `maxOutputSchemaBytes`. */
const MAX_SCHEMA_BYTES = 64 << 10;
/** Go's encoding/json refuses deeper nesting; kagent decodes with it. */
const MAX_DEPTH = 10_000;

/** The schema's canonical JSON text, or why kagent refuses it (no value in the reason). */
export type OutputSchema = { canonical: string } | { invalid: string };

/**
 * The canonical form of an output schema: JSON with each object's keys in one fixed order and no insignificant space.
 * - Refused, as kagent refuses them: empty, over 64 KiB, not exactly one JSON value, nested deeper than Go
 *   decodes, or not an object whose `type` is "object" (the root rule of kagent's portable profile; the rest
 *   of the profile is kagent's to check).
 * - No recursion whose depth the input decides: the depth is measured first, and serialising is the engine's.
 */
export function canonicalOutputSchema(bytes: Uint8Array): OutputSchema {
  if (bytes.length === 0) return { invalid: 'the output schema is empty' };
  if (bytes.length > MAX_SCHEMA_BYTES) return { invalid: `the output schema exceeds ${MAX_SCHEMA_BYTES} bytes` };
  const text = new TextDecoder().decode(bytes);
  if (depthOf(text) > MAX_DEPTH) return { invalid: `the output schema nests deeper than ${MAX_DEPTH} levels` };
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return { invalid: 'the output schema is not one JSON value' };
  }
  const root = document as Record<string, unknown> | null;
  if (root === null || typeof root !== 'object' || Array.isArray(root) || root.type !== 'object') {
    return { invalid: 'the output schema must be a JSON object with "type": "object"' };
  }
  try {
    return { canonical: JSON.stringify(document, sortKeys) };
  } catch {
    return { invalid: `the output schema nests deeper than this process can encode` };
  }
}

/** JSON.stringify's replacer: each object's own keys in byte order (arrays and scalars as they are). */
function sortKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort(byteOrder)) {
    Object.defineProperty(sorted, key, { value: (value as Record<string, unknown>)[key], enumerable: true, writable: true, configurable: true });
  }
  return sorted;
}

/** The deepest nesting of `[` and `{` outside strings (a bad document is refused by the parse after). */
function depthOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
