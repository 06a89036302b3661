// Property 6: no value leaks. Every Secret value is a unique marker `CANARY-<hex>`; no output channel —
// stdout and stderr of `stamp`, `explain`, `explain --json` and `fn`, and anything written to the real process
// streams meanwhile — holds a marker, its base64 or its hex, except where the input itself is echoed (`stamp`
// and `fn` print the manifests back: there a form may occur at most as often as in the input). Checked on
// success and on failure: another Secret's data not base64, the marker's own data not base64, a non-string
// value, a YAML syntax error on the marker's own line, an alias of the marker, `onMissing: error`.
// Markers sit in `data` and in `stringData` (every case with two or more has both), some in a `data` value that
// `stringData` overrides for the same key.
// P6g/P6k: the same for `generate` as Argo CD runs it (a plain-directory app in-process and as a process, and a
// kustomize app with a secretGenerator literal when kubectl is there), with YAML and with JSON output.
// The rule and the runners are in test/support/canary-sweep.ts (the live-cluster canaries reuse sweepGenerate).
import { spawnSync } from 'node:child_process';
import { parseAllDocuments, parseDocument } from 'yaml';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { testNeeding } from '../support/tools.ts';
import { count, leakForms as forms, sweepGenerate, watched as watchStreams, type ArgoApp } from '../support/canary-sweep.ts';
import { cleanup, requireBundle } from '../support/hostile.ts';
import type { CliRun } from '../support/run-cli.ts';
import {
  bundleDocs,
  clone,
  effectiveNs,
  genBundle,
  idOfSource,
  isTarget,
  resourceListDoc,
  usesOf,
  type Bundle,
  type Rng,
  type WorkloadModel,
} from '../support/property-generate.ts';
import { type Case, CASES, cli, forAll, perCases } from '../support/property-harness.ts';
import { randomFormat, renderStream, ymap, type Style, type YMap } from '../support/property-render.ts';

/** Runs the CLI and records whatever reaches the real process streams meanwhile (console, stray writes). */
async function watched(argv: string[], stdin: string, env: Record<string, string> = {}): Promise<CliRun & { stray: string }> {
  const { value, stray } = await watchStreams(() => cli(argv, stdin, env));
  return { ...value, stray };
}

/** Where the markers of a bundle are: how many in `data`, in `stringData`, and in a `data` value stringData overrides. */
interface Placement {
  data: number;
  stringData: number;
  shadowed: number;
}

/**
 * Spreads a bundle's markers over `data` and `stringData` (both, when there are two or more) and, now and then,
 * gives a stringData marker a shadowed `data` value that is a marker too (never hashed, never to be printed).
 */
function placeCanaries(b: Bundle, canaries: string[], rng: Rng): Placement {
  const entries = b.sources.filter((s) => s.cls === 'Secret').flatMap((s) => s.entries);
  if (entries.length >= 2) {
    const [first, second] = rng.shuffle(entries);
    first!.field = 'data';
    second!.field = 'stringData';
  }
  for (const e of entries) {
    if (e.field === 'stringData' && !e.shadow && rng.bool(0.3)) {
      const marker = `CANARY-${rng.hex(20)}`;
      canaries.push(marker);
      e.shadow = Buffer.from(marker, 'utf8');
    }
  }
  return {
    data: entries.filter((e) => e.field === 'data').length,
    stringData: entries.filter((e) => e.field === 'stringData').length,
    shadowed: entries.filter((e) => e.shadow).length,
  };
}

type Scenario = 'success' | 'bad-base64-other' | 'bad-base64-own' | 'wrong-type' | 'syntax' | 'alias' | 'on-missing-error';
const SCENARIOS: readonly Scenario[] = ['success', 'success', 'bad-base64-other', 'bad-base64-own', 'wrong-type', 'syntax', 'syntax', 'alias', 'on-missing-error'];

/** Makes sure target `w` uses the source at `index` (by an annotation, which works across namespaces). */
function useSource(w: WorkloadModel, b: Bundle, index: number): void {
  const s = b.sources[index]!;
  if (usesOf(w).has(idOfSource(s))) return;
  w.refs.push({ via: 'annotation', cls: s.cls, name: s.name, namespace: effectiveNs(s.namespace) });
}

