// Preloaded into each benchmarked node process: records, as JSON when it exits, its peak RSS (KiB), CPU time (µs,
// all threads) as user and system, minor page faults, and context switches (getrusage of the whole process): a
// run's kernel time and what V8's helper threads cost show here without strace (#37).
process.on('exit', () => {
  if (!process.env.BENCH_RSS_FILE) return;
  const u = process.resourceUsage();
  require('node:fs').writeFileSync(
    process.env.BENCH_RSS_FILE,
    JSON.stringify({ maxRSS: u.maxRSS, cpu: u.userCPUTime + u.systemCPUTime, user: u.userCPUTime, system: u.systemCPUTime, minorFaults: u.minorPageFault, switches: u.voluntaryContextSwitches + u.involuntaryContextSwitches }),
  );
});
