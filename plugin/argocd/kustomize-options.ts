// Argo CD CMP render stage: the operator's `kustomize build` flags (ROLLSTAMP_KUSTOMIZE_BUILD_OPTIONS, the
// sidecar's mirror of argocd-cm `kustomize.buildOptions`), checked against the flags that keep a repository's
// kustomization inside the repository and free of code execution.
import { UsageError } from '../process/errors.ts';
import { envOf } from '../settings/settings-table.ts';

/** The operator's extra `kustomize build` flags (sidecar environment only), e.g. `--enable-helm`. */
export const KUSTOMIZE_BUILD_OPTIONS_ENV = envOf('kustomizeBuildOptions');

/** Flags passed through, and whether each takes a value (`--flag value` or `--flag=value`). */
const ALLOWED: ReadonlyMap<string, boolean> = new Map([
  ['--enable-helm', false],
  ['--helm-command', true],
  ['--helm-api-versions', true],
  ['--helm-kube-version', true],
  ['--helm-debug', false],
  ['--enable-managedby-label', false],
  ['--reorder', true],
  ['--load-restrictor', true],
]);

/**
 * Why a flag is refused although kustomize has it: each hands a repository's kustomization something the
 * sidecar must keep to itself. The sidecar can read its service-account token (which may `get` Secrets) and
 * the hash key; `generate`'s symlink walk covers only the repository's own files.
 */
const REFUSED: ReadonlyMap<string, string> = new Map([
  ['--load-restrictor', 'lets a kustomization read files outside the repository (the sidecar\'s token, the hash key)'],
  ['--enable-exec', 'lets a repository run programs in the sidecar'],
  ['--enable-alpha-plugins', 'lets a repository run plugins in the sidecar'],
  ['--enable-star', 'lets a repository run plugins in the sidecar'],
  ['--mount', 'mounts sidecar paths into KRM functions a repository chooses'],
  ['--network', 'gives KRM functions a repository chooses the network'],
  ['--env', 'passes the sidecar\'s environment to KRM functions a repository chooses'],
  ['-e', 'passes the sidecar\'s environment to KRM functions a repository chooses'],
  ['--as-current-user', 'runs KRM functions a repository chooses as the sidecar\'s user'],
]);

/**
 * The flags to append to `kustomize build .`, split on white space as Argo CD splits `kustomize.buildOptions`
 * (util/kustomize/kustomize.go `parseKustomizeBuildOptions`).
 * - Only the flags in `ALLOWED` pass; `--load-restrictor` only as `LoadRestrictionsRootOnly` (kustomize's
 *   default). Anything else is a UsageError naming the flag and why (#12): Argo CD's repo-server may accept
 *   such a flag, but there the repository cannot also reach a token that reads Secrets.
 */
export function kustomizeBuildOptions(env: Readonly<Record<string, string | undefined>>): string[] {
  const words = (env[KUSTOMIZE_BUILD_OPTIONS_ENV] ?? '').split(/\s+/).filter((o) => o !== '');
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const eq = word.indexOf('=');
    const flag = word.startsWith('--') && eq > 0 ? word.slice(0, eq) : word;
    const takesValue = ALLOWED.get(flag);
    if (takesValue === undefined) throw new UsageError(refusal(flag));
    let value: string | undefined;
    if (flag !== word) value = word.slice(eq + 1);
    else if (takesValue) {
      value = words[i + 1];
      if (value === undefined || value.startsWith('-')) throw new UsageError(`${KUSTOMIZE_BUILD_OPTIONS_ENV}: ${flag} needs a value`);
      i++;
    }
    if (!takesValue && value !== undefined) throw new UsageError(`${KUSTOMIZE_BUILD_OPTIONS_ENV}: ${flag} takes no value`);
    if (flag === '--load-restrictor' && value !== 'LoadRestrictionsRootOnly') {
      throw new UsageError(`${KUSTOMIZE_BUILD_OPTIONS_ENV}: ${flag} ${value ?? ''} is refused: it ${REFUSED.get(flag)}`);
    }
    out.push(...(flag !== word || value === undefined ? [word] : [flag, value]));
  }
  return out;
}

function refusal(flag: string): string {
  const why = REFUSED.get(flag);
  if (why) return `${KUSTOMIZE_BUILD_OPTIONS_ENV}: ${flag} is refused: it ${why}`;
  return `${KUSTOMIZE_BUILD_OPTIONS_ENV}: ${flag} is not a flag rollstamp passes to kustomize (allowed: ${[...ALLOWED.keys()].join(', ')})`;
}