/** A Secret holding a marker that some target uses: its index and the entry's key. */
function usedCanary(b: Bundle, rng: Rng): { index: number; key: string; marker: string } | undefined {
  const withMarkers = b.sources.flatMap((s, index) => (s.cls === 'Secret' && s.entries.length > 0 ? [index] : []));
  if (withMarkers.length === 0) return undefined;
  const index = rng.pick(withMarkers);
  const target = rng.pick(b.workloads.filter(isTarget));
  useSource(target, b, index);
  const e = rng.pick(b.sources[index]!.entries);
  return { index, key: e.key, marker: Buffer.from(e.bytes).toString('utf8') };
}

const PARSE = { version: '1.2', uniqueKeys: true, strict: true } as const;

function parsesCleanly(text: string, resourceList: boolean): boolean {
  if (resourceList) return parseDocument(text, PARSE).errors.length === 0;
  return parseAllDocuments(text, PARSE).every((d) => d.errors.length === 0);
}

/** Ways to break the YAML on a line holding `token`. */
const BREAKS: Array<(line: string, token: string) => string> = [
  (l, t) => l.replace(t, `"${t}`),
  (l, t) => l.replace(t, `[${t}`),
  (l, t) => l.replace(t, `{${t}`),
  (l, t) => l.replace(t, `${t}: x: y`),
  (l, t) => l.replace(t, `@${t}`),
  (l, t) => l.replace(t, `\`${t}`),
  (l, t) => l.replace(t, `*${t}`), // an alias to an anchor that does not exist, named after the marker
  (l, t) => l.replace(t, `&${t} &${t}`),
  (l, t) => l.replace(t, `!<${t}`),
  (l) => `\t${l}`,
  (l) => `${l}\n${l}`, // a duplicate key
];

/** The text with a YAML error on a line that holds a marker (raw or base64), or undefined when none could be made. */
function breakLine(text: string, markers: readonly string[], rng: Rng, resourceList: boolean): string | undefined {
  const lines = text.split('\n');
  const tokens = markers.flatMap((m) => [m, Buffer.from(m).toString('base64')]);
  const spots = lines.flatMap((l, i) => tokens.filter((t) => l.includes(t)).map((t) => ({ i, t })));
  for (const { i, t } of rng.shuffle(spots)) {
    for (const br of rng.shuffle(BREAKS)) {
      const broken = [...lines];
      broken[i] = br(lines[i]!, t);
      const out = broken.join('\n');
      if (!parsesCleanly(out, resourceList)) return out;
    }
  }
  return undefined;
}

/** `key: value` on a block line → `key: &a value` plus a sibling `key-alias: *a` (an alias of the marker). */
function aliasLine(text: string, markers: readonly string[], rng: Rng, resourceList: boolean): string | undefined {
  const lines = text.split('\n');
  const tokens = markers.flatMap((m) => [m, Buffer.from(m).toString('base64')]);
  const spots = lines.flatMap((l, i) => (tokens.some((t) => l.includes(t)) ? [i] : []));
  for (const i of rng.shuffle(spots)) {
    const m = /^(\s*)([A-Za-z_][\w.-]*|"[^"]*"|'[^']*'): (\S.*)$/.exec(lines[i]!.replace(/\r$/, ''));
    if (!m) continue;
    const broken = [...lines];
    broken.splice(i, 1, `${m[1]}${m[2]}: &leak ${m[3]}`, `${m[1]}zz-alias-${rng.hex(4)}: *leak`);
    const out = broken.join('\n');
    if (parsesCleanly(out, resourceList)) return out;
  }
  return undefined;
}

interface Inputs {
  stream: string;
  rl: string;
  args: string[];
  fnConfig?: YMap;
  /** The run must fail (exit 1). */
  mustFail: boolean;
}

