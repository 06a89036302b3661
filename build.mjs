// Bundles the CLI into one file that runs with plain `node` and no node_modules (what the image ships).
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { slimClientNode } from './plugin/live/client-node-stubs.mjs';
import { standaloneSchemaValidator } from './function/config/schema-validator-standalone.mjs';

// yaml's package sends the `node` condition to its CommonJS build; its ESM build (`browser/`, same code) bundles
// without CommonJS wrappers and their start-up cost.
const yamlDir = dirname(createRequire(import.meta.url).resolve('yaml/package.json'));
const yamlEsm = {
  name: 'yaml-esm',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: join(yamlDir, 'browser/index.js') }));
    b.onResolve({ filter: /^yaml\/util$/ }, () => ({ path: join(yamlDir, 'browser/dist/util.js') }));
  },
};

// Node built-ins that only some commands use. esbuild hoists every `import` of a built-in to the top of the one
// output file, so all of them would load at start-up, `--version` included. Each is imported instead through a
// small bundled module that require()s it; a command module (a lazy dynamic import) initializes it when it runs.
const LAZY_BUILTINS = ['crypto', 'http', 'https', 'tls', 'net', 'child_process'];
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const filter = new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`);
    b.onResolve({ filter }, (args) =>
      // The module's own require() is the real built-in.
      args.namespace === 'lazy-builtin' ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
      const real = await import(`node:${args.path}`);
      // Plain properties only: a getter (crypto.webcrypto, http.globalAgent) stays on the default export, read when used.
      const names = Object.entries(Object.getOwnPropertyDescriptors(real.default))
        .filter(([name, d]) => !('get' in d) && /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default')
        .map(([name]) => name);
      const contents = `const m = require('node:${args.path}');\nexport default m;\nexport const { ${names.join(', ')} } = m;\n`;
      return { contents, loader: 'js', resolveDir: process.cwd() };
    });
  },
};

await build({
  entryPoints: ['plugin/main.ts'],
  outfile: 'dist/rollstamp.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Bundled CommonJS dependencies (client-node, ajv's runtime helpers) and the lazy built-ins call require(); give them a real one.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __rollstampRequire } from 'node:module';\nconst require = __rollstampRequire(import.meta.url);" },
  // Live reads need only client-node's KubeConfig: leave out the API models and auth providers it never reaches.
  // The functionConfig validator is generated here (ajv standalone code), so ajv itself is not bundled.
  plugins: [slimClientNode, yamlEsm, lazyBuiltins, standaloneSchemaValidator],
  legalComments: 'none',
  logLevel: 'warning',
});
