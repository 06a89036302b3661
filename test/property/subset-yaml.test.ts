// The fast path's promise (issue #6): whenever the subset reader accepts a stream, the yaml library reads
// the same stream without errors into equal nodes — values, types, sources, positions, and the layout facts
// text edits use. Inputs: rendered bundles in random formats, a grammar of the YAML shapes manifests use
// (and their edges), the files in fixtures/ and examples/, and all of those mutated a character or a line at
// a time. Declining is always allowed; the tests also check the reader accepts what it is meant to.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readSubsetStream } from '../../function/read/subset-yaml.ts';
import { compareWithYaml } from '../support/subset-compare.ts';
import { scanDifference } from '../support/scan-compare.ts';
import { sourceScanDifference } from '../support/source-scan-compare.ts';
import { caseSeed, genBundle, Rng } from '../support/property-generate.ts';
import { render } from '../support/property-harness.ts';
import { randomFormat, RENDERER_LIKE } from '../support/property-render.ts';
import { sized } from '../support/sizes.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const SEED = 0x5b5e7001;

function check(text: string, what: string): boolean {
  // The identity and Secret/ConfigMap scanners walk documents as the subset reader does: they must decide the same
  // on every input (#37).
  const scanned = scanDifference(text) ?? sourceScanDifference(text);
  if (scanned) {
    writeFileSync(join(tmpdir(), 'rollstamp-scan-failure.yaml'), text);
    assert.unreachable(`${what}: ${scanned} (input written to ${join(tmpdir(), 'rollstamp-scan-failure.yaml')})`);
  }
  const v = compareWithYaml(text);
  if (v.accepted && v.difference) {
    writeFileSync(join(tmpdir(), 'rollstamp-subset-failure.yaml'), text);
    assert.unreachable(`${what}: the subset reader accepted a stream the yaml library reads differently: ${v.difference} (input written to ${join(tmpdir(), 'rollstamp-subset-failure.yaml')})`);
  }
  return v.accepted;
}

// ---- a grammar of manifest-shaped YAML and its edges ----

// Each list: shapes the subset reads, then edges (errors, or YAML it leaves to the library).
const PLAINS = [['web', 'a b', '1', '-1', '0400', '0x1F', '1e3', '1.50', '.5', '+12', '.inf', '-.Inf', '.nan', 'true', 'True', 'FALSE', 'yes', 'on', 'null', 'Null', '~', 'x:y', 'http://h:80/p', 'a#b', '-x', 'a,b', 'a]b', 'a{b', 'é', '日本', '12:30', '2001-12-14', '1_000', '0o17', 'a  b', "it's", 'a"b', ':9121', '::1', ':x'], ['%x', '@x', '`x', '!x', '&x', '*x', '? x', ': x', '- x', '-', 'a:', 'a: b', '?x', ': ', '[x', '}x']] as const;
const QUOTED = [['"x"', '"a: b"', '"#"', '"\\n\\t\\\\"', '"\\u00e9"', '"a\\"b"', "'x'", "'it''s'", "''", '""', '"\\/"', '"\\ "', "'a: b # c'"], ['"\\x41"', '"\\U0001F600"', '"\\_"', '"unclosed', "'a'b'", '"\\q"', '"\\u12"']] as const;
const KEYS = [['name', 'app.kubernetes.io/name', 'a b', '"q"', "'s'", 'x-y', '"1"', 'on', '-k', 'a#b', 'k.v', 'ünï'], ['1', 'true', 'null', '~', 'k:', 'a #b', '? k', '&a k', '"a": b', '[k]', '- k', '']] as const;
const WRAP_WORDS = [['lorem', 'ipsum', 'a.b', '12', 'x/y', '(z)', 'é', 'q=1', 'true', '0x1', 'a#b', 'x:y', '$v'], ['- x', '#c', 'a: b', 'k:', '"q', "'", '\\', '? k', '&a', '{x', '[1,', '--- ', '...']] as const;
const COMMENTS = [['', '', ' # c', '  #c', ' #', ' # : -'], ['#c', '\t# c']] as const;
const BLOCK_HEADERS = [['|', '|-', '>', '>-', '| # c', '|+', '>+'], ['|2', '|#c', '|-+', '| x']] as const;
const BLOCK_LINES = [['text', 'a: b', '# not a comment', 'k=v', '- x', '{x}', "'q'", '"q', 'a #b'], ['\tx']] as const;

