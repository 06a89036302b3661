// `npm run bench:phases`: where one run's time goes inside the core, warm, in this process — reading (every
// document into a tree), planning (index, targets, references, text edits), hashing (apply) and writing
// (the stamped stream, read back). Each round times four nested pipelines on the same synthetic stream — read;
// read + plan; read + plan + apply; the whole stream run — so a phase's cost is the difference between two
// neighbours, and load on the machine falls on all four alike. The first round warms the JIT and is left out.
// What it answers: how much a change to one phase can win at most (docs/performance.md, "Where the time goes").
// `--size 10000` (objects, the default), `--rounds 9` (the default; odd, so the median is a round's).
import { parseArgs } from 'node:util';
import { DEFAULT_CONFIG } from '../function/config/config.ts';
import { apply, startPlan } from '../function/run/apply.ts';
import { startStreamRun } from '../function/run/stream-run.ts';
import { streamDocuments } from '../function/read/stream-documents.ts';
import { streamItems } from '../function/read/stream.ts';
import type { Plan } from '../function/model/plan.ts';
import { asStream, bundleDocuments } from './generate-bundle.ts';

const USAGE = 'usage: bench/phases.ts [--size N] [--rounds N]';
const { values } = parseArgs({ options: { size: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '9' } } });
const size = Number(values.size);
const rounds = Number(values.rounds);
if (!Number.isInteger(size) || size <= 0 || !Number.isInteger(rounds) || rounds <= 0) {
  console.error(USAGE);
  process.exit(2);
}

const text = asStream(bundleDocuments(size));
const config = DEFAULT_CONFIG;

/** Every document read and unwrapped into items; the items are dropped at once. */
function read(): number {
  let items = 0;
  const reader = streamDocuments(text, 'bundle.yaml');
  let step = reader.next();
  for (; !step.done; step = reader.next()) items += streamItems([step.value], items).items.length;
  // The generator's return value comes with its last step: false when the stream had to be read whole.
  if (!step.value) throw new Error('the bench stream left the document-by-document reader');
  return items;
}

/** read, each document planned as it is read (as stream-run.ts does). */
function readPlan(): Plan {
  const planner = startPlan(config);
  for (const doc of streamDocuments(text, 'bundle.yaml')) planner.add(streamItems([doc], planner.items).items);
  return planner.finish();
}

const pipelines: Array<[string, () => unknown]> = [
  ['reading', read],
  ['planning', readPlan],
  ['hashing', () => apply(readPlan())],
  ['writing', () => startStreamRun([{ path: 'bundle.yaml', text }], { config }).finish().outputPieces.length],
];

const times = new Map<string, number[]>(pipelines.map(([name]) => [name, []]));
for (let round = 0; round <= rounds; round++) {
  for (const [name, run] of pipelines) {
    const start = performance.now();
    run();
    if (round > 0) times.get(name)!.push(performance.now() - start);
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cumulative = pipelines.map(([name]) => median(times.get(name)!));
const total = cumulative[cumulative.length - 1]!;

console.log(`${size} objects (${(text.length / 2 ** 20).toFixed(1)} MiB), ${rounds} warm rounds, medians, node ${process.version}\n`);
console.log('| phase | whole pipeline up to it, ms | the phase alone, ms | share |');
console.log('|---|---:|---:|---:|');
cumulative.forEach((ms, i) => {
  const alone = ms - (i === 0 ? 0 : cumulative[i - 1]!);
  console.log(`| ${pipelines[i]![0]} | ${ms.toFixed(0)} | ${alone.toFixed(0)} | ${((100 * alone) / total).toFixed(0)} % |`);
});
