// The version, the commit and the build date of this rollstamp. build.mjs replaces `__ROLLSTAMP_BUILD__` with
// what it found (the commit it built, the commit's date, or SOURCE_DATE_EPOCH); run from the sources (tsx, the
// tests) both are "unknown".
import pkg from '../package.json' with { type: 'json' };

declare const __ROLLSTAMP_BUILD__: { commit: string; buildDate: string } | undefined;

export interface BuildInfo {
  version: string;
  commit: string;
  buildDate: string;
}

/** What `rollstamp version -o json` prints. */
export function buildInfo(): BuildInfo {
  const built = typeof __ROLLSTAMP_BUILD__ === 'undefined' ? undefined : __ROLLSTAMP_BUILD__;
  return { version: pkg.version, commit: built?.commit ?? 'unknown', buildDate: built?.buildDate ?? 'unknown' };
}