class Grammar {
  /** How often a choice takes an edge: from never to often, per stream. */
  private readonly edge: number;

  constructor(private readonly rng: Rng) {
    this.edge = rng.pick([0, 0, 0.01, 0.05, 0.3]);
  }

  private pick(lists: readonly [readonly string[], readonly string[]]): string {
    return this.rng.pick(this.rng.bool(this.edge) ? lists[1] : lists[0]);
  }

  private odd(): boolean {
    return this.rng.bool(this.edge);
  }

  indentStep(): number {
    return this.rng.pick([2, 2, 2, 4, 3, 1]);
  }

  scalar(): string {
    const r = this.rng.next();
    if (r < 0.55) return this.pick(PLAINS);
    if (r < 0.85) return this.pick(QUOTED);
    return this.flow(0);
  }

  flow(depth: number): string {
    const n = this.rng.int(4);
    const sp = this.rng.pick(['', ' ', '  ']);
    const item = (): string => (depth < 2 && this.rng.bool(0.2) ? this.flow(depth + 1) : this.rng.bool(0.7) ? this.pick(PLAINS).replace(/[,\]{}[]/g, this.odd() ? '$&' : '') : this.pick(QUOTED));
    if (this.rng.bool()) {
      const items = Array.from({ length: n }, (_, i) => `${this.odd() ? this.pick(KEYS) : `f${i}`}:${this.odd() ? '' : this.rng.pick([' ', '  '])}${item()}`);
      return `{${sp}${items.join(this.rng.pick([', ', ',', ' , ']))}${sp}}`;
    }
    return `[${sp}${Array.from({ length: n }, item).join(this.rng.pick([', ', ',']))}${this.rng.bool(0.05) ? ',' : ''}${sp}]`;
  }

  blockScalar(indent: number): string {
    const header = this.pick(BLOCK_HEADERS);
    const extra = this.rng.pick([2, 2, 4, 1]);
    const pad = ' '.repeat(indent + extra);
    const lines: string[] = this.odd() ? [] : [`${pad}${this.pick(BLOCK_LINES)}`];
    for (let i = this.rng.range(0, 4); i > 0; i--) {
      const r = this.rng.next();
      if (r < 0.15) lines.push('');
      else if (r < 0.25) lines.push(' '.repeat(this.rng.int(this.odd() ? indent + extra + 3 : indent + extra + 1)));
      else if (r < 0.35 && (header.startsWith('|') || this.odd())) lines.push(`${pad}${' '.repeat(this.rng.range(1, 3))}more`);
      else if (r < 0.38 && this.odd()) lines.push(`${' '.repeat(this.rng.int(indent + extra))}less`);
      else lines.push(`${pad}${this.pick(BLOCK_LINES)}`);
    }
    return `${header}\n${lines.join('\n')}`;
  }

  /** A plain or quoted scalar wrapped over lines (as renderers wrap long values), after `key:` in column `indent`. */
  wrapped(indent: number): string {
    const quote = this.rng.pick(['', '', '"', "'"]);
    const words = WRAP_WORDS[this.odd() ? 1 : 0];
    const lines = Array.from({ length: this.rng.range(2, 4) }, () => Array.from({ length: this.rng.range(1, 3) }, () => this.rng.pick(words)).join(' '));
    const pad = (): string => ' '.repeat(this.odd() ? this.rng.int(indent + 2) : indent + this.rng.range(1, 4));
    const body = lines.map((line, i) => {
      const gap = this.rng.bool(0.15) ? `\n${this.rng.pick(['', '  '])}` : '';
      const trail = this.rng.pick(['', '', ' ', quote === '"' ? '\\' : '', quote === '"' ? '\\ ' : '']);
      return i === 0 ? line + trail : `${gap}\n${pad()}${line}${i < lines.length - 1 ? trail : ''}`;
    });
    return `${this.rng.pick([' ', '\n' + pad()])}${quote}${body.join('')}${quote}${this.pick(COMMENTS)}`;
  }

