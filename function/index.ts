// The core API: a run per input shape — `startStreamRun` (plain multi-document streams) and `startListRun`
// (a KRM ResourceList) — reads and plans the input once and names the sources only the cluster could supply
// (`needs`); the plugin reads them and `finish`es the run, which resolves, hashes, stamps and writes the
// output text. Besides the runs, what the plugin uses: settings, results, diff, and the readers of config
// files and live objects. Synchronous and pure: no files, no env, no clock.
export { startListRun } from './run/list-run.ts';
export { startStreamRun, type StreamInput, type StreamRunOptions } from './run/stream-run.ts';
export type { Run, RunOutcome, RunStart } from './run/run.ts';
export type { Config, ReadLimits } from './model/config.ts';
export { DEFAULT_MAX_KEY_WORK, DEFAULT_MAX_KIND_PATHS, DEFAULT_MAX_KINDS, DEFAULT_MAX_REFERENCES } from './model/config.ts';
export { DEFAULT_MAX_PREVIEW_ROWS } from './hash/kagent1x-preview.ts';
export type { Deadline } from './model/deadline.ts';
export type { Kagent1xFailure, Kagent1xInput, Kagent1xReport } from './model/kagent1x.ts';
export type { FetchedSources, LiveVersions } from './model/dependencies.ts';
export type { LiveNeed } from './model/plan.ts';
export type { SourceReport, TargetReport } from './model/reports.ts';

export { decideRefreshes } from './refresh/decide.ts';
export { liveSourceOf } from './hash/record-digest.ts';
export { resourceKey } from './refresh/tracking.ts';
export type { ApplicationView, Baselines, LiveChange, LiveSource, RefreshRequest, WorkloadView } from './model/refresh.ts';
export { ARGOCD_INSTANCE_LABEL, ARGOCD_REFRESH_ANNOTATION, ARGOCD_TRACKING_ANNOTATION, LIVE_RECORD_ANNOTATION, REFRESH_REQUESTED_ANNOTATION } from './model/constants.ts';
export { diffKagent1x, type AgentDiff, type InputChange, type Kagent1xDiff } from './compare/kagent1x-diff.ts';
export { diffStamps, type KeyChange, type SourceChange, type StampDiff, type TargetDiff } from './compare/stamp-diff.ts';
export { keepForComparison, type ComparedTarget } from './compare/kept-reports.ts';
export { DEFAULT_CONFIG, locateSettings, readConfig, readLocatedConfig, type LocatedSettings, type RawSettings, type ReadConfig } from './config/config.ts';
export { readConfigObject } from './config/config-object.ts';
export { formatResult, hasErrors, oneLine, resourceId, targetId, writtenTargetId, type Result } from './model/results.ts';
export { ESCAPED_NAME_NOTE, isShownOtherwise, printable, printableData, printableJson, shownLabel, shownName } from './model/printable.ts';
export { DEFAULT_READ_MODE, parseYamlDocument, READ_MODES } from './read/parse-yaml.ts';
export { plainDocuments } from './read/stream.ts';
export { decodeUtf8 } from './read/text.ts';
export { decodeBase64Strict } from './resolve/base64.ts';
export { markBinaryDataKeys } from './resolve/bundle.ts';
export { joinStreams } from './write/join-streams.ts';
export { toKubernetesJson } from './write/kubernetes-json.ts';
