// Model: the one order rollstamp sorts ids and keys in — UTF-8 byte order, as Go's sort.Strings and kagent do.

/** Orders strings by their UTF-8 bytes, as the scheme requires. */
export const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
