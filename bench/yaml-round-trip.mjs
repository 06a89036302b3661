// Informational row of the benchmark: a lossless YAML round trip in Node with the library rollstamp uses —
// parse and print, nothing else. `stream`: a multi-document stream; `rl`: one ResourceList document.
import { readFileSync } from 'node:fs';
import { parseAllDocuments, parseDocument } from 'yaml';

const text = readFileSync(0, 'utf8');
const out =
  process.argv[2] === 'rl'
    ? parseDocument(text, { keepSourceTokens: true }).toString({ lineWidth: 0 })
    : parseAllDocuments(text, { keepSourceTokens: true }).map((d) => d.toString({ lineWidth: 0 })).join('');
process.stdout.write(out);
