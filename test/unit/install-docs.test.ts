// Until the first release, the install instructions must not present an unpublished name as published (#38):
// README's Install section and docs/install.md say that no release is published before any command or
// sentence that fetches `rollstamp` from npm or the image from ghcr.io, and send the reader to the source
// install. When the first release is out, RELEASED flips, and these sentences go with it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../support/run-cli.ts';

/** Whether a release of this package has been published (npm, ghcr.io). Not yet. */
const RELEASED = false;

const FETCHES = /npm install -g rollstamp(?:@|\b(?!-))|npx rollstamp|docker pull ghcr\.io|ghcr\.io\/OWNER\/rollstamp@/;
const NOT_YET = /No release is published yet/;

function section(file: string, heading: string): string {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `${file} has ${heading}`);
  const next = text.indexOf('\n## ', start + heading.length + 2);
  return text.slice(start, next < 0 ? undefined : next);
}

test('README Install and docs/install.md say no release is published before anything that fetches one', () => {
  if (RELEASED) return;
  for (const [file, text] of [['README.md', section('README.md', '## Install')], ['docs/install.md', readFileSync(join(ROOT, 'docs/install.md'), 'utf8')]] as const) {
    const notYet = NOT_YET.exec(text);
    assert.ok(notYet, `${file} says that no release is published yet`);
    const fetch = FETCHES.exec(text);
    if (fetch) assert.ok(fetch.index > notYet.index, `${file}: "${fetch[0]}" comes before the note that no release exists`);
    assert.match(text, /from source|From source/);
  }
});

test('the check can fail: an install line from the registry before the note is caught', () => {
  const bad = 'Install with `npm install -g rollstamp`.\n\nNo release is published yet.';
  assert.ok(FETCHES.exec(bad)!.index < NOT_YET.exec(bad)!.index);
  assert.not.ok(FETCHES.test('npm install -g ./rollstamp-0.1.0.tgz'), 'the local tarball is not the registry');
});

test.run();