/** Builds the stream and ResourceList for one scenario; undefined when the bundle cannot host it. */
function build(c: Case, bundle: Bundle, markers: string[], scenario: Scenario, override: Partial<Style> = {}): Inputs | undefined {
  const b = clone(bundle);
  const style: Style = { ...randomFormat(c.rng), crlf: false, bom: false, ...override };
  let mustFail = false;
  const args: string[] = [];
  let fnConfig: YMap | undefined;
  if (scenario === 'bad-base64-other') {
    const w = c.rng.pick(b.workloads.filter(isTarget));
    const raw = c.rng.pick(['not base64!', 'YWJj=', '====', 'abc', 'Zm9v YmFy', 'Zm9v\u00e9', '-_-_']);
    b.sources.push({ cls: 'Secret', name: 'broken', namespace: effectiveNs(w.namespace), entries: [{ key: 'k', bytes: new Uint8Array(), field: 'data', raw }], empty: 'omit', labels: [], annotations: [] });
    b.order = undefined;
    useSource(w, b, b.sources.length - 1);
    mustFail = true;
  } else if (scenario === 'bad-base64-own' || scenario === 'wrong-type') {
    const spot = usedCanary(b, c.rng);
    if (!spot) return undefined;
    const e = b.sources[spot.index]!.entries.find((x) => x.key === spot.key)!;
    if (scenario === 'bad-base64-own') {
      e.field = 'data';
      e.raw = spot.marker; // "CANARY-…" is not base64 ('-')
    } else {
      e.raw = c.rng.pick([[spot.marker], ymap(['value', spot.marker])]);
    }
    mustFail = true;
  } else if (scenario === 'on-missing-error') {
    const w = c.rng.pick(b.workloads.filter(isTarget));
    w.refs.push({ via: 'env', cls: 'Secret', name: 'nowhere', key: 'password', list: 'containers', container: 0 });
    args.push('--on-missing', 'error');
    fnConfig = ymap(['apiVersion', 'v1'], ['kind', 'ConfigMap'], ['metadata', ymap(['name', 'cfg'])], ['data', ymap(['onMissing', 'error'])]);
    mustFail = true;
  } else if (scenario === 'syntax' || scenario === 'alias') {
    if (!usedCanary(b, c.rng)) return undefined;
  }
  const docs = bundleDocs(b);
  let stream = renderStream(docs, style, c.rng.fork());
  let rl = renderStream([resourceListDoc(docs, fnConfig)], { ...style, json: 0, flowDoc: 0 }, c.rng.fork());
  if (scenario === 'syntax') {
    const s = breakLine(stream, markers, c.rng, false);
    const r = breakLine(rl, markers, c.rng, true);
    if (s === undefined || r === undefined) return undefined;
    stream = s;
    rl = r;
    mustFail = true;
  } else if (scenario === 'alias') {
    // Valid YAML; rollstamp refuses aliases in objects it reads (the Secret is used, so it is read).
    const s = aliasLine(stream, markers, c.rng, false);
    const r = aliasLine(rl, markers, c.rng, true);
    if (s === undefined || r === undefined) return undefined;
    stream = s;
    rl = r;
  }
  const out: Inputs = { stream, rl, args, mustFail };
  if (fnConfig) out.fnConfig = fnConfig;
  return out;
}

/** A bundle with at least one marker (or undefined), its markers placed by placeCanaries. */
function canaryBundle(c: Case, placed: Placement): { bundle: Bundle; canaries: string[] } | undefined {
  let { bundle, canaries } = genBundle(c.rng, { canary: true });
  for (let tries = 0; canaries.length === 0 && tries < 20; tries++) ({ bundle, canaries } = genBundle(c.rng, { canary: true }));
  if (canaries.length === 0) return undefined;
  const p = placeCanaries(bundle, canaries, c.rng);
  placed.data += p.data;
  placed.stringData += p.stringData;
  placed.shadowed += p.shadowed;
  return { bundle, canaries };
}