  /** A block map at `indent`; `first` says whether the first key continues a `- ` line. */
  map(indent: number, depth: number, first = false): string {
    const out: string[] = [];
    const used = new Set<string>();
    const n = this.rng.range(1, 4);
    for (let i = 0; i < n; i++) {
      const pad = i === 0 && first ? '' : ' '.repeat(Math.max(0, indent + (this.odd() ? this.rng.pick([-1, 1]) : 0)));
      if (this.rng.bool(0.1)) out.push(`${' '.repeat(this.rng.int(indent + 4))}#${this.rng.pick(['', ' comment', ' k: v'])}`);
      if (this.rng.bool(0.05)) out.push(this.rng.pick(['', '  ', ' '.repeat(indent)]));
      let key = this.pick(KEYS);
      if (used.has(key) && !this.odd()) key = `k${i}`; // a duplicate key only as an edge
      used.add(key);
      out.push(`${pad}${key}:${this.value(indent, depth)}`);
    }
    return out.join('\n');
  }

  seq(indent: number, depth: number): string {
    const out: string[] = [];
    const n = this.rng.range(1, 3);
    for (let i = 0; i < n; i++) {
      const pad = ' '.repeat(indent);
      const r = this.rng.next();
      if (r < 0.4 && depth < 5) {
        const gap = this.rng.pick([1, 1, 1, 2, 3]);
        out.push(`${pad}-${' '.repeat(gap)}${this.map(indent + 1 + gap, depth + 1, true)}`);
      } else if (r < 0.5 && depth < 5) {
        out.push(`${pad}-${this.pick(COMMENTS)}\n${this.map(indent + this.indentStep(), depth + 1)}`);
      } else if (r < 0.55 && depth < 5 && this.odd()) out.push(`${pad}- ${this.seq(indent + 2, depth + 1).trimStart()}`);
      else if (r < 0.6) out.push(`${pad}- ${this.blockScalar(indent)}`);
      else if (r < 0.63) out.push(`${pad}-`);
      else out.push(`${pad}- ${this.scalar()}${this.pick(COMMENTS)}`);
    }
    return out.join('\n');
  }

  value(indent: number, depth: number): string {
    const r = this.rng.next();
    const comment = this.pick(COMMENTS);
    if (depth < 5 && r < 0.3) {
      const lead = this.rng.bool(0.15) ? `\n${' '.repeat(this.rng.int(indent + 6))}# above` : '';
      return `${comment}${lead}\n${this.map(indent + this.indentStep(), depth + 1)}`;
    }
    if (depth < 5 && r < 0.45) return `${comment}\n${this.seq(this.rng.bool(0.4) ? indent : indent + this.indentStep(), depth + 1)}`;
    if (r < 0.55) return ` ${this.blockScalar(indent)}`;
    if (r < 0.6) return comment;
    if (r < 0.62 && this.odd()) return ` ${this.scalar()}\n${' '.repeat(indent + 2)}continued`;
    if (r < 0.7) return this.wrapped(indent);
    if (r < 0.75) return `${comment}\n${' '.repeat(indent + this.indentStep())}${this.rng.bool(0.3) ? this.blockScalar(indent) : this.rng.bool() ? this.rng.pick(['{}', '[]', '{ }']) : this.scalar()}${this.odd() ? comment : ''}`;
    return `${this.rng.pick([' ', ' ', '  '])}${this.scalar()}${comment}`;
  }

