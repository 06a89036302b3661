// Preloaded into each benchmarked node process: records its peak RSS (KiB) when it exits.
process.on('exit', () => {
  if (process.env.BENCH_RSS_FILE) require('node:fs').writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS));
});
