// Types of build/schema-validator.mjs, for the test that compares it with function/config/schema-validator.ts.
import type { Plugin } from 'esbuild';

export declare const AJV_OPTIONS: { allErrors: boolean; strict: boolean };
export declare function standaloneValidatorSource(): string;
export declare const standaloneSchemaValidator: Plugin;