  stream(): string {
    const docs: string[] = [];
    for (let i = this.rng.range(1, 3); i > 0; i--) docs.push(this.map(this.rng.bool(0.05) ? 2 : 0, 0));
    const sep = (): string => this.rng.pick(['---\n', '---\n', '--- # doc\n', '---\n# c\n', '\n---\n', '---\n---\n', '---  \n']);
    const head = this.rng.pick(['', '', '# header\n', '---\n', '# a\n---\n']);
    const tail = this.rng.pick(['\n', '\n', '', '\n---\n', '\n# end\n', '\n\n']);
    return head + docs.join(`\n${sep()}`) + tail;
  }
}

// ---- mutations ----

const CHARS = [' ', ' ', '\n', ':', '-', '#', '"', "'", '|', '>', '{', '}', '[', ']', ',', '&', '*', '!', '?', 'a', '0', '\t', '\\', '%'];

function mutate(rng: Rng, text: string): string {
  if (text.length === 0) return rng.pick(CHARS);
  const at = rng.int(text.length + 1);
  const r = rng.next();
  if (r < 0.35) return text.slice(0, at) + rng.pick(CHARS) + text.slice(at);
  if (r < 0.6) return text.slice(0, at) + text.slice(at + 1);
  if (r < 0.8) return text.slice(0, at) + rng.pick(CHARS) + text.slice(at + 1);
  const lines = text.split('\n');
  const i = rng.int(lines.length);
  if (r < 0.87) lines.splice(i, 0, lines[rng.int(lines.length)]!); // a duplicated line (duplicate keys)
  else if (r < 0.94) lines[i] = ` ${lines[i]}`;
  else lines[i] = lines[i]!.replace(/^ /, '');
  return lines.join('\n');
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else if (/\.ya?ml$/.test(name)) out.push(p);
  }
  return out;
}

// ---- tests ----

test('accepts the plain shapes manifests are written in', () => {
  const samples = [
    'a: 1\n',
    '# c\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x   # trailing\n  labels: {a: b, "c": \'d\'}\ndata:\n  k: |\n    line\n\n    more\n  f: >-\n    folded\n    text\n',
    'kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - name: a\n        args: ["x", y, 1]\n        env:\n          - {name: A, valueFrom: {secretKeyRef: {name: s, key: k}}}\n',
    'a: 1\n---\nb: 2\n--- # c\nc: [ ]\n...'.replace('...', '') + 'd: {}\n',
  ];
  for (const s of samples) assert.ok(check(s, 'sample'), `declined a plain manifest:\n${s}`);
});

test('accepts what renders write: a flow collection or block scalar below its key, values starting `:`, wrapped scalars (#26)', () => {
  const samples = [
    'spec:\n  ports:\n    {}\n  selector:\n    []\n',
    'args:\n- :9121\n- --web.listen-address=:9121\nport: :8080\n',
    'description: A long description that a renderer\n  wrapped over lines\n\n  and a paragraph\nnext: 1\n',
    'description: "A long description that a renderer\n  wrapped, \\\n  joined\\ \n  kept"\nother: \'single\n  wrapped\'\n',
    'script:\n  |-\n    echo hi\n    exit 0\nfolded:\n  >\n    text\n',
  ];
  for (const s of samples) assert.ok(check(s, 'sample'), `declined a rendered construct:\n${s}`);
});

test('reads a text that ends without a line break as the yaml library does: a last `-`, spaces, a comment, an empty value', () => {
  // The line helpers stop at the text's end before reading a character there (#37): what they decide there stays.
  const samples = [
    'a:\n-',
    'a:\n- b\n-',
    'a:\n  - x\n  -',
    'a: 1\n  ',
    'a: 1\n# end',
    'a:',
    'a: 1\nb:\n  c: d\n  ',
    'a:\n- b\n---\nc:\n-',
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  k: dg==\n  # c',
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\ndata:\n  k:',
  ];
  for (const s of samples) assert.ok(check(s, 'sample'), `declined ${JSON.stringify(s)}`);
  assert.equal(readSubsetStream('a:\n- b\n-')?.[0]?.contents?.items.map((p) => p.value?.kind), ['seq']);
});

