// Types of build/defer-builtins.mjs, for the test that builds with it.
import type { Plugin } from 'esbuild';

/** Where the snapshot build's deferred built-ins look for a stand-in (`standIns`). */
export declare const STAND_IN_KEY: string;
export declare function deferBuiltins(names: readonly string[], options?: { standIns?: boolean }): Plugin;
