// `npm run fixtures:update`: rewrites every golden expectation from the current code, then exits 1 so an
// update run is never mistaken for a passing one. Review the diff before committing.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeExampleFiles } from './argocd-diff-preview.ts';
import { clusterStampArgs, startCaseCluster } from './cluster-fixtures.ts';
import { loadCases, stampArgs, type GoldenCase } from './fixtures.ts';
import { runInProcess, type CliRun } from './run-cli.ts';

/** The case's `stamp` run; a case with a cluster.yaml reads its objects from a fake cluster. */
async function stampCase(c: GoldenCase): Promise<CliRun> {
  if (c.cluster === undefined) return runInProcess(stampArgs(c), { cwd: c.dir });
  const served = await startCaseCluster(c);
  try {
    return await runInProcess(clusterStampArgs(c, served.kubeconfig), { cwd: c.dir });
  } finally {
    await served.close();
  }
}

for (const c of [...loadCases(), ...loadCases('cluster')]) {
  const run = await stampCase(c);
  for (const f of ['expected.yaml', 'errors.txt', 'warnings.txt']) rmSync(join(c.dir, f), { force: true });
  if (run.code === 0) {
    writeFileSync(join(c.dir, 'expected.yaml'), run.stdout);
    if (run.stderr !== '') writeFileSync(join(c.dir, 'warnings.txt'), run.stderr);
  } else {
    writeFileSync(join(c.dir, 'errors.txt'), run.stderr);
  }
  console.log(`${run.code === 0 ? 'expected' : 'errors  '} ${c.name}`);
}
// argocd-diff-preview's output trees of the example (#38): what the plugin stamps, as the API masks it.
await writeExampleFiles();
console.log('expected examples/argocd-diff-preview/output');
console.error('fixtures rewritten: review `git diff fixtures/ examples/` before committing');
process.exit(1);
