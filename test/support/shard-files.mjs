// Runs several test files in one process for test/run.mjs: each file's uvu suites to the end, then the next
// file's, so many small files pay one start-up (node, tsx, the modules under test) instead of one each.
// Usage (the runner's): node --import tsx --import test/support/shard-cpu.mjs test/support/shard-files.mjs FILE…
// Around each file it prints a start and an end line (FILE_MARK); the end line carries the file's counts, wall
// and CPU as JSON, from which the runner reports each file as if it had run alone.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { childrenSeconds } from './shard-cpu.mjs';

export const FILE_MARK = '@@rollstamp-test-file@@';

// uvu then queues each suite's test.run() in globalThis.UVU_QUEUE instead of starting them on a timer; it is
// read when uvu is first imported, which is after this line (test files import it, this file does not).
globalThis.UVU_DEFER = 1;
// One ordered stream: the runner splits the output at the marks, and stdout and stderr pipes are read apart.
process.stderr.write = process.stdout.write.bind(process.stdout);

const write = (text) => process.stdout.write(text);
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6 + childrenSeconds();
};

let current = '';
process.on('exit', () => {
  // A file whose tests left nothing to wait on (a promise never settled) lets the process end mid-file.
  if (current !== '') {
    write(`\n${current}: the process exited before its tests finished\n`);
    process.exitCode = 1;
  }
});

/** Imports `file` and runs the suites it queued; its counts as uvu reports them, and a load error as a failure. */
async function runFile(file) {
  globalThis.UVU_QUEUE = [[file]];
  globalThis.UVU_INDEX = 0;
  const counts = { total: 0, passed: 0, skipped: 0, failed: 0 };
  try {
    await import(pathToFileURL(resolve(file)).href);
    for (const suite of globalThis.UVU_QUEUE[0].slice(1)) {
      const [errors, ran, skipped, total] = await suite();
      counts.total += total;
      counts.passed += ran;
      counts.skipped += skipped;
      if (errors !== true) {
        counts.failed += Math.max(1, total - ran);
        write(`\n${errors}\n`);
      }
    }
  } catch (error) {
    counts.failed += 1;
    write(`\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  write(`\n  Total:     ${counts.total}\n  Passed:    ${counts.passed}\n  Skipped:   ${counts.skipped}\n`);
  return counts;
}

const env = { ...process.env };
const cwd = process.cwd();
/** Undoes what a file changed in the environment or the working directory, so the next file starts as it would alone. */
function restore() {
  for (const k of Object.keys(process.env)) if (!(k in env)) delete process.env[k];
  Object.assign(process.env, env);
  if (process.cwd() !== cwd) process.chdir(cwd);
}

for (const file of process.argv.slice(2)) {
  current = file;
  write(`\n${FILE_MARK} start ${file}\n`);
  const cpu = cpuSeconds();
  const started = performance.now();
  const counts = await runFile(file);
  const end = { file, ...counts, ms: Math.round(performance.now() - started), cpu: Number((cpuSeconds() - cpu).toFixed(2)) };
  write(`\n${FILE_MARK} end ${JSON.stringify(end)}\n`);
  current = '';
  restore();
}
if (process.exitCode === undefined) process.exitCode = 0;
