// Hostile inputs for the fuzz suites: valid bundles (test/support/property-generate.ts) and the golden fixtures'
// inputs, broken on three levels — the object tree (wrong types, duplicated, renamed, deleted or deepened
// entries, bad base64 where rollstamp decodes), the text (duplicate keys, aliases and anchors, alias bombs, deep
// nesting, reordered or re-indented lines, stray syntax, document markers and directives, random Unicode) and
// the bytes (flips, truncation, invalid UTF-8, UTF-16). Each mutator is named, so a failure lists what was done.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { genText, type Rng } from './property-generate.ts';
import { YMap, type YNode } from './property-render.ts';
import { ROOT } from './run-cli.ts';

// ---------------------------------------------------------------------------------------------------------
// Values

const BAD_BASE64 = [
  'not base64!', 'YWJj=', '====', 'abc', 'Zm9v YmFy', 'Zm9v\u00e9', '-_-_', 'Zm9v\tYmFy', 'Zm9vYmFy=', 'Z', 'Zm9vYg==Zm9v',
  'Zm9vYg', 'Zm9vYg=', '😀😀😀😀', 'Zm9v\u0000', ' Zm9v', 'Zm9v ', 'Zm9v\r\nYmFy', 'a$b=', 'Zm9v_-8=', '=Zm9v', 'Zm 9v',
];
const ODD_KEYS = [
  '', ' ', 'name', 'key', 'data', 'Data', 'stringData', 'metadata', 'kind', 'apiVersion', 'spec', 'template', 'env',
  'envFrom', 'valueFrom', 'secretKeyRef', 'configMapRef', 'volumes', 'items', 'optional', 'annotations', 'labels',
  '__proto__', 'constructor', 'toString', '<<', '日本', 'a\tb', 'a\nb', '\u2028', 'rollstamp.dev/hash',
  'rollstamp.dev/enabled', 'rollstamp.dev/secrets', 'namespace', '-', '?', '*x', '&y', '!z', '#c', '%d', '@e', '`f`',
];
const KINDS = [
  'Secret', 'ConfigMap', 'Deployment', 'StatefulSet', 'DaemonSet', 'CronJob', 'Job', 'Pod', 'ReplicaSet', 'Rollout',
  'List', 'ResourceList', 'Agent', 'ModelConfig', 'RemoteMCPServer', 'SandboxAgent', 'Namespace', 'secret', '', 'Secret ',
  // Operator rows of the kind table (#24).
  'Prometheus', 'Alertmanager', 'Kafka', 'KafkaNodePool', 'CloneSet', 'Service', 'ScaledJob', 'VMAgent',
];
const API_VERSIONS = [
  'v1', 'apps/v1', 'batch/v1', 'argoproj.io/v1alpha1', 'kagent.dev/v1alpha2', 'kagent.dev/v1alpha1', 'v2', '', 'apps/v1beta1', 'config.kubernetes.io/v1',
  'monitoring.coreos.com/v1', 'kafka.strimzi.io/v1beta2', 'serving.knative.dev/v1', 'apps.kruise.io/v1alpha1', 'keda.sh/v1alpha1', 'operator.victoriametrics.com/v1beta1',
];

/** A value of any type, often the wrong one for where it lands. */
export function randomValue(rng: Rng): YNode {
  switch (rng.int(16)) {
    case 0: return '';
    case 1: return rng.pick([0, -1, 1.5, 1e21, 2 ** 53 + 1, 420, 0.1]);
    case 2: return rng.bool();
    case 3: return null;
    case 4: return [];
    case 5: return new YMap();
    case 6: return [genText(rng), rng.int(10)];
    case 7: return new YMap([[rng.pick(ODD_KEYS), genText(rng)]]);
    case 8: return rng.pick(BAD_BASE64);
    case 9: return rng.pick(KINDS);
    case 10: return 'x'.repeat(rng.pick([1000, 70_000]));
    case 11: return rng.pick(['true', 'false', '"true"', 'yes', 'null', '~', '0x1F', '0o17', '.inf', '1e400']);
    default: return genText(rng);
  }
}

