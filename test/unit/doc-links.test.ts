// The documentation holds together (#25): every relative link and anchor in README.md and docs/ resolves,
// every docs/ page is reachable from the README, and the README stays short enough to read in one sitting.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { anchors, docPages, fences, links, slug } from '../support/markdown.ts';
import { ROOT } from '../support/run-cli.ts';

const read = (page: string): string => readFileSync(join(ROOT, page), 'utf8');
/** Pages whose links are checked: the README, docs/, and the guides they link to. */
const PAGES = [...docPages(), 'SECURITY.md', 'argocd/README.md', 'examples/kpt/README.md', 'examples/kustomize/README.md', 'examples/helm/README.md', 'examples/producers/README.md'];

/** Where a relative link of `page` leads: a repository path and an anchor. */
function resolveLink(page: string, target: string): { path: string; anchor: string } {
  const [file = '', anchor = ''] = target.split('#');
  return { path: file === '' ? page : normalize(join(dirname(page), decodeURIComponent(file))), anchor };
}

test('headings become the anchors GitHub makes of them', () => {
  assert.is(slug('See what a change rolls: `rollstamp diff`'), 'see-what-a-change-rolls-rollstamp-diff');
  assert.is(slug('What counts as "used"'), 'what-counts-as-used');
  assert.is(slug('Results, errors and exit codes'), 'results-errors-and-exit-codes');
  assert.equal([...anchors('# A\n```sh\n# not a heading\n```\n## A\n### B c\n')], ['a', 'a-1', 'b-c']);
});

test('fenced blocks are read with their info string, and links inside code are not links', () => {
  const text = 'see [x](a.md)\n\n```sh norun\necho [y](b.md)\n```\n\n`[z](c.md)` and [w](d.md#e)\n';
  assert.equal(fences(text).map((f) => [f.lang, f.flags, f.body]), [['sh', ['norun'], 'echo [y](b.md)\n']]);
  assert.equal(links(text).map((l) => l.target), ['a.md', 'd.md#e']);
});

for (const page of PAGES) {
  test(`${page}: every relative link and anchor resolves`, () => {
    const found = links(read(page)).filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target));
    for (const { target, line } of found) {
      const { path, anchor } = resolveLink(page, target);
      const at = `${page}:${line} → ${target}`;
      assert.ok(!relative(ROOT, join(ROOT, path)).startsWith('..'), `${at}: leaves the repository`);
      assert.ok(existsSync(join(ROOT, path)), `${at}: ${path} does not exist`);
      if (anchor === '') continue;
      assert.ok(path.endsWith('.md') && statSync(join(ROOT, path)).isFile(), `${at}: an anchor into something that is not a Markdown file`);
      assert.ok(anchors(read(path)).has(anchor), `${at}: ${path} has no heading #${anchor}`);
    }
  });
}

test('every page under docs/ is linked from README.md or from a page the README links to', () => {
  const reached = new Set<string>(['README.md']);
  const queue = ['README.md'];
  for (let page = queue.shift(); page !== undefined; page = queue.shift()) {
    for (const { target } of links(read(page))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const { path } = resolveLink(page, target);
      if (path.endsWith('.md') && !reached.has(path) && existsSync(join(ROOT, path))) {
        reached.add(path);
        queue.push(path);
      }
    }
  }
  for (const page of docPages()) assert.ok(reached.has(page), `${page} is linked from nowhere the README leads`);
});

test('README.md stays at most 250 lines', () => {
  const lines = read('README.md').split('\n').length - 1;
  assert.ok(lines <= 250, `README.md has ${lines} lines: move a topic to docs/`);
});

test.run();
