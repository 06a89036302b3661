// `npm start`: stamps examples/basic/app.yaml, prints what changed, then rotates one password and shows
// that only the workload using it gets a new hash. `npm run start:kagent` does the same for examples/kagent
// (kagent 0.10.x), then changes examples/kagent-1x and shows what kagent 1.x will do with each agent.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const bundle = here('../dist/rollstamp.js');
const appFile = 'examples/basic/app.yaml';
const configFile = 'examples/basic/rollstamp.yaml';
const cwd = here('..');

function rollstamp(args, input, ok = [0]) {
  const r = spawnSync(process.execPath, [bundle, ...args], { cwd, input, encoding: 'utf8' });
  if (!ok.includes(r.status)) {
    process.stderr.write(r.stderr);
    process.exit(r.status ?? 1);
  }
  return r.stdout;
}

/** The workload each document of a stream is, by document index (every workload: --targets all). */
function targetNames(stream) {
  const report = JSON.parse(rollstamp(['explain', '--json', '--targets', 'all', '-'], stream));
  const id = (r) => [r.apiVersion, r.kind, r.namespace, r.name].filter((p) => p).join('/');
  return new Map(report.targets.map((t) => [t.file?.index ?? 0, id(t.resourceRef)]));
}

/**
 * A line diff (longest common subsequence) showing changed lines with one line of context, removed lines
 * before added ones, and each hunk under a line naming the object it is in (`@ apps/v1/Deployment/shop/web`).
 */
function changedLines(before, after) {
  const a = before.split('\n');
  const b = after.split('\n');
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push(['  ', a[i++], j++]);
    else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push(['- ', a[i++], j]);
    else ops.push(['+ ', b[j], j++]);
  }
  // The document a line of `after` is in: the `---` separators above it (one at the very top opens document 0).
  const docOf = (line) => b.slice(0, line).filter((l) => l === '---').length - (b[0] === '---' ? 1 : 0);
  const names = targetNames(after);
  const shown = ops.map((op, k) => op[0] !== '  ' || ops[k + 1]?.[0].trim() || ops[k - 1]?.[0].trim());
  return ops.flatMap((op, k) => {
    if (!shown[k]) return shown[k - 1] ? ['  ...'] : [];
    const head = shown[k - 1] ? [] : [`@ ${names.get(docOf(op[2])) ?? `document ${docOf(op[2]) + 1}`}`];
    return [...head, `${op[0]}${op[1]}`];
  });
}

function basicExample() {
  const input = readFileSync(here('basic/app.yaml'), 'utf8');
  console.log(`$ rollstamp stamp --config ${configFile} ${appFile}`);
  const stamped = rollstamp(['stamp', '--config', configFile, appFile]);
  console.log(changedLines(input, stamped).join('\n'));

  console.log(`\n$ rollstamp explain --config ${configFile} ${appFile}`);
  process.stdout.write(rollstamp(['explain', '--config', configFile, appFile]));

  console.log('\nRotating db-credentials.password and stamping the stamped output again:');
  const rotated = stamped.replace('example-password-1', 'example-password-2');
  const restamped = rollstamp(['stamp', '--config', configFile, '-'], rotated);
  console.log(changedLines(rotated, restamped).join('\n'));
  console.log('\nOnly web uses the password, so only web rolls; report reads the username and keeps its hash.');
}

/** Hash of every target, by `Kind namespace/name`. */
function hashes(stream) {
  const report = JSON.parse(rollstamp(['explain', '--json', '-'], stream));
  return new Map(report.targets.map((t) => [`${t.resourceRef.kind} ${t.resourceRef.namespace}/${t.resourceRef.name}`, t.hash]));
}

function kagentExample() {
  const dir = 'examples/kagent';
  const files = ['secrets.yaml', 'modelconfigs.yaml', 'agents.yaml', 'sandbox-agents.yaml'];
  const input = files.map((f) => readFileSync(here(`kagent/${f}`), 'utf8')).join('---\n');
  console.log(`$ rollstamp stamp ${files.map((f) => `${dir}/${f}`).join(' ')}`);
  const stamped = rollstamp(['stamp', ...files.map((f) => `${dir}/${f}`)]);
  console.log(changedLines(input, stamped).join('\n'));

  console.log('\nRotating the Anthropic API key (anthropic-credentials.api-key) and stamping again:');
  const rotated = stamped.replace('sk-ant-example-key-1', 'sk-ant-example-key-2');
  const before = hashes(stamped);
  const after = hashes(rotated);
  for (const [target, hash] of before) console.log(`  ${after.get(target) === hash ? 'unchanged' : 'new hash '}  ${target}`);
  console.log('\nrelease-notes, incident-summary and the SandboxAgent web-researcher use the claude ModelConfig, so');
  console.log('only they roll (and claude\'s own informational stamp changes); k8s-helper and ticket-bot keep theirs.');
}

/** kagent 1.x: nothing is written; `diff` says what kagent 1.0 will do with a pull request's change (#20, #35). */
function kagent1xExample() {
  const dir = 'examples/kagent-1x';
  const files = ['secrets.yaml', 'models.yaml', 'agents.yaml'].map((f) => `${dir}/${f}`);
  console.log('\nkagent 1.x (api.kagent.dev) compiles its agents itself; rollstamp writes nothing into them:');
  console.log(`$ rollstamp stamp --check ${files.join(' ')}`);
  rollstamp(['stamp', '--check', ...files]);
  console.log('(exit 0: nothing to stamp)');
  const input = rollstamp(['stamp', ...files]);
  console.log('\nA change that rotates openai-key.api-key, edits the lead prompt and renames the key of anthropic-key:');
  console.log('$ rollstamp diff old.yaml new.yaml');
  const changed = input
    .replace('sk-example-openai-key-1', 'sk-example-openai-key-2')
    .replace('You lead incident response.', 'You lead incident response and write the timeline.')
    .replace('  api-key: sk-ant-example-key-1', '  apiKey: sk-ant-example-key-1');
  const tmp = mkdtempSync(join(tmpdir(), 'rollstamp-kagent1x-'));
  writeFileSync(join(tmp, 'old.yaml'), input);
  writeFileSync(join(tmp, 'new.yaml'), changed);
  process.stdout.write(rollstamp(['diff', join(tmp, 'old.yaml'), join(tmp, 'new.yaml')], undefined, [4]));
  rmSync(tmp, { recursive: true, force: true });
  console.log('\n(exit 4: an agent will not compile.) The claude ModelConfig still names api-key, so lead and reviewer');
  console.log('will not compile; the new prompt recompiles lead; the rotated OpenAI key reaches lead (through its triage');
  console.log('sub-agent) and triage by the egress gateway: it applies live, with no new revision.');
}

if (process.argv[2] === 'kagent') {
  kagentExample();
  kagent1xExample();
}
else basicExample();
