// `rollstamp stamp -o`: its formats as rows (output-format.ts): the stream as read with the stamps, or one JSON
// object per line with the values Kubernetes reads from that YAML.
import { toKubernetesJson } from '../../function/index.ts';
import { InputError } from '../process/errors.ts';
import { summarize } from './result-lines.ts';
import type { OutputFormat } from './output-format.ts';

/** `stamp`'s formats, the default first; each renders the stamped stream, given as its pieces (RunOutcome.outputPieces). */
export const STAMP_OUTPUT: readonly OutputFormat<readonly string[]>[] = [
  { name: 'yaml', help: 'the stream as read, with the stamps', render: (pieces) => pieces },
  {
    name: 'json',
    help: 'one JSON object per line, the values Kubernetes reads from that YAML',
    // As generate's ROLLSTAMP_OUTPUT=json: the values Kubernetes would read from the YAML, or a refusal naming
    // the object and field, never a guess.
    render: (pieces) => {
      const json = toKubernetesJson(pieces.join(''));
      if ('results' in json) throw new InputError(summarize(json.results));
      return json.text;
    },
  },
];
