// What the Dockerfile promises, read from it (image.test.ts builds and runs it with buildah): every base image
// pinned by digest on a supported Node LTS, helm and kubectl from official release URLs by default with one
// sha256 per architecture (amd64 and arm64, chosen by TARGETARCH), each a build argument, git and ssh in a
// final stage without npm, OCI labels that match package.json, uid 999 and the launcher (the startup snapshot, else the
// bundle) as entrypoint.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { obtainHelm } from '../support/helm.ts';
import { ROOT } from '../support/run-cli.ts';

const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; license: string };

/** Instruction lines with continuations joined and comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
const comments = dockerfile
  .split('\n')
  .filter((l) => l.trimStart().startsWith('#'))
  .join('\n');

/** `ARG NAME=value` lines (global and per stage). */
const args = new Map<string, string>();
for (const line of instructions) {
  const m = /^ARG (\w+)=(\S+)$/.exec(line);
  if (m) args.set(m[1]!, m[2]!);
}

interface Stage {
  from: string;
  name: string | undefined;
  lines: string[];
}
const stages: Stage[] = [];
for (const line of instructions) {
  const m = /^FROM (?:--platform=\S+ )?(\S+)(?: AS (\S+))?$/i.exec(line);
  if (m) stages.push({ from: m[1]!, name: m[2], lines: [] });
  else stages.at(-1)?.lines.push(line);
}
const final = stages.at(-1)!;

function resolveImage(ref: string): string {
  const arg = /^\$\{(\w+)\}$/.exec(ref)?.[1];
  return arg ? (args.get(arg) ?? `(ARG ${arg} has no default)`) : ref;
}

test('every stage starts from an image pinned by its sha256 digest', () => {
  assert.ok(stages.length >= 3, 'build, tools and final stages');
  for (const s of stages) {
    if (stages.some((o) => o.name === s.from)) continue; // a stage built from an earlier stage
    assert.match(resolveImage(s.from), /^[\w./-]+:[\w.-]+@sha256:[0-9a-f]{64}$/, `FROM ${s.from} is not pinned by digest`);
  }
});

test('node comes from a supported LTS line (22 or 24), and the final image carries no npm, npx, corepack or yarn', () => {
  assert.match(args.get('NODE_IMAGE') ?? '', /^node:(22|24)[.-]/);
  assert.not.match(resolveImage(final.from), /^node:/, 'the final stage is not the node image (it ships npm)');
  const copies = final.lines.filter((l) => l.startsWith('COPY --from=node'));
  assert.equal(copies, ['COPY --from=node /usr/local/bin/node /usr/local/bin/node']);
  for (const l of final.lines) assert.not.match(l, /\b(npm|npx|corepack|yarn)\b/, `final stage: ${l}`);
});

test('helm and kubectl come from get.helm.sh and dl.k8s.io by default, with a distinct sha256 per architecture, each a build argument (#22)', () => {
  const run = instructions.find((l) => l.includes('case "${TARGETARCH}"'));
  assert.ok(run, 'a RUN chooses by TARGETARCH');
  for (const tool of ['HELM', 'KUBECTL']) {
    for (const arch of ['AMD64', 'ARM64']) assert.match(args.get(`${tool}_SHA256_${arch}`) ?? '', /^[0-9a-f]{64}$/, `ARG ${tool}_SHA256_${arch}`);
    assert.is.not(args.get(`${tool}_SHA256_AMD64`), args.get(`${tool}_SHA256_ARM64`));
    const lower = tool.toLowerCase();
    for (const arch of ['amd64', 'arm64']) assert.ok(run!.includes(`${lower}_sha256="\${${tool}_SHA256_${arch.toUpperCase()}}"`), `${arch} picks ${tool}_SHA256_${arch.toUpperCase()}`);
  }
  assert.is(args.get('HELM_BASE_URL'), 'https://get.helm.sh');
  assert.is(args.get('KUBECTL_BASE_URL'), 'https://dl.k8s.io/release');
  assert.match(run!, /\*\) echo "unsupported TARGETARCH[^;]*; exit 1/, 'any other architecture fails the build');
  assert.ok(run!.includes('"${HELM_BASE_URL}/helm-${HELM_VERSION}-linux-${TARGETARCH}.tar.gz"'));
  assert.ok(run!.includes('"${KUBECTL_BASE_URL}/${KUBECTL_VERSION}/bin/linux/${TARGETARCH}/kubectl"'));
  assert.match(run!, /echo "\$\{helm_sha256\}  helm\.tar\.gz" \| sha256sum -c -/);
  assert.match(run!, /echo "\$\{kubectl_sha256\}  kubectl" \| sha256sum -c -/);
  assert.match(args.get('HELM_VERSION') ?? '', /^v4\.\d+\.\d+$/);
  assert.match(args.get('KUBECTL_VERSION') ?? '', /^v1\.\d+\.\d+$/);
});

