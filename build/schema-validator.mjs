// Build-time twin of function/config/schema-validator.ts: the same ajv validator, generated as standalone JavaScript, so the
// bundle carries a few KB of generated checks instead of ajv (~250 KB compiled at every start-up).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';

/** Same options as schema-validator.ts (AJV_OPTIONS), plus code generation; a test holds the two equal. */
export const AJV_OPTIONS = { allErrors: true, strict: true };

const SCHEMA = new URL('../schemas/rollstamp-config.schema.json', import.meta.url);

/** ESM source whose default export is the validate function. It require()s ajv's small runtime helpers. */
export function standaloneValidatorSource() {
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true, esm: true } });
  return standaloneCode(ajv, ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8'))));
}

/** esbuild plugin: config.ts's import of ./schema-validator.ts resolves to the generated validator. */
export const standaloneSchemaValidator = {
  name: 'standalone-schema-validator',
  setup(b) {
    const dir = fileURLToPath(new URL('../function/config/', import.meta.url));
    b.onResolve({ filter: /^\.\/schema-validator\.ts$/ }, (args) =>
      args.resolveDir === dir.replace(/\/$/, '') ? { path: 'schema-validator', namespace: 'standalone-validator' } : undefined,
    );
    b.onResolve({ filter: /^standalone-validate$/ }, () => ({ path: 'validate', namespace: 'standalone-validator' }));
    b.onLoad({ filter: /.*/, namespace: 'standalone-validator' }, (args) =>
      args.path === 'validate'
        ? { contents: standaloneValidatorSource(), loader: 'js', resolveDir: dir }
        : { contents: "import validate from 'standalone-validate';\nexport const compileSchema = () => validate;\n", loader: 'js', resolveDir: dir },
    );
  },
};
