// The windowed read-back (write/read-back.ts): when the block map an edit lies in reads alone, the whole
// edited document must read — by the subset reader, and without errors by the yaml library. Documents are
// generated around a pod template's metadata in many shapes (no metadata, labels only, annotations absent,
// empty, flow, block, an existing stamp in any scalar style, comments, blank and more-indented spaces-only
// lines between and after, block scalars last, 2 or 4 spaces) and around a SandboxAgent's env list (its
// stamp is an entry). The stamp edit rollstamp plans for each is then broken at random: characters YAML gives
// meaning to put in or taken out, its range moved or widened, an edit at the map's end (where a block
// scalar's line break and the next line are), the block-scalar flag dropped (#21), a document marker, a value
// made a block scalar that would take in the lines below it. Every edit the window check lets through is read
// whole. Good edits must pass the window check (it is the fast path), and broken ones must both pass and fail
// it (the check can fail). 2,000 cases here, 20,000 when CI is set.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isMapNode } from '../../function/model/nodes.ts';
import { fillEdit, type TextEdit } from '../../function/model/target.ts';
import { parseYamlDocument } from '../../function/read/parse-yaml.ts';
import { readSubsetStream } from '../../function/read/subset-yaml.ts';
import { applyTextEdits } from '../../function/write/apply-edits.ts';
import { windowsReadBack } from '../../function/write/read-back.ts';
import { planStampEdit } from '../../function/write/text-edit.ts';
import type { Rng } from '../support/property-generate.ts';
import { forAll } from '../support/property-harness.ts';

const CASES = Number(process.env.PROPERTY_CASES ?? (process.env.CI ? 20_000 : 2_000));
const KEY = 'rollstamp.dev/hash';
const HASH = `sha256:${'ab12'.repeat(16)}`;
const SITE = { kind: 'annotation', path: ['spec', 'template', 'metadata', 'annotations'] } as const;
/** What a broken edit may gain: characters with a meaning in YAML, and line breaks with indentation. */
const NOISE = [':', ': ', '-', '- ', '#', ' #', '|', '|+', '>', "'", '"', '{', '}', '[', ']', ',', '&a', '*a', '!', '?', '%', '@', '`', '\n', '\n ', '\n  ', '\n    ', '\n---\n', ' ', '   ', 'x', '...', 'k: v', '\nk: 1'];

/** A scalar after `key: ` at `indent`, in a random style, with the lines a block scalar takes. */
function scalar(rng: Rng, indent: number): string {
  const inner = ' '.repeat(indent + rng.pick([1, 2, 4]));
  return rng.pick([
    'stale',
    `"${HASH}"`,
    "'two words'",
    `stale # by hand`,
    `|\n${inner}old\n`,
    `|-\n${inner}old\n\n`,
    `>\n${inner}old\n${inner}more\n`,
    `|+ # kept\n${inner}old\n\n`,
  ]);
}

const line = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);

/** Lines that may sit between or after entries of a map whose keys are at `indent`. */
function filler(rng: Rng, indent: number): string {
  const at = ' '.repeat(rng.pick([0, Math.max(0, indent - 2), indent, indent + 2]));
  return rng.pick(['', '', '\n', `${at}# a note\n`, `${at}#\n\n`, `${' '.repeat(indent + 6)}\n`]);
}

/** The pod template's metadata map at `indent`, or nothing. */
function metadata(rng: Rng, indent: number, step: number): string {
  const pad = ' '.repeat(indent);
  const inner = ' '.repeat(indent + step);
  const entries: string[] = [];
  if (rng.bool(0.7)) entries.push(rng.bool() ? `${pad}labels: {app: web}\n` : `${pad}labels:\n${inner}app: web\n`);
  switch (rng.int(6)) {
    case 0:
      break;
    case 1:
      entries.push(`${pad}annotations:${rng.pick(['', ' ~', ' null', ' # none yet'])}\n`);
      break;
    case 2:
      entries.push(`${pad}annotations: ${rng.pick(['{}', '{a: b}', `{${KEY}: old}`, '{ a: b }'])}\n`);
      break;
    case 3:
      entries.push(`${pad}annotations:\n${inner}note: x\n${filler(rng, indent + step)}`);
      break;
    default:
      entries.push(`${pad}annotations:\n${filler(rng, indent + step)}${inner}${KEY}: ${line(scalar(rng, indent + step))}${rng.bool() ? `${inner}note: ${line(scalar(rng, indent + step))}` : ''}`);
  }
  if (rng.bool(0.3)) entries.push(`${pad}name: ${line(scalar(rng, indent))}`);
  if (entries.length === 0) return '';
  const ordered = rng.bool() ? entries : entries.reverse();
  return `${' '.repeat(indent - step)}metadata:\n${ordered.map((e) => e + filler(rng, indent)).join('')}`;
}

