// The example Applications in argocd/examples (#38): each names this repository by a placeholder URL that
// cannot resolve and that no one can register (an `.invalid` host, RFC 2606), never a github.com name someone
// could claim, and the one command argocd/README.md gives to set your copy's URL replaces it in all of them.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { ROOT } from '../support/run-cli.ts';

const EXAMPLES = join(ROOT, 'argocd', 'examples');
const PLACEHOLDER = 'https://git.example.invalid/OWNER/rollstamp.git';

/** Every Application's spec.source.repoURL in `dir`, by file. */
function repoUrls(dir: string): Array<[string, string]> {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) =>
      parseAllDocuments(readFileSync(join(dir, f), 'utf8'))
        .map((d) => d.toJS() as { kind?: string; spec?: { source?: { repoURL?: string } } })
        .filter((o) => o?.kind === 'Application')
        .map((o): [string, string] => [f, o.spec?.source?.repoURL ?? '']),
    );
}

test('every example Application names the repository by the .invalid placeholder', () => {
  const urls = repoUrls(EXAMPLES);
  assert.ok(urls.length >= 4, 'the four example Applications');
  for (const [file, url] of urls) assert.is(url, PLACEHOLDER, file);
  assert.not.match(readFileSync(join(ROOT, 'argocd', 'README.md'), 'utf8'), /github\.com\/example\//, 'no claimable name in the guide either');
});

test("argocd/README.md's sed sets your URL in every example Application", () => {
  const sed = /^sed -i '(s#[^']+)' argocd\/examples\/\*\.yaml$/m.exec(readFileSync(join(ROOT, 'argocd', 'README.md'), 'utf8'));
  assert.ok(sed, 'the README gives one sed for all examples');
  const copy = mkdtempSync(join(tmpdir(), 'rollstamp-apps-'));
  cpSync(EXAMPLES, copy, { recursive: true });
  const files = readdirSync(copy).filter((f) => f.endsWith('.yaml')).map((f) => join(copy, f));
  assert.is(spawnSync('sed', ['-i', sed[1]!, ...files]).status, 0);
  try {
    for (const [file, url] of repoUrls(copy)) assert.is(url, 'https://github.com/YOU/rollstamp.git', file);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});

test.run();
