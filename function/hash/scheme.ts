// Hash stage: scheme v1. Every field is length-prefixed (8-byte big-endian length, then the bytes), so the
// encoding is injective: no two different inputs give the same message. No YAML here — bytes in, digest out.
import crypto, { createHash, createHmac } from 'node:crypto';
import { SCHEME_V1 } from '../model/constants.ts';
import type { Produced, SourceEntries } from '../model/object.ts';
import { itself, sortInByteOrder } from '../model/order.ts';

/** A digest function: SHA-256, or HMAC-SHA256 under a key. */
export interface Hasher {
  /** `sha256` or `hmac-sha256`: the prefix of written hashes. */
  algorithm: 'sha256' | 'hmac-sha256';
  digest(message: Uint8Array): Buffer;
}

/** SHA-256 without a key, HMAC-SHA256 with one (an unkeyed digest of a short password is a guessing oracle). */
export function makeHasher(key?: Uint8Array): Hasher {
  if (key === undefined) return { algorithm: 'sha256', digest: sha256 };
  const k = Buffer.from(key);
  return { algorithm: 'hmac-sha256', digest: (m) => createHmac('sha256', k).update(m).digest() };
}

/**
 * SHA-256 in one call where node has `crypto.hash` (20.12, 21.7 and later): no Hash object per digest, which a run
 * makes one of per source selection and per target (#37). Looked up through the module object on a call, so crypto
 * still loads on the first digest (build.mjs defers it) and an older node 20 takes createHash. Only a function
 * found is kept: the startup snapshot's warm-up hashes with a stand-in that has none, and what it leaves in the
 * heap ships in the blob.
 */
function sha256(message: Uint8Array): Buffer {
  if (oneShot === undefined && typeof crypto.hash === 'function') oneShot = gives32Bytes(crypto.hash) ? crypto.hash : null;
  return oneShot ? (oneShot('sha256', message, 'buffer') as unknown as Buffer) : createHash('sha256').update(message).digest();
}
let oneShot: typeof crypto.hash | null | undefined;

/** Whether `hash` returns the digest's bytes when asked for a buffer: a hex string instead would change every stamp. */
function gives32Bytes(hash: typeof crypto.hash): boolean {
  try {
    const digest: unknown = hash('sha256', new Uint8Array(0), 'buffer');
    return Buffer.isBuffer(digest) && digest.length === 32;
  } catch {
    return false; // a node that does not take 'buffer' there
  }
}

/**
 * Builds a scheme v1 message field by field into one buffer that grows as needed, each field's 8-byte length
 * written once its bytes are (a string's UTF-8 length is known only then). `bytes()` is a view of that buffer:
 * valid until the message is reset, which lets a run write every message into one buffer (#37).
 */
class Message {
  private buffer = Buffer.allocUnsafe(256);
  private at = 0;

  reset(): this {
    this.at = 0;
    return this;
  }

  field(value: string | Uint8Array): this {
    if (typeof value === 'string') return this.text(value);
    this.reserve(8 + value.length);
    writeLength(this.buffer, this.at, value.length);
    this.buffer.set(value, this.at + 8);
    this.at += 8 + value.length;
    return this;
  }

  /** The message so far: a view of the buffer, not a copy. */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.at);
  }

  /**
   * A string field as UTF-8: ASCII byte by byte (names and keys nearly always are; a call into Buffer#write per
   * field cost more than the copy), anything else by Buffer#write, which encodes a lone surrogate as U+FFFD, as
   * Buffer.from does. A UTF-16 unit is at most 3 bytes of UTF-8, so the room reserved always suffices.
   */
  private text(value: string): this {
    const units = value.length;
    this.reserve(8 + 3 * units);
    const out = this.buffer;
    const body = this.at + 8;
    let i = 0;
    for (; i < units; i++) {
      const unit = value.charCodeAt(i);
      if (unit >= 0x80) break;
      out[body + i] = unit;
    }
    const length = i === units ? units : out.write(value, body, 'utf8');
    writeLength(out, this.at, length);
    this.at = body + length;
    return this;
  }

  private reserve(bytes: number): void {
    const needed = this.at + bytes;
    if (needed <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(needed, 2 * this.buffer.length));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
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

/**
 * The one message a run's digests are written into, one after another (sourceDigest, targetDigest): the core is
 * synchronous and a message is digested before the next is begun, so nothing sees it half written.
 */
const scratch = new Message();

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
  /** `keys` holds no key twice (the caller built it so): they are sorted without first being made distinct. */
  distinct?: boolean;
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
  return writeSource(new Message(), input).bytes();
}

/** `hasher`'s digest of sourceMessage(input), the message written into the run's one buffer. */
export function sourceDigest(hasher: Hasher, input: SourceInput): Buffer {
  return hasher.digest(writeSource(scratch.reset(), input).bytes());
}

function writeSource(m: Message, input: SourceInput): Message {
  m.field(SCHEME_V1).field('source').field(input.cls).field(input.namespace).field(input.name);
  if (input.produced) {
    m.field('produced').field(input.produced.kind).field(input.produced.common);
    if (!input.produced.keyed) return m.field('unkeyed');
    return appendKeys(m.field('keyed'), input.produced.keyed, input);
  }
  if (input.entries === undefined) return m.field('missing');
  return appendKeys(m.field('present'), input.entries, input);
}

function appendKeys(m: Message, entries: SourceEntries, input: SourceInput): Message {
  const { keys } = input;
  // One key needs no sort (a key reference, a source's only key); a copy otherwise, the caller's list stays as given.
  const sorted = keys.length === 1 ? keys : sortInByteOrder(input.distinct ? [...keys] : [...new Set(keys)], itself);
  for (const key of sorted) {
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
  return writeTarget(new Message(), sources).bytes();
}

/** `hasher`'s digest of targetMessage(sources), the message written into the run's one buffer. */
export function targetDigest(hasher: Hasher, sources: ReadonlyArray<{ id: string; digest: Uint8Array }>): Buffer {
  return hasher.digest(writeTarget(scratch.reset(), sources).bytes());
}

function writeTarget(m: Message, sources: ReadonlyArray<{ id: string; digest: Uint8Array }>): Message {
  m.field(SCHEME_V1).field('target');
  for (const s of sources.length === 1 ? sources : sortInByteOrder([...sources], idOf)) m.field(s.id).field(s.digest);
  return m;
}

const idOf = (source: { id: string }): string => source.id;

/** `sha256:<64 hex>` or `hmac-sha256:<64 hex>`. */
export function formatDigest(hasher: Hasher, digest: Uint8Array): string {
  // A view of the digest's bytes, not a copy (Buffer.from of a Buffer copies it).
  return `${hasher.algorithm}:${Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString('hex')}`;
}
