// The floor: reading the input and writing it back unchanged, in Node — stdin read fully as UTF-8 text,
// then written to stdout. Every mode's time is a multiple of this on the same input.
import { readFileSync } from 'node:fs';

process.stdout.write(readFileSync(0, 'utf8'));
