// Hash stage: scheme v1. Every field is length-prefixed (8-byte big-endian length, then the bytes), so the
// encoding is injective: no two different inputs give the same message. No YAML here — bytes in, digest out.
import { createHash, createHmac } from 'node:crypto';
import { SCHEME_V1 } from '../model/constants.ts';
import type { Produced, SourceEntries } from '../model/object.ts';
import { byteOrder } from '../model/order.ts';

/** A digest function: SHA-256, or HMAC-SHA256 under a key. */
export interface Hasher {
  /** `sha256` or `hmac-sha256`: the prefix of written hashes. */
  algorithm: 'sha256' | 'hmac-sha256';
  digest(message: Uint8Array): Buffer;
}

/** SHA-256 without a key, HMAC-SHA256 with one (an unkeyed digest of a short password is a guessing oracle). */
export function makeHasher(key?: Uint8Array): Hasher {
  if (key === undefined) return { algorithm: 'sha256', digest: (m) => createHash('sha256').update(m).digest() };
  const k = Buffer.from(key);
  return { algorithm: 'hmac-sha256', digest: (m) => createHmac('sha256', k).update(m).digest() };
}

/**
 * Builds a scheme v1 message field by field. Strings are encoded straight into the one output buffer (not each
 * into a Buffer of its own first): a run digests a message per source selection and per target, and those small
 * Buffers were most of what hashing allocated.
 */
class Message {
  private readonly parts: Array<string | Uint8Array> = [];
  private size = 0;

  field(value: string | Uint8Array): this {
    this.parts.push(value);
    this.size += 8 + (typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : value.length);
    return this;
  }

  /** The message: each field's length as 8 bytes big-endian (two 32-bit halves, no BigInt), then its bytes. */
  bytes(): Buffer {
    const out = Buffer.allocUnsafe(this.size);
    let at = 0;
    for (const part of this.parts) {
      const body = at + 8;
      let length: number;
      if (typeof part === 'string') length = out.write(part, body, 'utf8');
      else {
        out.set(part, body);
        length = part.length;
      }
      writeLength(out, at, length);
      at = body + length;
    }
    // byteLength and write agree (a lone surrogate is 3 bytes of U+FFFD in both); a mismatch is a bug.
    if (at !== this.size) throw new Error('internal: a scheme v1 message was not the size its fields add up to');
    return out;
  }
}

/** An 8-byte big-endian length at `at`, byte by byte (Buffer's writeUInt32BE range-checks every call). */
function writeLength(out: Buffer, at: number, length: number): void {
  const high = Math.floor(length / 2 ** 32);
  const low = length >>> 0;
  out[at] = high >>> 24;
  out[at + 1] = (high >>> 16) & 0xff;
  out[at + 2] = (high >>> 8) & 0xff;
  out[at + 3] = high & 0xff;
  out[at + 4] = low >>> 24;
  out[at + 5] = (low >>> 16) & 0xff;
  out[at + 6] = (low >>> 8) & 0xff;
  out[at + 7] = low & 0xff;
}

/** A message of `fields`, each length-prefixed as in every scheme v1 message (the live-read record's digest uses it). */
export function fieldsMessage(fields: ReadonlyArray<string | Uint8Array>): Buffer {
  const m = new Message();
  for (const f of fields) m.field(f);
  return m.bytes();
}

/** What a source digest covers: identity, and either "missing" or the selected keys. */
export interface SourceInput {
  cls: string;
  namespace: string;
  name: string;
  /** undefined: the object is missing (a fixed marker, so its later appearance changes the hash). */
  entries: SourceEntries | undefined;
  /** Instead of entries: a producer's value-determining fields (its keyed part selected by `keys`). */
  produced?: Pick<Produced, 'kind' | 'common' | 'keyed'>;
  /** Keys to encode; an absent one is encoded as absent, never as empty. */
  keys: readonly string[];
}

/**
 * The scheme v1 message of one source:
 * F("rollstamp.v1") F("source") F(class) F(namespace) F(name), then
 * - F("missing"); or
 * - F("present") and the keys: for each key in byte order F(key) followed by F("value") F(bytes) or F("absent"); or
 * - for a source made by a producer: F("produced") F(producer kind) F(canonical fields), then F("unkeyed"), or
 *   F("keyed") and the keys as above, each value being that key's own producer entry.
 */
export function sourceMessage(input: SourceInput): Buffer {
  const m = new Message().field(SCHEME_V1).field('source').field(input.cls).field(input.namespace).field(input.name);
  if (input.produced) {
    m.field('produced').field(input.produced.kind).field(input.produced.common);
    if (!input.produced.keyed) return m.field('unkeyed').bytes();
    return appendKeys(m.field('keyed'), input.produced.keyed, input.keys).bytes();
  }
  if (input.entries === undefined) return m.field('missing').bytes();
  return appendKeys(m.field('present'), input.entries, input.keys).bytes();
}

function appendKeys(m: Message, entries: SourceEntries, keys: readonly string[]): Message {
  for (const key of [...new Set(keys)].sort(byteOrder)) {
    const value = entries.get(key);
    m.field(key);
    if (value === undefined) m.field('absent');
    else m.field('value').field(value);
  }
  return m;
}

/**
 * The scheme v1 message of one target: F("rollstamp.v1") F("target"), then for each source in byte order of
 * its id (`class/namespace/name`) F(id) F(source digest).
 */
export function targetMessage(sources: ReadonlyArray<{ id: string; digest: Uint8Array }>): Buffer {
  const m = new Message().field(SCHEME_V1).field('target');
  for (const s of [...sources].sort((a, b) => byteOrder(a.id, b.id))) m.field(s.id).field(s.digest);
  return m.bytes();
}

/** `sha256:<64 hex>` or `hmac-sha256:<64 hex>`. */
export function formatDigest(hasher: Hasher, digest: Uint8Array): string {
  // A view of the digest's bytes, not a copy (Buffer.from of a Buffer copies it).
  return `${hasher.algorithm}:${Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString('hex')}`;
}
