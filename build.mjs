// Bundles the CLI into one file that runs with plain `node` and no node_modules (what the image ships).
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { slimClientNode } from './plugin/live/client-node-stubs.mjs';

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


await build({
  entryPoints: ['plugin/main.ts'],
  outfile: 'dist/rollstamp.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Bundled CommonJS dependencies (yaml, ajv) call require() for Node built-ins; give them a real one.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __rollstampRequire } from 'node:module';\nconst require = __rollstampRequire(import.meta.url);" },
  // Live reads need only client-node's KubeConfig: leave out the API models and auth providers it never reaches.
  plugins: [slimClientNode, yamlEsm],
  legalComments: 'none',
  logLevel: 'warning',
});
