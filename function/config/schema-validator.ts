// The functionConfig schema check (schemas/rollstamp-config.schema.json), compiled by ajv when first needed.
// The bundle does not ship this module: build.mjs puts the same validator, generated ahead of time by
// build/schema-validator.mjs, in its place, so ajv is neither shipped nor compiled at start-up.
import { Ajv, type ValidateFunction } from 'ajv';
import schema from '../../schemas/rollstamp-config.schema.json' with { type: 'json' };

/** The options both ways of building the validator use; test/unit/config-validator.test.ts holds them equal. */
export const AJV_OPTIONS = { allErrors: true, strict: true } as const;

export function compileSchema(): ValidateFunction {
  return new Ajv(AJV_OPTIONS).compile(schema);
}
