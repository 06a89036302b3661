// Inputs: zero objects in is an error unless allowed (#12): `renderer | rollstamp stamp --check -` must not pass
// CI when the renderer failed and printed nothing, and an empty generate would make Argo CD prune the whole
// application. One decision for every command; each says where the input came from, and the message names
// the way to allow an empty input there.
import { InputError } from '../process/errors.ts';
import { argocdEnvOf, argocdParameterOf } from '../settings/settings-table.ts';
import type { RunOutcome } from '../../function/index.ts';

/**
 * Where an empty input came from:
 * - `paths`: the files a command read (`stamp`, `explain`; none or `-` is standard input), allowed by `--allow-empty`;
 * - `renderer`: what `generate` rendered, allowed by the Application's allow-empty setting.
 */
export type EmptyInputSource = { paths: readonly string[] } | { renderer: string };

/** Throws one line when the run read no objects and an empty input is not allowed. */
export function refuseEmpty(run: Pick<RunOutcome, 'objects'>, allowEmpty: boolean | undefined, from: EmptyInputSource): void {
  if (run.objects > 0 || allowEmpty) return;
  if ('renderer' in from) {
    const ways = `parameter ${argocdParameterOf('allowEmpty')}, ${argocdEnvOf('allowEmpty')} or allowEmpty in .rollstamp.yaml`;
    throw new InputError(`the ${from.renderer} render produced no objects; refusing an empty result (set allow-empty to allow it: ${ways})`);
  }
  const { paths } = from;
  const where = paths.length === 0 || (paths.length === 1 && paths[0] === '-') ? 'standard input' : paths.join(', ');
  throw new InputError(`no objects in ${where}; pass --allow-empty if an empty input is expected`);
}