test('P6: no output channel holds a Secret value, its base64 or its hex — on success and on failure', async () => {
  const ran = new Map<Scenario, number>();
  const placed: Placement = { data: 0, stringData: 0, shadowed: 0 };
  await forAll('P6', 0x9e6a0001, async (c) => {
    const made = canaryBundle(c, placed);
    if (!made) return;
    const { bundle, canaries } = made;
    const scenario = c.rng.pick(SCENARIOS);
    const inputs = build(c, bundle, canaries, scenario);
    if (!inputs) return;
    ran.set(scenario, (ran.get(scenario) ?? 0) + 1);
    c.keep('input.yaml', inputs.stream);
    c.keep('resource-list.yaml', inputs.rl);
    const runs: Array<{ name: string; run: CliRun & { stray: string }; input: string; echoes: boolean }> = [
      { name: 'stamp', run: await watched(['stamp', ...inputs.args, '-'], inputs.stream), input: inputs.stream, echoes: true },
      { name: 'explain', run: await watched(['explain', ...inputs.args, '-'], inputs.stream), input: inputs.stream, echoes: false },
      { name: 'explain --json', run: await watched(['explain', '--json', ...inputs.args, '-'], inputs.stream), input: inputs.stream, echoes: false },
      { name: 'fn', run: await watched(['fn'], inputs.rl), input: inputs.rl, echoes: true },
    ];
    for (const { name, run, input, echoes } of runs) {
      const where = `${name} [${scenario}] (${c.label})`;
      c.keep(`${name.replace(/\W+/g, '-')}.stdout`, run.stdout);
      c.keep(`${name.replace(/\W+/g, '-')}.stderr`, run.stderr);
      if (inputs.mustFail) assert.is(run.code, 1, `${where}: expected a failure, got exit ${run.code}: ${run.stderr}`);
      if (run.code !== 0 && echoes) assert.is(run.stdout, '', `${where}: printed on stdout after an error`);
      assert.ok(!('internal' in run), `${where}: internal error ${String((run as { internal?: unknown }).internal)}`);
      for (const marker of canaries) {
        for (const f of forms(marker)) {
          const allowed = echoes ? count(input, f) : 0;
          assert.ok(count(run.stdout, f) <= allowed, `${where}: stdout holds ${JSON.stringify(f)} (a form of ${marker}) more often than the input`);
          assert.is(count(run.stderr, f), 0, `${where}: stderr holds ${JSON.stringify(f)} (a form of ${marker})`);
          assert.is(count(run.stray, f), 0, `${where}: the process streams got ${JSON.stringify(f)} (a form of ${marker})`);
        }
      }
    }
  });
  if (process.env.PROPERTY_VERBOSE) console.log(ran, placed);
  for (const s of new Set(SCENARIOS)) assert.ok((ran.get(s) ?? 0) >= perCases(5), `scenario ${s} ran only ${ran.get(s) ?? 0} times`);
  if (CASES >= 100) assert.ok(placed.stringData >= 50 && placed.data >= 50 && placed.shadowed >= 10, `markers placed: ${JSON.stringify(placed)}`);
});

// ---- generate ----------------------------------------------------------------------------------------------

/** A stream's documents spread over 1–3 manifest files of an app directory (one file when it has directives). */
function appFiles(stream: string, rng: Rng): Record<string, string> {
  const chunks = /^%/m.test(stream) ? [stream] : stream.split(/^(?=---(?:[ \t]|\r?$))/m);
  const n = Math.min(chunks.length, rng.range(1, 3));
  const per = Math.ceil(chunks.length / n);
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    const text = chunks.slice(i * per, (i + 1) * per).join('');
    if (text !== '') files[`${rng.pick(['', 'manifests/', 'sub/dir/'])}f${i}${rng.pick(['.yaml', '.yml'])}`] = text;
  }
  return files;
}

/** `onMissing: error` the ways an Application sets it: plugin env, a parameter, or .rollstamp.yaml. */
function appSettings(inputs: Inputs, files: Record<string, string>, rng: Rng): ArgoApp {
  const app: ArgoApp = { namespace: 'default' };
  if (!inputs.args.includes('error')) return app;
  const how = rng.int(3);
  if (how === 0) app.env = { ROLLSTAMP_ON_MISSING: 'error' };
  else if (how === 1) app.params = [{ name: 'on-missing', string: 'error' }];
  else files['.rollstamp.yaml'] = 'apiVersion: rollstamp.dev/v1alpha1\nkind: RollstampConfig\nspec:\n  onMissing: error\n';
  return app;
}