test('the final image carries git, an ssh client and a passwd entry for uid 999 (#22)', () => {
  const apt = final.lines.find((l) => l.startsWith('RUN apt-get update'));
  assert.ok(apt, 'the final stage installs packages');
  assert.match(apt!, /apt-get install -y --no-install-recommends ca-certificates git openssh-client /);
  assert.match(apt!, /useradd --uid 999 --gid 999 /, 'ssh refuses a uid without a passwd entry');
  assert.ok(final.lines.includes('RUN ["git", "--version"]'));
});

test('no Dockerfile frontend is pulled by a tag, and what is left unpinned is said (#38)', () => {
  // A `# syntax=` parser directive makes BuildKit pull that frontend image; by tag, it is an unpinned input.
  const directive = /^#\s*syntax\s*=\s*(\S+)/im.exec(dockerfile.split(/\n(?!#)/)[0] ?? '');
  if (directive) assert.match(directive[1]!, /@sha256:[0-9a-f]{64}$/, `# syntax=${directive[1]} is not pinned by digest`);
  assert.ok(comments.includes('Not pinned, on purpose:'), 'the header says what is not pinned');
  for (const pkg of ['ca-certificates', 'curl', 'git', 'openssh-client']) assert.ok(comments.includes(pkg), `the unpinned apt package ${pkg} is named`);
  const installed = instructions.filter((l) => /apt-get install/.test(l)).flatMap((l) => /--no-install-recommends ([\w .-]+?)(?: &&|$)/.exec(l)?.[1]!.split(' ').filter((p) => p !== '') ?? []);
  assert.equal([...new Set(installed)].sort(), ['ca-certificates', 'curl', 'git', 'openssh-client']);
});

test('the source of every pin is written next to it', () => {
  for (const source of ['docker-library/repo-info', 'repos/node/remote/', 'repos/debian/remote/', 'github.com/helm/helm/releases/tag/', 'dl.k8s.io/release/']) {
    assert.ok(comments.includes(source), `no comment names ${source}`);
  }
  assert.ok(comments.includes(`helm ${args.get('HELM_VERSION')}`) && comments.includes(`kubectl ${args.get('KUBECTL_VERSION')}`));
});

test('the image pins the helm version the end-to-end tests run', () => {
  const helm = obtainHelm();
  if (!helm.ok) {
    if (process.env.CI) throw new Error(`helm for the tests is unavailable: ${helm.reason}`);
    return;
  }
  assert.is(helm.version.replace(/\+.*$/, ''), args.get('HELM_VERSION'));
});

test('OCI labels name the source, the package version and its license; the source defaults to no real address (#22)', () => {
  const labels = final.lines.filter((l) => l.startsWith('LABEL')).join(' ');
  assert.match(labels, /org\.opencontainers\.image\.source="\$\{SOURCE_URL\}"/);
  assert.match(args.get('SOURCE_URL') ?? '', /^https:\/\/[\w.-]+\.invalid\//, 'the default cannot name a repository someone could claim');
  assert.match(labels, /org\.opencontainers\.image\.version="\$\{VERSION\}"/);
  assert.is(args.get('VERSION'), pkg.version);
  assert.ok(labels.includes(`org.opencontainers.image.licenses="${pkg.license}"`));
});

test('the build installs what package-lock.json and .npmrc say, and the image runs the bundle as uid 999', () => {
  const build = stages.find((s) => s.name === 'build')!;
  assert.ok(build.lines.includes('COPY package.json package-lock.json .npmrc ./'));
  assert.ok(build.lines.some((l) => l.startsWith('RUN npm ci ')));
  // All of dist/ (the entry /app/rollstamp.js, its chunks, the package.json that makes them ES modules), read-only,
  // with /app traversable.
  assert.ok(final.lines.includes('COPY --from=build --chmod=0555 /src/dist/ /app/'));
  assert.ok(final.lines.includes('USER 999:999'));
  assert.ok(final.lines.includes('ENV HOME=/tmp'));
  assert.is(final.lines.at(-1), 'ENTRYPOINT ["/usr/local/bin/rollstamp"]');
});

test('the final stage makes the startup snapshot with its own node, in /app, root-owned and read-only, and the entrypoint is the launcher that picks it (#37)', () => {
  const make = final.lines.findIndex((l) => l.includes('node /tmp/snapshot/build-snapshot.mjs /app '));
  assert.ok(make > 0, 'the blob is made in the final stage, by the node it runs on');
  assert.match(final.lines[make]!, /chown root:root \/app\/rollstamp\.blob && chmod 0444 \/app\/rollstamp\.blob;/);
  assert.match(final.lines[make]!, /else \[ "\$status" -eq 4 \]; fi$/, 'only a node that refuses other flags (exit 4) builds an image without the blob');
  assert.ok(final.lines.includes('COPY --chmod=0555 image/rollstamp.sh /usr/local/bin/rollstamp'));
  const launcher = readFileSync(join(ROOT, 'image', 'rollstamp.sh'), 'utf8');
  assert.ok(launcher.includes('exec node --snapshot-blob /app/rollstamp.blob /app/rollstamp.js "$@"'));
  assert.ok(launcher.trimEnd().endsWith('exec node /app/rollstamp.js "$@"'), 'without the blob, the bundle');
});

test.run();
