// Plugin config stage: the settings only the plugin reads — the hash key file and the renderer's (`generate`) —
// beside the core's Config. The core's reader validates every setting against the schema; this module gives
// the plugin's own their types and meaning, so the core's Config holds nothing the core does not read (#36).
import type { Config, ReadConfig } from '../../function/index.ts';

/** The core's Config and the settings only the plugin reads. */
export interface PluginConfig extends Config {
  /** Default: none (unkeyed SHA-256; or ROLLSTAMP_HASH_KEY_FILE, ROLLSTAMP_HASH_KEY). */
  hashKeyFile?: string;
  /** `rollstamp generate` only: renderer override (argocd/render.ts `Renderer` is this type). Default: detected. */
  renderer?: 'kustomize' | 'helm' | 'directory';
  /** `rollstamp generate` only: helm values files. Default: none. */
  valuesFiles?: string[];
  /** `rollstamp generate` only: an empty render succeeds. Default: false. */
  allowEmpty: boolean;
  /** `rollstamp generate` only, helm: leave the chart's `crds/` out (Argo CD's `helm.skipCrds`). Default: false. */
  skipCrds: boolean;
}

/** The settings only the plugin reads, as their names. */
export type PluginOnlySettings = Omit<PluginConfig, keyof Config>;

/**
 * The plugin's config from what the core's reader read and validated.
 * - `allowEmpty` and `skipCrds`: `true` or `"true"` (a ConfigMap's data and Argo CD's plugin env are strings).
 * - `valuesFiles`: comma-separated, each name trimmed, empty ones dropped.
 */
export function pluginConfig(read: ReadConfig): PluginConfig {
  const s = read.settings;
  const config: PluginConfig = { ...read.config, allowEmpty: s.allowEmpty === 'true' || s.allowEmpty === true, skipCrds: s.skipCrds === 'true' || s.skipCrds === true };
  if (typeof s.renderer === 'string') config.renderer = s.renderer as NonNullable<PluginConfig['renderer']>;
  if (typeof s.valuesFiles === 'string') config.valuesFiles = s.valuesFiles.split(',').map((f) => f.trim()).filter((f) => f !== '');
  if (typeof s.hashKeyFile === 'string') config.hashKeyFile = s.hashKeyFile;
  return config;
}
