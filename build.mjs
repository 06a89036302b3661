// Bundles the CLI into one file that runs with plain `node` and no node_modules (what the image ships).
import { build } from 'esbuild';
import { slimClientNode } from './plugin/live/client-node-stubs.mjs';


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
  plugins: [slimClientNode],
  legalComments: 'none',
  logLevel: 'warning',
});