test('declines what it leaves to the yaml library', () => {
  const samples = ['a: &x 1\nb: *x\n', 'a: !!str 1\n', '%YAML 1.2\n---\na: 1\n', 'a: 1\n...\n', 'a:\tb\n', 'a: 1\r\n', '? a\n: b\n', 'a: |2\n   x\n', 'a: [1,\n 2]\n', 'a: 1\na: 2\n', '1: a\n', 'a: \u0085\n', '\ufeffa: 1\n', '- a\n', 'x\n', '# only comments\n', 'a: {b: 1, b: 2}\n'];
  for (const s of samples) assert.is(readSubsetStream(s), undefined, `accepted ${JSON.stringify(s)}`);
});

test('declines a long key the yaml library may count as longer: it counts the blank lines above it after an empty value', () => {
  const key = 'k'.repeat(1000);
  // The yaml library refuses these (KEY_OVER_1024_CHARS: the 30 blank lines count), so the subset reader must not read them.
  for (const s of [`a:\n  b: \n${'\n'.repeat(30)}${key}: 1\n`, `a:\n- \n${'\n'.repeat(30)}${key}: 1\n`]) {
    assert.ok(compareWithYaml(s).accepted === false, 'declined');
  }
  assert.ok(readSubsetStream(`a: 1\n${'k'.repeat(900)}: 1\n`), 'a key of 900 characters is still read');
});

/** Checks `text` and a chain of `mutations` edits of it; true when the reader accepted `text` itself. */
function checkChain(rng: Rng, text: string, label: string, mutations: number): boolean {
  const accepted = check(text, label);
  let mutated = text;
  for (let m = 0; m < mutations; m++) {
    mutated = mutate(rng, mutated);
    check(mutated, `${label} mutation ${m}`);
  }
  return accepted;
}

test('agrees with the yaml library on rendered bundles in random formats, and on their mutations', () => {
  let accepted = 0;
  const cases = sized(300, 150);
  for (let i = 0; i < cases; i++) {
    const rng = new Rng(caseSeed(SEED, i));
    if (checkChain(rng, render(genBundle(rng).bundle, i % 3 === 0 ? { ...randomFormat(rng), ...RENDERER_LIKE } : randomFormat(rng), rng), `bundle case ${i}`, 4)) accepted++;
  }
  // Random formats include JSON, CRLF, BOM, anchors, tags and directives, which the subset leaves to the library.
  assert.ok(accepted > cases / 8, `the subset reader accepted only ${accepted} of ${cases} rendered bundles`);
});

test('agrees with the yaml library on grammar-made streams and their mutations', () => {
  let accepted = 0;
  const cases = sized(4000, 2000);
  for (let i = 0; i < cases; i++) {
    const rng = new Rng(caseSeed(SEED + 1, i));
    if (checkChain(rng, new Grammar(rng).stream(), `grammar case ${i}`, 3)) accepted++;
  }
  assert.ok(accepted > cases / 4, `the subset reader accepted only ${accepted} of ${cases} grammar streams`);
});

test('agrees with the yaml library on every YAML file in fixtures/ and examples/, and on their mutations', () => {
  const files = [...filesUnder(join(ROOT, 'fixtures')), ...filesUnder(join(ROOT, 'examples'))];
  assert.ok(files.length > 100, 'fixture files found');
  let accepted = 0;
  files.forEach((file, i) => {
    const text = readFileSync(file, 'utf8');
    if (check(text, file)) accepted++;
    const rng = new Rng(caseSeed(SEED + 2, i));
    for (let m = 0; m < 20; m++) check(mutate(rng, text), `${file} mutation ${m}`);
  });
  assert.ok(accepted > files.length / 2, `accepted only ${accepted} of ${files.length} files`);
});

test.run();
