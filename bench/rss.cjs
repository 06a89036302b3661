// Preloaded into each benchmarked node process: records its peak RSS (KiB) and CPU time (µs, user + system,
// all threads) as JSON when it exits.
process.on('exit', () => {
  if (!process.env.BENCH_RSS_FILE) return;
  const u = process.resourceUsage();
  require('node:fs').writeFileSync(process.env.BENCH_RSS_FILE, JSON.stringify({ maxRSS: u.maxRSS, cpu: u.userCPUTime + u.systemCPUTime }));
});
