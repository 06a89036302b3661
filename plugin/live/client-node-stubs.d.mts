// Types for client-node-stubs.mjs (a plain module so build.mjs can import it without tsx).
import type { Plugin } from 'esbuild';

export declare const slimClientNode: Plugin;
