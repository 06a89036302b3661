// `rollstamp explain` over kagent 1.x (#20, #35): every 1.x Agent's revision inputs (the chain to each, what a
// change does, the consumed keys), what keeps it from compiling, and every ModelConfig's status.secretHash as
// kagent 1.x will report it. Names, keys and kagent's own status hash only: no value, no digest of a single value.
import { resourceId, type Kagent1xInput, type Kagent1xReport } from '../../function/index.ts';
import { documentPlace } from './document-place.ts';
import { RECREATE_NOTE } from './kagent1x-format.ts';

const EFFECT: Record<string, string> = { recompiles: 'recompiles', 'applies-live': 'applies live' };

/** The text section: each Agent, its inputs and failures, then each ModelConfig's secretHash and how to check it. */
export function renderKagent1xText(report: Kagent1xReport): string[] {
  const lines: string[] = [];
  for (const a of report.agents) {
    const file = documentPlace(a.file);
    lines.push(`${resourceId(a.resourceRef)}${file}`, '  kagent 1.x: not stamped; a change to an input marked "recompiles" compiles a new revision, "applies live" needs none');
    for (const f of a.failures) lines.push(`  ${'WILL NOT COMPILE'.padEnd(12)}  ${f.chain.join(' › ')}  ${f.reason}  via ${f.field}`);
    for (const i of a.inputs) lines.push(`  ${EFFECT[i.effect]!.padEnd(12)}  ${i.chain.join(' › ')}  ${what(i)}`);
  }
  for (const m of report.modelConfigs) {
    const file = documentPlace(m.file);
    lines.push(`${resourceId(m.resourceRef)}${file}`);
    lines.push(m.secretHash ? `  status.secretHash = ${m.secretHash}  (kagent 1.x, computed offline)` : `  status.secretHash: not known offline: ${m.unknown!}`);
    lines.push(`  covers: ${m.covers.length > 0 ? m.covers.join(', ') : 'nothing (no Secret or ConfigMap)'}`, `  check: ${m.check}`);
  }
  if (report.agents.length > 0) lines.push(RECREATE_NOTE);
  return lines;
}

function what(i: Kagent1xInput): string {
  const from = i.producedBy && i.from === 'producer' ? `producer: ${i.producedBy}` : i.from;
  if (i.kind !== 'Secret' && i.kind !== 'ConfigMap') return `spec  [${from}]`;
  const keys = i.keys.map((k) => (k.present ? k.key : `${k.key} (absent)`)).join(', ');
  const which = i.whole ? `all of data and uid${keys ? `: ${keys}` : ''}` : i.schema ? `output schema (canonical JSON): ${keys}` : `keys: ${keys}`;
  return `${which}  [${from}]  via ${i.field}`;
}
