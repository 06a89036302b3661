// Types of build/defer-builtins.mjs, for the test that builds with it.
import type { Plugin } from 'esbuild';

export declare function deferBuiltins(names: readonly string[]): Plugin;
