// `rollstamp refresh`: its flags (rows of plugin/settings/settings-table.ts marked `command: 'refresh'`, with the kubeconfig,
// context and hash key file rows the other commands share), parsed and checked into one options object.
import { UsageError } from '../../process/errors.ts';
import { parseFlags, type FlagSpec, type FlagValues } from '../../cli/flags.ts';
import { loadHashKey } from '../../settings/settings.ts';
import { setting, SETTING_TABLE, SETTINGS, type SettingDeclaration } from '../../settings/settings-table.ts';
import { parseListen } from './endpoints.ts';
import type { WatchedType } from './slim.ts';
import type { RunIo } from '../../settings/run-settings.ts';

export interface RefreshOptions {
  once: boolean;
  kubeconfig?: string;
  context?: string;
  argocdNamespace: string;
  applicationNamespaces: string[];
  /** Undefined: every namespace. */
  namespaces?: string[];
  sharedNamespaces: string[];
  workloadTypes: WatchedType[];
  leaderElect: boolean;
  leaseName: string;
  /** Undefined: `--listen off`. */
  listen?: { host: string; port: number };
  debounceMs: number;
  minIntervalMs: number;
  perMinute: number;
  /** The operator's hash key (the sidecar's), if any. */
  hashKey?: Uint8Array;
}

/** The settings rows refresh reads, in help order: its own, then those it shares with the other commands. */
const ROWS: readonly SettingDeclaration[] = [...SETTINGS.filter((s) => s.command === 'refresh'), setting('kubeconfig'), setting('kubeContext'), setting('hashKeyFile')];

export const REFRESH_FLAGS: readonly FlagSpec[] = ROWS.map((s) => {
  const { name, short, arg, help } = s.flag!;
  return { name, type: s.type === 'boolean' ? 'boolean' : 'string', ...(short ? { short } : {}), ...(arg ? { arg } : {}), help };
});

const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const GVR = /^(?:([a-z0-9]([-a-z0-9.]*[a-z0-9])?)\/)?(v[0-9]+(?:(?:alpha|beta)[0-9]+)?)\/([a-z0-9]+)$/;

/** Parses `args` into options; a bad value is a UsageError naming the flag. */
export async function refreshOptions(args: readonly string[], io: RunIo): Promise<RefreshOptions> {
  const { values, positionals } = parseFlags(args, REFRESH_FLAGS, 'refresh');
  if (positionals.length > 0) throw new UsageError(`refresh takes no arguments (got ${positionals[0]})`);
  const text = (name: string): string | undefined => (typeof values[flagOf(name)] === 'string' ? (values[flagOf(name)] as string) : undefined);
  const argocdNamespace = namespace(text('argocdNamespace') ?? SETTING_TABLE.argocdNamespace.default!, '--argocd-namespace');
  const namespaces = text('watchNamespaces') === undefined ? undefined : namespaceList(values, 'watchNamespaces');
  if (namespaces?.length === 0) throw new UsageError('--namespaces: name at least one namespace, or leave the flag out to watch every namespace');
  const listen = text('listen') ?? SETTING_TABLE.listen.default!;
  const keyFile = text('hashKeyFile');
  const hashKey = await loadHashKey(keyFile !== undefined ? { hashKeyFile: keyFile } : {}, io);
  const kubeconfig = text('kubeconfig');
  const context = text('kubeContext');
  return {
    once: values.once === true,
    ...(kubeconfig !== undefined ? { kubeconfig } : {}),
    ...(context !== undefined ? { context } : {}),
    argocdNamespace,
    applicationNamespaces: namespaceList(values, 'applicationNamespaces'),
    ...(namespaces ? { namespaces } : {}),
    sharedNamespaces: namespaceList(values, 'sharedNamespaces'),
    workloadTypes: workloadTypes(text('workloadKinds') ?? SETTING_TABLE.workloadKinds.default!),
    leaderElect: values['leader-elect'] === true,
    leaseName: text('leaseName') ?? SETTING_TABLE.leaseName.default!,
    ...(listen === 'off' ? {} : { listen: parseListen(listen) }),
    debounceMs: seconds(text('debounceSeconds') ?? SETTING_TABLE.debounceSeconds.default!, '--debounce', 0) * 1000,
    minIntervalMs: seconds(text('minIntervalSeconds') ?? SETTING_TABLE.minIntervalSeconds.default!, '--min-interval', 0) * 1000,
    perMinute: whole(text('maxPerMinute') ?? SETTING_TABLE.maxPerMinute.default!, '--max-per-minute'),
    ...(hashKey ? { hashKey } : {}),
  };
}

const flagOf = (name: string): string => setting(name).flag!.name;

function namespace(value: string, flag: string): string {
  if (!NAMESPACE.test(value)) throw new UsageError(`${flag}: "${value}" is not a namespace name`);
  return value;
}

function namespaceList(values: FlagValues, name: string): string[] {
  const raw = values[flagOf(name)];
  if (typeof raw !== 'string') return [];
  return [...new Set(raw.split(',').map((n) => n.trim()).filter((n) => n !== '').map((n) => namespace(n, `--${flagOf(name)}`)))];
}

function workloadTypes(value: string): WatchedType[] {
  return value.split(',').map((item) => {
    const m = GVR.exec(item.trim());
    if (!m) throw new UsageError(`--workload-kinds: "${item.trim()}" is not group/version/resource (e.g. apps/v1/deployments)`);
    return { group: m[1] ?? '', version: m[3]!, resource: m[4]! };
  });
}

/** A whole number from 1 to 1,000,000. */
function whole(value: string, flag: string): number {
  if (!/^[1-9]\d{0,6}$/.test(value) || Number(value) > 1_000_000) throw new UsageError(`${flag}: "${value}" is not a whole number from 1 to 1000000`);
  return Number(value);
}

/** A number of seconds (a fraction allowed) at least `min`. */
function seconds(value: string, flag: string, min: number): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n < min || n > 86_400) throw new UsageError(`${flag}: "${value}" is not a number from ${min} to 86400`);
  return n;
}