function nest(v: YNode, depth: number, asMap: boolean): YNode {
  let out = v;
  for (let i = 0; i < depth; i++) out = asMap ? new YMap([['a', out]]) : [out];
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Tree mutations (on YMap documents, before they are written)

export function cloneNode(v: YNode): YNode {
  if (v instanceof YMap) return new YMap(v.entries.map(([k, x]) => [k, cloneNode(x)]));
  if (Array.isArray(v)) return v.map(cloneNode);
  return v;
}

interface Slot {
  parent: YMap | YNode[];
  index: number;
  /** Keys and indices from the document root, for choosing where to strike. */
  path: string;
}

function slots(node: YNode, path: string, out: Slot[]): Slot[] {
  if (node instanceof YMap) {
    node.entries.forEach(([k, v], index) => {
      const p = `${path}.${k}`;
      out.push({ parent: node, index, path: p });
      slots(v, p, out);
    });
  } else if (Array.isArray(node)) {
    node.forEach((v, index) => {
      const p = `${path}[]`;
      out.push({ parent: node, index, path: p });
      slots(v, p, out);
    });
  }
  return out;
}

const valueOf = (s: Slot): YNode => (s.parent instanceof YMap ? s.parent.entries[s.index]![1] : s.parent[s.index]!);
function setValue(s: Slot, v: YNode): void {
  if (s.parent instanceof YMap) s.parent.entries[s.index]![1] = v;
  else s.parent[s.index] = v;
}

/** Where the sharpest mutations land: values rollstamp decodes, and the fields that reference them. */
const DATA = /\.(data|stringData|binaryData)\.[^.]*$/;
const REF = /(valueFrom|secretKeyRef|configMapKeyRef|envFrom|secretRef|configMapRef|volumes|projected|sources|items|annotations|labels|metadata\.(name|namespace)|\.kind$|\.apiVersion$)/;

/**
 * One mutation of one document; returns its name (undefined when the document offered no place for it).
 * (Nesting stays ≤ 300 here and in the text, or jumps to ≥ 5000: the yaml library's depth limit is wherever the
 * stack runs out, which in-process depends on the caller — around 750 levels from a fresh process.)
 */
export function mutateTree(doc: YMap, rng: Rng): string | undefined {
  const all = slots(doc, '', []);
  if (all.length === 0) return undefined;
  const r = rng.next();
  const focus = r < 0.3 ? all.filter((s) => DATA.test(s.path)) : r < 0.6 ? all.filter((s) => REF.test(s.path)) : all;
  const s = rng.pick(focus.length > 0 ? focus : all);
  const v = valueOf(s);
  const op = rng.int(10);
  switch (op) {
    case 0:
      setValue(s, randomValue(rng));
      return 'tree:wrong-type';
    case 1:
      setValue(s, rng.pick(BAD_BASE64));
      return 'tree:bad-base64';
    case 2:
      if (s.parent instanceof YMap) s.parent.entries.splice(s.index, 1);
      else s.parent.splice(s.index, 1);
      return 'tree:delete';
    case 3:
      if (s.parent instanceof YMap) {
        const [k] = s.parent.entries[s.index]!;
        s.parent.entries.splice(rng.int(s.parent.entries.length + 1), 0, [k, rng.bool() ? cloneNode(v) : randomValue(rng)]);
        return 'tree:duplicate-key';
      }
      s.parent.splice(s.index, 0, cloneNode(v));
      return 'tree:duplicate-item';
    case 4:
      if (s.parent instanceof YMap) {
        s.parent.entries[s.index]![0] = rng.pick(ODD_KEYS);
        return 'tree:rename-key';
      }
      setValue(s, randomValue(rng));
      return 'tree:wrong-type';
    case 5:
      setValue(s, [v]);
      return 'tree:wrap';
    case 6:
      if (v instanceof YMap && v.entries.length > 0) setValue(s, v.entries[0]![1]);
      else if (Array.isArray(v) && v.length > 0) setValue(s, v[0]!);
      else setValue(s, new YMap([['value', v]]));
      return 'tree:unwrap';
    case 7:
      setValue(s, nest(v, rng.pick([20, 70, 200, 300]), rng.bool()));
      return 'tree:deep-nesting';
    case 8: {
      const p = s.parent;
      if (p instanceof YMap) p.entries.splice(0, p.entries.length, ...rng.shuffle(p.entries));
      else p.splice(0, p.length, ...rng.shuffle(p));
      return 'tree:shuffle';
    }
    default:
      setValue(s, typeof v === 'string' ? v + genText(rng) : genText(rng));
      return 'tree:random-text';
  }
}

// ---------------------------------------------------------------------------------------------------------
// Text mutations

/** `indent` (with any `- `), `key`, `: `, value: a block-map entry on one line. */
const KV = /^(\s*(?:- )?)([A-Za-z0-9_./"'-][^:#]*?):( +)(\S.*)$/;
const KEY_LINE = /^(\s*(?:- )?)([A-Za-z0-9_./"'-][^:#]*?):\s*$/;

function pickLine(lines: string[], rng: Rng, re: RegExp): number | undefined {
  const idx = lines.flatMap((l, i) => (re.test(l.replace(/\r$/, '')) ? [i] : []));
  return idx.length > 0 ? rng.pick(idx) : undefined;
}

const UNICODE_POOL = [
  '\u0000', '\u0001', '\u0007', '\u0008', '\t', '\r', '\n', '\u000b', '\u000c', '\u001b', '\u001b[31m', '\u007f', '\u0085',
  '\u009b', '\u00a0', '\u00ad', '\u200b', '\u200e', '\u202e', '\u2028', '\u2029', '\ufeff', '\ufffd', '\ufffe', '\uffff',
  '\ud800', '\udfff', 'é', 'e\u0301', '日本', '😀', '𝒳', 'İ', 'ß', 'Ω', '\u0300', '\ue000', '\u{10ffff}',
];

const WRONG_VALUES = [
  '[]', '{}', '[a, b]', '{x: y}', '123', '-1', '1.5', 'true', 'null', '~', '""', "''", '!!binary aGVsbG8=', '!!int 3',
  '!custom x', '2001-12-14', '0x1F', '.nan', '[[[]]]', '{a: {b: [c]}}', '- a', '|', '>-', '&a', '*a', '!!null', '!!map {}',
  '!!seq []', '!!str', '? a', 'a: b', '"unterminated', "'also", '[unclosed', '{unclosed', '@x', '`x`', '%x', '#', '-',
];
const TAGS = ['!!binary', '!!str', '!!int', '!!map', '!!seq', '!!set', '!!omap', '!custom', '!<tag:yaml.org,2002:str>', '!!timestamp', '!!float', '!!bool', '!e!x'];
const MARKERS = [
  '---', '...', '%YAML 1.1\n---', '%YAML 1.2\n%YAML 1.2\n---', '%YAML 1.3\n---', '%TAG !e! tag:example.com,2000:\n---', '--- !!map',
  '--- null', '--- []', '--- 42', '--- "x"', '---\n---', '--- |\n  text', '--- &a\n', '%FOO bar\n---',
];
const SYNTAX = ['"', "'", '[', ']', '{', '}', ':', ': ', '#', ' #', '&', '*', '!', '|', '>', '%', '@', '`', ',', '? ', '- ', '\t', '\\', '<<: '];

/** A billion-laughs tower as indented lines. */
function laughs(indent: string, levels: number): string[] {
  const out = [`${indent}l0: &l0 "bG9s"`];
  for (let i = 1; i <= levels; i++) out.push(`${indent}l${i}: &l${i} [${Array(9).fill(`*l${i - 1}`).join(', ')}]`);
  return out;
}

type TextMutator = (lines: string[], rng: Rng) => boolean;

const TEXT_MUTATORS: Record<string, TextMutator> = {
  'duplicate-key': (lines, rng) => {
    const i = pickLine(lines, rng, KV) ?? pickLine(lines, rng, KEY_LINE);
    if (i === undefined) return false;
    const line = lines[i]!.replace(/^(\s*)- /, '$1  ');
    const m = KV.exec(line.replace(/\r$/, ''));
    const copy = m && rng.bool() ? `${m[1]}${m[2]}:${m[3]}${rng.pick(WRONG_VALUES)}` : line;
    lines.splice(i + 1, 0, copy);
    return true;
  },
  'wrong-type': (lines, rng) => {
    const i = pickLine(lines, rng, KV);
    if (i === undefined) return false;
    const m = KV.exec(lines[i]!.replace(/\r$/, ''))!;
    lines[i] = `${m[1]}${m[2]}:${m[3]}${rng.pick(WRONG_VALUES)}`;
    return true;
  },
  'collection-to-scalar': (lines, rng) => {
    const i = pickLine(lines, rng, KEY_LINE);
    if (i === undefined) return false;
    lines[i] = `${lines[i]!.replace(/\r$/, '')} ${rng.pick(['x', '1', 'null', '[]', '{}', '"s"'])}`;
    return true;
  },
  'bad-base64': (lines, rng) => {
    const i = pickLine(lines, rng, /:\s+["']?[A-Za-z0-9+/]{4,}={0,2}["']?\s*$/);
    if (i === undefined) return false;
    lines[i] = lines[i]!.replace(/([A-Za-z0-9+/]{4,})(={0,2})/, (_all, body: string, pad: string) => {
      const at = rng.int(body.length);
      switch (rng.int(6)) {
        case 0: return `${body.slice(0, at)}${rng.pick(['$', '-', '_', ' ', '=', 'é', '.', '\\t'])}${body.slice(at)}${pad}`;
        case 1: return body;
        case 2: return `${body}${pad}==`;
        case 3: return `${body.slice(0, -1)}${pad}`;
        case 4: return `${body}${pad}${body}`;
        default: return `=${body}${pad}`;
      }
    });
    return true;
  },
  unicode: (lines, rng) => {
    const n = rng.range(1, 5);
    for (let j = 0; j < n; j++) {
      const i = rng.int(lines.length);
      const l = lines[i]!;
      const at = rng.int(l.length + 1);
      lines[i] = l.slice(0, at) + rng.pick(UNICODE_POOL) + l.slice(at);
    }
    return true;
  },
  alias: (lines, rng) => {
    const i = pickLine(lines, rng, KV);
    if (i === undefined) return false;
    const m = KV.exec(lines[i]!.replace(/\r$/, ''))!;
    const pad = m[1]!.replace('- ', '  ');
    const name = rng.pick(['a', 'leak', 'x1']);
    lines[i] = `${m[1]}${m[2]}: &${name} ${m[4]}`;
    const alias = rng.pick([`${pad}zz-alias: *${name}`, `${pad}<<: *${name}`, `${pad}${m[2]}-copy: *${name}`, `${pad}undefined-alias: *nowhere`, `${pad}? *${name}\n${pad}: v`]);
    lines.splice(i + 1 + rng.int(3), 0, alias);
    return true;
  },
  'merge-key': (lines, rng) => {
    const i = pickLine(lines, rng, KEY_LINE);
    if (i === undefined) return false;
    const m = KEY_LINE.exec(lines[i]!.replace(/\r$/, ''))!;
    const pad = `${m[1]!.replace('- ', '  ')}  `;
    lines.splice(i + 1, 0, rng.pick([`${pad}<<: {merged: value}`, `${pad}<<: [{a: b}, {c: d}]`, `${pad}<<: *nowhere`]));
    return true;
  },
  'alias-bomb': (lines, rng) => {
    const i = pickLine(lines, rng, KEY_LINE);
    if (i === undefined || rng.bool(0.3)) {
      lines.push('---', 'apiVersion: v1', `kind: ${rng.pick(['ConfigMap', 'Secret'])}`, 'metadata:', `  name: ${rng.pick(['bomb', 'db', 'shared'])}`, 'data:', ...laughs('  ', rng.range(3, 9)));
      return true;
    }
    const m = KEY_LINE.exec(lines[i]!.replace(/\r$/, ''))!;
    lines.splice(i + 1, 0, ...laughs(`${m[1]!.replace('- ', '  ')}  `, rng.range(3, 9)));
    return true;
  },
  'deep-flow': (lines, rng) => {
    const i = pickLine(lines, rng, KV);
    if (i === undefined) return false;
    const m = KV.exec(lines[i]!.replace(/\r$/, ''))!;
    const d = rng.pick([10, 100, 300, 5000, 20_000]);
    const [open, close] = rng.pick([['[', ']'], ['{a: ', '}'], ['[{a: ', '}]']] as const);
    lines[i] = `${m[1]}${m[2]}:${m[3]}${open.repeat(d)}${rng.bool(0.8) ? close.repeat(d) : ''}`;
    return true;
  },
  'deep-block': (lines, rng) => {
    const i = pickLine(lines, rng, KV);
    if (i === undefined) return false;
    const m = KV.exec(lines[i]!.replace(/\r$/, ''))!;
    const base = m[1]!.replace('- ', '  ').length + 2;
    const d = rng.pick([10, 60, 250]);
    const deep = Array.from({ length: d }, (_, k) => `${' '.repeat(base + k * 2)}${rng.bool(0.8) ? 'a:' : '- a:'}`);
    lines.splice(i, 1, `${m[1]}${m[2]}:`, ...deep);
    return true;
  },
  'reorder-lines': (lines, rng) => {
    if (lines.length < 2) return false;
    const a = rng.int(lines.length);
    const len = rng.range(2, Math.min(8, lines.length - a + 1));
    const seg = lines.slice(a, a + len);
    if (rng.bool()) lines.splice(a, seg.length, ...rng.shuffle(seg));
    else {
      const [moved] = lines.splice(a, 1);
      lines.splice(rng.int(lines.length + 1), 0, moved!);
    }
    return true;
  },
  'delete-line': (lines, rng) => {
    if (lines.length === 0) return false;
    lines.splice(rng.int(lines.length), rng.range(1, 3));
    return true;
  },
  'duplicate-line': (lines, rng) => {
    if (lines.length === 0) return false;
    const i = rng.int(lines.length);
    lines.splice(i + 1 + rng.int(4), 0, lines[i]!);
    return true;
  },
  indent: (lines, rng) => {
    const i = rng.int(lines.length);
    const l = lines[i]!;
    lines[i] = rng.pick([` ${l}`, `  ${l}`, l.replace(/^ {1,2}/, ''), l.replace(/^ /, '\t'), `\t${l}`]);
    return true;
  },
  'doc-marker': (lines, rng) => {
    lines.splice(rng.int(lines.length + 1), 0, rng.pick(MARKERS));
    return true;
  },
  'syntax-char': (lines, rng) => {
    const i = rng.int(lines.length);
    const l = lines[i]!;
    const at = rng.int(l.length + 1);
    lines[i] = l.slice(0, at) + rng.pick(SYNTAX) + l.slice(at);
    return true;
  },
  kind: (lines, rng) => {
    const i = pickLine(lines, rng, /^\s*(kind|apiVersion):/);
    if (i === undefined) return false;
    lines[i] = lines[i]!.replace(/^(\s*)(kind|apiVersion):.*$/, (_a, pad: string, k: string) => `${pad}${k}: ${rng.pick(k === 'kind' ? KINDS : API_VERSIONS)}`);
    return true;
  },
  tag: (lines, rng) => {
    const i = pickLine(lines, rng, KV);
    if (i === undefined) return false;
    const m = KV.exec(lines[i]!.replace(/\r$/, ''))!;
    lines[i] = `${m[1]}${m[2]}:${m[3]}${rng.pick(TAGS)} ${m[4]}`;
    return true;
  },
  'line-breaks': (lines, rng) => {
    const i = rng.int(lines.length);
    lines[i] = `${lines[i]!.replace(/\r$/, '')}${rng.pick(['\r', '\r\r', ' \r', '\u0085', '\u2028'])}`;
    return true;
  },
};

const TEXT_NAMES = Object.keys(TEXT_MUTATORS);

/** `n` text mutations; returns the new text and the names of those that applied. */
export function mutateText(text: string, rng: Rng, n: number): { text: string; applied: string[] } {
  const lines = text.split('\n');
  const applied: string[] = [];
  for (let j = 0; j < n; j++) {
    if (lines.length === 0) lines.push('');
    const name = rng.pick(TEXT_NAMES);
    if (TEXT_MUTATORS[name]!(lines, rng)) applied.push(`text:${name}`);
  }
  return { text: lines.join('\n'), applied };
}

// ---------------------------------------------------------------------------------------------------------
// Byte mutations

const INVALID_UTF8 = [[0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0xef, 0xbb, 0xbf], [0x00], [0xfe, 0xff], [0x80]];

/** One byte-level mutation. */
export function mutateBytes(text: string, rng: Rng): { bytes: Uint8Array; applied: string } {
  const bytes = new Uint8Array(Buffer.from(text, 'utf8'));
  if (bytes.length === 0) return { bytes: new Uint8Array(rng.pick(INVALID_UTF8)), applied: 'bytes:invalid-utf8' };
  switch (rng.int(5)) {
    case 0: {
      const n = rng.range(1, 8);
      for (let j = 0; j < n; j++) {
        const at = rng.int(bytes.length);
        bytes[at] = rng.bool() ? bytes[at]! ^ (1 << rng.int(8)) : rng.int(256);
      }
      return { bytes, applied: 'bytes:flip' };
    }
    case 1:
      return { bytes: bytes.slice(0, rng.int(bytes.length)), applied: 'bytes:truncate' };
    case 2: {
      const at = rng.int(bytes.length + 1);
      const bad = rng.pick(INVALID_UTF8);
      return { bytes: new Uint8Array([...bytes.subarray(0, at), ...bad, ...bytes.subarray(at)]), applied: 'bytes:invalid-utf8' };
    }
    case 3:
      return { bytes: new Uint8Array([0xff, 0xfe, ...Buffer.from(text, 'utf16le')]), applied: 'bytes:utf16' };
    default: {
      // Cut in the middle of a multi-byte character when there is one.
      const starts = [...bytes.keys()].filter((i) => bytes[i]! >= 0xc0);
      const at = starts.length > 0 ? rng.pick(starts) + 1 : rng.int(bytes.length);
      return { bytes: bytes.slice(0, at), applied: 'bytes:truncate-mid-char' };
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Seed corpus

/** The inputs of the golden fixtures (fixtures/**∕input.yaml): hand-written shapes the generator lacks (kagent, Rollouts …). */
export function fixtureInputs(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name === 'input.yaml') out.push(readFileSync(p, 'utf8'));
    }
  };
  walk(join(ROOT, 'fixtures'));
  return out;
}
