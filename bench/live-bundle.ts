// What the live reader (and @kubernetes/client-node with it) costs the CLI bundle: builds plugin/main.ts as
// build.mjs does (same esbuild options, into a temp dir, dist/ untouched), once as is and once with
// plugin/live/reader.ts left out, and once with client-node's unused modules stubbed (client-node-stubs.mjs),
// then compares sizes and `--version` start-up against bare `node -e 0`.
//   node --import tsx bench/live-bundle.ts [runs]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { slimClientNode } from '../plugin/live/client-node-stubs.mjs';

const runs = Number(process.argv[2] ?? 30);
const dir = mkdtempSync(join(tmpdir(), 'rollstamp-bundle-'));
const withoutReader: Plugin = {
  name: 'without-live-reader',
  setup(b) {
    b.onResolve({ filter: /live\/reader\.ts$/ }, (a) => ({ path: a.path, external: true }));
  },
};
const bundle = async (file: string, plugins: Plugin[]): Promise<{ path: string; bytes: number; inputs: Record<string, number> }> => {
  const path = join(dir, file);
  const result = await build({
    entryPoints: ['plugin/main.ts'],
    outfile: path,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: "#!/usr/bin/env node\nimport { createRequire as __rollstampRequire } from 'node:module';\nconst require = __rollstampRequire(import.meta.url);" },
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
    plugins,
  });
  const inputs: Record<string, number> = {};
  for (const [name, info] of Object.entries(Object.values(result.metafile.outputs)[0]!.inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(name)?.[1] ?? '(rollstamp)';
    inputs[pkg] = (inputs[pkg] ?? 0) + info.bytesInOutput;
  }
  return { path, bytes: statSync(path).size, inputs };
};

try {
  const before = await bundle('without-reader.js', [withoutReader]);
  const after = await bundle('with-reader.js', []);
  const slim = await bundle('with-reader-slim.js', [slimClientNode]);
  const commands: Array<[string, string[]]> = [
    ['node -e 0', ['-e', '0']],
    ['without reader --version', [before.path, '--version']],
    ['with reader --version', [after.path, '--version']],
    ['with reader, slim --version', [slim.path, '--version']],
  ];
  const times = commands.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    commands.forEach(([, args], k) => {
      const t = performance.now();
      const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
      if (r.status !== 0) throw new Error(`${args.join(' ')} failed`);
      times[k]!.push(performance.now() - t);
    });
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const kb = (n: number): string => `${(n / 1024).toFixed(0)} KiB`;
  console.log(`bundle without the live reader: ${kb(before.bytes)}; with it: ${kb(after.bytes)} (+${kb(after.bytes - before.bytes)})`);
  const added = Object.entries(after.inputs)
    .map(([pkg, n]) => [pkg, n - (before.inputs[pkg] ?? 0)] as const)
    .filter(([, n]) => n > 8 * 1024)
    .sort((a, b) => b[1] - a[1]);
  console.log(`  largest additions: ${added.map(([pkg, n]) => `${pkg} ${kb(n)}`).join(', ')}`);
  console.log(`with the reader and plugin/live/client-node-stubs.mjs: ${kb(slim.bytes)} (+${kb(slim.bytes - before.bytes)})`);
  // The minimum is the least noisy estimate on a shared machine; the median is shown beside it.
  const fastest = (xs: number[]): number => Math.min(...xs);
  const base = fastest(times[0]!);
  const baseMedian = median(times[0]!);
  commands.forEach(([name], k) => {
    const m = fastest(times[k]!);
    const md = median(times[k]!);
    const over = k ? ` (+${(m - base).toFixed(1)} ms over node -e 0; median +${(md - baseMedian).toFixed(1)} ms)` : ` (median ${md.toFixed(1)} ms)`;
    console.log(`start-up, fastest of ${runs}: ${name.padEnd(29)} ${m.toFixed(1)} ms${over}`);
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
