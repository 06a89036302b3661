// Hash stage: scheme v1. Every field is length-prefixed (8-byte big-endian length, then the bytes), so the
// encoding is injective: no two different inputs give the same message. No YAML here — bytes in, digest out.
import { createHash, createHmac } from 'node:crypto';
import { SCHEME_V1 } from './constants.ts';
import type { SourceEntries } from './resolve/bundle.ts';

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

/** Builds a scheme v1 message field by field. */
class Message {
  private parts: Buffer[] = [];

  field(value: string | Uint8Array): this {
    const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
    const len = Buffer.alloc(8);
    len.writeBigUInt64BE(BigInt(bytes.length));
    this.parts.push(len, bytes);
    return this;
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** What a source digest covers: identity, and either "missing" or the selected keys. */
export interface SourceInput {
  cls: string;
  namespace: string;
  name: string;
  /** undefined: the object is missing (a fixed marker, so its later appearance changes the hash). */
  entries: SourceEntries | undefined;
  /** Keys to encode; an absent one is encoded as absent, never as empty. */
  keys: readonly string[];
}

/** Orders strings by their UTF-8 bytes, as the scheme requires. */
export const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * The scheme v1 message of one source:
 * F("rollstamp.v1") F("source") F(class) F(namespace) F(name), then F("missing"), or F("present") and for each
 * key in byte order F(key) followed by F("value") F(bytes) or F("absent").
 */
export function sourceMessage(input: SourceInput): Buffer {
  const m = new Message().field(SCHEME_V1).field('source').field(input.cls).field(input.namespace).field(input.name);
  if (input.entries === undefined) return m.field('missing').bytes();
  m.field('present');
  for (const key of [...new Set(input.keys)].sort(byteOrder)) {
    const value = input.entries.get(key);
    m.field(key);
    if (value === undefined) m.field('absent');
    else m.field('value').field(value);
  }
  return m.bytes();
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
  return `${hasher.algorithm}:${Buffer.from(digest).toString('hex')}`;
}
