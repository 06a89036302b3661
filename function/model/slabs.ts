// Model: small byte values a run keeps to its end (digests, decoded Secret and ConfigMap values), written into
// shared 64 KiB slabs and kept as views: one typed array a value, where a buffer of its own was a typed array, an
// array buffer and its bytes, each for the collector to copy and promote (#37). A view is not for bytes sent to
// another thread, which would copy the whole slab with each value.

const SLAB_BYTES = 64 * 1024;
/** A value over a sixteenth of a slab gets a buffer of its own, so no large value pins a slab's rest. */
const OWN_BUFFER_OVER = SLAB_BYTES / 16;

export class Slabs {
  private slab = Buffer.alloc(0);
  private at = 0;

  /** `bytes` copied into a slab: a Buffer view of the copy. */
  copy(bytes: Buffer): Buffer {
    if (bytes.length > OWN_BUFFER_OVER) return Buffer.from(bytes);
    const at = this.room(bytes.length);
    bytes.copy(this.slab, at);
    return this.slab.subarray(at, at + bytes.length);
  }

  /** `text` encoded into a slab (as Buffer.from(text, encoding) encodes it): a Uint8Array view of the bytes. */
  encode(text: string, encoding: 'base64' | 'utf8'): Uint8Array {
    const length = Buffer.byteLength(text, encoding);
    if (length > OWN_BUFFER_OVER) return new Uint8Array(Buffer.from(text, encoding));
    const at = this.room(length);
    const written = this.slab.write(text, at, length, encoding);
    return new Uint8Array(this.slab.buffer, this.slab.byteOffset + at, written);
  }

  /** Where `length` bytes go: in the current slab, or at the start of a new one. */
  private room(length: number): number {
    if (this.at + length > this.slab.length) {
      this.slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
      this.at = 0;
    }
    const at = this.at;
    this.at += length;
    return at;
  }
}
