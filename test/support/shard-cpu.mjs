// Preloaded into each shard by test/run.mjs: at exit, writes the shard's CPU seconds (its own user + system, and
// that of every child it waited for) to $ROLLSTAMP_TEST_CPU_FILE, because wall time lies on a shared machine.
import { readFileSync, writeFileSync } from 'node:fs';

const target = process.env.ROLLSTAMP_TEST_CPU_FILE;
// Linux's USER_HZ, the unit of /proc/<pid>/stat's times; it is 100 on every architecture Node runs on.
const TICKS = 100;

/** CPU seconds of the children this process has reaped (fields cutime and cstime of /proc/self/stat), or 0. */
export function childrenSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / TICKS; // fields 16 and 17; this list starts at field 3
  } catch {
    return 0; // no /proc: the shard's own time only
  }
}

if (target) {
  process.on('exit', () => {
    const own = process.resourceUsage();
    const seconds = (own.userCPUTime + own.systemCPUTime) / 1e6 + childrenSeconds();
    try {
      writeFileSync(target, `${seconds.toFixed(2)}\n`);
    } catch {
      // the runner then shows no CPU for this shard
    }
  });
}