function document(rng: Rng): string {
  const step = rng.pick([2, 4]);
  const i = (n: number): string => ' '.repeat(n * step);
  const meta = metadata(rng, 3 * step, step);
  const spec = `${i(2)}spec:\n${i(3)}containers:\n${i(3)}- name: c\n${i(3)}  image: example/app:1\n`;
  const template = rng.bool() ? meta + spec : spec + meta;
  const tail = rng.pick(['', `${i(1)}replicas: 2\n`, `# end\n`, `status: {}\n`]);
  return `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n${i(1)}name: web\nspec:\n${i(1)}template:\n${template}${tail}`;
}

/** A SandboxAgent whose stamp is an env entry (#13): an env list in a few layouts, with or without the entry. */
function sandboxAgent(rng: Rng): string {
  const step = rng.pick([2, 4]);
  const i = (n: number): string => ' '.repeat(n * step);
  const dash = rng.bool() ? i(3) : i(4);
  const entry = (name: string, value: string): string => `${dash}- name: ${name}\n${dash}  value: ${line(value)}`;
  const entries = [entry('LOG_LEVEL', 'debug'), ...(rng.bool() ? [entry('ROLLSTAMP_HASH', scalar(rng, dash.length + 2))] : [])];
  const env = `${i(3)}env:\n${filler(rng, dash.length)}${(rng.bool() ? entries : entries.reverse()).join('')}`;
  const image = `${i(3)}image: example/app:1\n`;
  return `apiVersion: kagent.dev/v1alpha2\nkind: SandboxAgent\nmetadata: {name: s}\nspec:\n${i(1)}type: BYO\n${i(1)}byo:\n${i(2)}deployment:\n${rng.bool() ? image + env : env + image}`;
}

const ENV_SITE = { kind: 'env', path: ['spec', 'byo', 'deployment', 'env'] } as const;

/** The edit broken one way at random. */
function broken(rng: Rng, edit: TextEdit): TextEdit {
  const out = { ...edit };
  const at = rng.int(out.insert.length + 1);
  const end = edit.window!.end;
  switch (rng.int(8)) {
    case 0:
      out.insert = out.insert.slice(0, at) + rng.pick(NOISE) + out.insert.slice(at);
      break;
    case 1:
      out.insert = out.insert.slice(0, at) + out.insert.slice(at + rng.range(1, 3));
      break;
    case 2:
      out.offset += rng.range(-3, 3);
      break;
    case 3:
      out.remove = Math.max(0, out.remove + rng.range(-2, 4));
      break;
    case 4:
      out.insert = out.insert.replace(/\n( *)/, (_, spaces: string) => `\n${' '.repeat(Math.max(0, spaces.length + rng.pick([-2, -1, 1, 2])))}`);
      break;
    case 5: // a second edit at the end of the map: where a block scalar's line break, or the next line, is
      return { ...edit, offset: end - rng.int(2), remove: rng.int(3), insert: rng.pick(NOISE) };
    case 6: // the edit as it would be without knowing the stamp is a block scalar (#21)
      delete out.block;
      break;
    default: // a document marker, or a value made a block scalar that takes in the lines below it
      out.insert = rng.bool() ? `---\n${out.insert}` : out.insert.replace(/"[^"]*"$/, rng.pick(['|', '>', '|+']));
  }
  return out;
}

test('an edit whose block map reads alone leaves a document that reads whole; good edits take that path', async () => {
  let read = 0;
  let windows = 0;
  let passed = 0;
  let refused = 0;
  await forAll('read-back windows', 0x3eadbac, async ({ rng, label, keep }) => {
    const env = rng.bool(0.25);
    const text = env ? sandboxAgent(rng) : document(rng);
    keep('input.yaml', text);
    const root = readSubsetStream(text)?.[0]?.contents;
    if (!isMapNode(root)) return; // a comment line below a block scalar can be more indented content: not the subset
    read++;
    const plan = planStampEdit(root, env ? ENV_SITE : SITE, KEY);
    if (!plan) return;
    const good = fillEdit(plan, HASH);
    if (good.window) {
      windows++;
      assert.ok(windowsReadBack(text, 0, [good]), `${label}: the stamp edit itself passes its window check`);
    }
    for (let k = 0; k < 4; k++) {
      const edit = broken(rng, good);
      if (!windowsReadBack(text, 0, [edit])) {
        refused++;
        continue;
      }
      passed++;
      const edited = applyTextEdits(text, 0, [edit]);
      assert.equal(readSubsetStream(edited)?.length, 1, `${label}: the window read alone, so the subset reader reads the whole document`);
      assert.equal(parseYamlDocument(edited).errors.length, 0, `${label}: and the yaml library reads it without errors`);
    }
  }, CASES);
  process.stdout.write(`read-back windows: ${read} documents in the subset, ${windows} edits with a window; broken edits ${passed} let through (each read whole), ${refused} sent to the whole-document check\n`);
  assert.ok(read > CASES * 0.8, `most generated documents are in the subset (${read} of ${CASES})`);
  assert.ok(windows > read / 2, `most stamp edits have a window (${windows} of ${read})`);
  assert.ok(passed > 0 && refused > 0, `broken edits both pass and fail the window check (${passed} passed, ${refused} refused)`);
});

test.run();