test('P6g: generate (a plain-directory app as Argo CD runs it; YAML and JSON output) prints no Secret value, on success and on failure', async () => {
  requireBundle();
  const ran = new Map<Scenario, number>();
  const placed: Placement = { data: 0, stringData: 0, shadowed: 0 };
  let asProcess = 0;
  await forAll('P6g', 0x9e6a0002, async (c) => {
    const made = canaryBundle(c, placed);
    if (!made) return;
    const scenario = c.rng.pick(SCENARIOS);
    const inputs = build(c, made.bundle, made.canaries, scenario);
    if (!inputs) return;
    ran.set(scenario, (ran.get(scenario) ?? 0) + 1);
    const files = appFiles(inputs.stream, c.rng);
    const app = appSettings(inputs, files, c.rng);
    for (const [path, text] of Object.entries(files)) c.keep(path.replace(/\W+/g, '-'), text);
    const asChild = c.rng.bool(0.07);
    if (asChild) asProcess++;
    await sweepGenerate(files, made.canaries, app, { mustFail: inputs.mustFail, echoed: Object.values(files).join('\n'), process: asChild }, `generate [${scenario}] (${c.label})`);
  });
  if (process.env.PROPERTY_VERBOSE) console.log(ran, placed, asProcess);
  for (const s of new Set(SCENARIOS)) assert.ok((ran.get(s) ?? 0) >= perCases(3), `scenario ${s} ran only ${ran.get(s) ?? 0} times`);
  if (CASES >= 100) assert.ok(asProcess >= 5, `only ${asProcess} cases ran generate as a process`);
});

const withKubectl = testNeeding('kubectl');

/** `kubectl kustomize` of the app directory: what generate may print back ('' when it fails). */
function kustomized(appDir: string): string {
  const r = spawnSync('kubectl', ['kustomize', '.'], { cwd: appDir, encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '', HOME: appDir } });
  return r.status === 0 ? r.stdout : '';
}

withKubectl('P6k: generate of a kustomize app (kubectl, a secretGenerator literal too; YAML and JSON output) prints no Secret value, on success and on failure', async () => {
  requireBundle();
  const outcomes = { failed: 0, passed: 0, literal: 0 };
  await forAll('P6k', 0x9e6a0003, async (c) => {
    const made = canaryBundle(c, { data: 0, stringData: 0, shadowed: 0 });
    if (!made) return;
    const { bundle, canaries } = made;
    // A Secret kustomize generates from a literal marker, used by a target (kustomize renames the reference).
    const literal = c.rng.bool(0.6) ? `CANARY-${c.rng.hex(20)}` : undefined;
    if (literal) {
      canaries.push(literal);
      c.rng.pick(bundle.workloads.filter(isTarget)).refs.push({ via: 'env', cls: 'Secret', name: 'gen', key: 'token', list: 'containers', container: 0 });
      outcomes.literal++;
    }
    const scenario = c.rng.pick(SCENARIOS);
    const inputs = build(c, bundle, canaries, scenario, { exotic: 0, docEnd: false });
    if (!inputs) return;
    const files = appFiles(inputs.stream, c.rng);
    const app = appSettings(inputs, files, c.rng);
    files['kustomization.yaml'] =
      `resources:\n${Object.keys(files).filter((f) => /\.ya?ml$/.test(f) && !f.startsWith('.')).map((f) => `- ${f}\n`).join('')}` +
      (literal ? `secretGenerator:\n- name: gen\n  literals:\n  - token=${literal}\n` : '');
    for (const [path, text] of Object.entries(files)) c.keep(path.replace(/\W+/g, '-'), text);
    const runs = await sweepGenerate(files, canaries, app, { mustFail: inputs.mustFail, echoed: kustomized, process: c.rng.bool(0.5) }, `generate kustomize [${scenario}] (${c.label})`);
    if (runs[0]!.run.code === 0) outcomes.passed++;
    else outcomes.failed++;
  }, Math.min(CASES, 12));
  if (process.env.PROPERTY_VERBOSE) console.log(outcomes);
  if (CASES >= 12) assert.ok(outcomes.passed >= 1 && outcomes.failed >= 1 && outcomes.literal >= 1, `kustomize cases: ${JSON.stringify(outcomes)}`);
});

test.after(cleanup);

test.run();
