// Runs every test file (uvu over TypeScript through tsx) and ends with one summary line
// "tests: N passed, N failed, N skipped" that CI reads.
import { spawn } from 'node:child_process';

const child = spawn(
  process.execPath,
  ['--import', 'tsx', 'node_modules/uvu/bin.js', 'test', '\\.test\\.ts$', ...process.argv.slice(2)],
  { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, FORCE_COLOR: '0' } },
);
let out = '';
child.stdout.on('data', (chunk) => {
  out += chunk;
  process.stdout.write(chunk);
});
child.on('close', (code) => {
  const num = (label) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(out)?.[1] ?? 0);
  const total = num('Total');
  const passed = num('Passed');
  const skipped = num('Skipped');
  const failed = Math.max(total - passed - skipped, code === 0 ? 0 : 1);
  process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  if (total === 0) {
    process.stdout.write('no test ran\n');
    process.exit(1);
  }
  process.exit(code ?? 1);
});
