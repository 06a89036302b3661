// `rollstamp diff -o markdown` rendered by real GitHub-flavoured Markdown renderers (#21): no name or key
// rollstamp accepts gives a link, a mention, an issue reference, strikethrough, an emoji or any other markup,
// and each shows exactly as `printable` writes it. Two renderers: micromark with its GFM extension (the GFM
// spec: tables, autolink literals, strikethrough) and markdown-it with fuzzy linkify (links bare domains,
// which GitHub does not: stricter) and its emoji plugin. Mentions and issue references are GitHub's own
// filters, which skip code (html-pipeline's MentionFilter and IssueReferenceFilter ignore `code` and `pre`):
// so the text outside code must hold no `@name`, `#1`, `GH-1` or `:name:`.
import MarkdownIt from 'markdown-it';
import { full as emoji } from 'markdown-it-emoji';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { printable, shownName, type StampDiff } from '../../function/index.ts';
import { mdCode, renderMarkdown } from '../../plugin/output/diff-format.ts';
import { renderAgentsMarkdown } from '../../plugin/output/kagent1x-format.ts';
import { Rng } from '../support/property-generate.ts';
import { runInProcess } from '../support/run-cli.ts';

const markdownIt = new MarkdownIt({ linkify: true }).use(emoji);
markdownIt.linkify.set({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: true });

const RENDERERS: Array<[string, (md: string) => string]> = [
  ['micromark + GFM', (md) => micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()] })],
  ['markdown-it + linkify + emoji', (md) => markdownIt.render(md)],
];

/** Pieces of hostile names: autolinks, mentions, references, emphasis, emoji, HTML, code fences, table syntax. */
const PIECES = [
  'www.evil-example.com', 'evil-example.com', 'http://e.example', 'https://e.example/x?y=1', 'ftp://e.example', 'a@b.example', 'mailto:a@b.example',
  '@octocat', '@org/team', '#1', 'GH-1', 'owner/repo#1', 'sha1234567', '~~db~~', '~db~', ':smile:', ':+1:', '*em*', '_em_', '**b**', '__b__',
  '<img src=x>', '<script>', '</code>', '<br>', '&amp;', '&#64;', '&lt;', '[x](http://e.example)', '![i](http://e.example/i.png)', '[x]', '`', '``',
  '|', '\\|', '\\', '\\`', '$x$', '^1', '[^1]', '\u202e', '\u200b', '\u2066', '\ufeff', '\u00ad', '\u{e0041}', '\n', '\u2028', ' ', '-', '.', 'db',
];

function hostileName(rng: Rng): string {
  return Array.from({ length: rng.range(1, 4) }, () => rng.pick(PIECES)).join(rng.pick(['', '', '-', '.', '/', ' ']));
}

/** A diff with one rolling target whose names and keys are the given ones. */
function diffOf(target: string, source: string, producer: string, keys: string[]): StampDiff {
  return {
    summary: { rolls: 1, appears: 0, disappears: 0, 'may-roll': 0 },
    targets: [
      {
        resourceRef: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: target },
        change: 'rolls',
        field: 'spec.template.metadata.annotations',
        hash: { old: 'sha256:0', new: 'sha256:1' },
        sources: [
          {
            kind: 'Secret', namespace: 'shop', name: source, change: 'changed', from: { old: 'producer', new: 'producer' }, producedBy: `ExternalSecret shop/${producer}`,
            digest: {}, keys: keys.map((key) => ({ key, change: 'changed' as const })),
          },
        ],
      },
    ],
  };
}

/** The HTML with every `<code>…</code>` taken out, and the code texts (entities decoded) in order. */
function splitCode(html: string): { outside: string; codes: string[] } {
  const codes: string[] = [];
  const outside = html.replace(/<code>([\s\S]*?)<\/code>/g, (_, inner: string) => {
    codes.push(inner.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
    return '<code></code>';
  });
  return { outside, codes };
}

function assertNoMarkup(html: string, what: string): string[] {
  const { outside, codes } = splitCode(html);
  const tags = [...outside.matchAll(/<\/?([a-z]+)/g)].map((m) => m[1]!);
  for (const tag of tags) assert.ok(['table', 'thead', 'tbody', 'tr', 'th', 'td', 'code', 'br', 'strong', 'em', 'p'].includes(tag), `${what}: <${tag}> outside code: ${outside}`);
  const text = outside.replace(/<[^>]*>/g, ' ');
  assert.not.match(text, /@\w|#\d|GH-\d|:[\w+-]+:|~|https?:|www\.|\.example/, `${what}: text outside code a GitHub filter could read: ${text}`);
  assert.not.match(html, /[\p{Cf}\p{Zl}\p{Zp}\u0000-\u0009\u000b-\u001f\u007f-\u009f]/u, `${what}: a raw control or format character`);
  assert.not.ok(/\p{Extended_Pictographic}/u.test(outside), `${what}: an emoji outside code: ${outside}`);
  return codes;
}

test('mdCode: a code span that holds any text exactly and cannot end early (#21)', () => {
  assert.is(mdCode('db'), '`db`');
  assert.is(mdCode('a`b'), '``a`b``');
  assert.is(mdCode('`'), '`` ` ``');
  assert.is(mdCode('a|b'), '`a\\|b`');
  assert.is(mdCode('a\\|b'), '`a\\u005c\\|b`');
  assert.is(mdCode('x\u202ey'), '`x\\u202ey`');
  assert.is(mdCode(''), '` `'); // never a bare `` fence
  assert.is(mdCode('  '), '`  `');
});

test('no hostile name renders as markup in either GFM renderer, and each shows exactly as shownName writes it (#21, #33)', () => {
  const rng = new Rng(0x21d1ff);
  for (let i = 0; i < 300; i++) {
    const target = hostileName(rng);
    const source = hostileName(rng);
    const producer = hostileName(rng);
    const keys = Array.from({ length: rng.range(1, 3) }, () => hostileName(rng));
    const md = renderMarkdown(diffOf(target, source, producer, keys));
    const body = md.split('\n').filter((l) => l.startsWith('| `') || l.startsWith('| ``'));
    assert.is(body.length, 1, `case ${i}: one table row: ${JSON.stringify(md)}`);
    for (const [name, render] of RENDERERS) {
      const html = render(md);
      const what = `case ${i} (${name}) ${JSON.stringify([target, source, producer, keys])}`;
      const codes = assertNoMarkup(html, what);
      assert.is((html.match(/<td>/g) ?? []).length, 3, `${what}: three cells: ${html}`);
      // CommonMark turns line endings inside code into spaces; printable leaves none, so each is exact.
      const shown = (name: string): string => printable(name).replace(/\\(?=\|)/g, '\\u005c'); // see mdCode
      // Each name and key by itself: Kubernetes' alphabet, anything else as \uXXXX (#33).
      const want = [`apps/v1/Deployment/shop/${shownName(target)}`, `shop/${shownName(source)}`, `ExternalSecret shop/${shownName(producer)}`, ...keys.map(shownName).sort()].map(shown);
      const sortedCodes = [codes[0], codes[1], codes[2], ...codes.slice(3).sort()];
      assert.equal(sortedCodes, [want[0], want[1], want[2], ...want.slice(3).sort()], what);
    }
  }
});

test('the kagent 1.x table of diff -o markdown: no hostile name renders as markup either (#21)', () => {
  const rng = new Rng(0x21d200);
  for (let i = 0; i < 150; i++) {
    const [agent, model, secret, key] = [hostileName(rng), hostileName(rng), hostileName(rng), hostileName(rng)];
    const md = renderAgentsMarkdown({
      summary: { 'will-not-compile': 0, recompiles: 1, 'applies-live': 0, appears: 0, disappears: 0 },
      agents: [{
        resourceRef: { apiVersion: 'api.kagent.dev/v1alpha3', kind: 'Agent', namespace: 'agents', name: agent },
        change: 'recompiles',
        inputs: [{ chain: [`ModelConfig agents/${model}`, `Secret agents/${secret}`], kind: 'Secret', namespace: 'agents', name: secret, effect: 'recompiles', change: 'changed', from: { old: 'bundle', new: 'bundle' }, keys: [{ key, change: 'changed' }] }],
        failures: [],
      }],
    } as Parameters<typeof renderAgentsMarkdown>[0]);
    for (const [name, render] of RENDERERS) {
      const html = render(md);
      const what = `case ${i} (${name}) ${JSON.stringify([agent, model, secret, key])}`;
      assertNoMarkup(html, what);
      assert.is((html.match(/<td>/g) ?? []).length, 4, `${what}: four cells: ${html}`);
    }
  }
});

test('the issue\'s names through rollstamp diff -o markdown: no link, mention, reference, strikethrough or emoji (#21)', async () => {
  const secret = (pw: string): string => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: www.evil-example.com\n  namespace: shop\ndata:\n  "~~db~~": ${pw}\n  ":smile:": ${pw}\n  "#1": ${pw}\n`;
  const workload = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: "@octocat\\u202e1"\n  namespace: shop\n  annotations:\n    rollstamp.dev/enabled: "true"\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: x\n        envFrom:\n        - secretRef: {name: www.evil-example.com}\n';
  const dir = (await import('node:fs')).mkdtempSync((await import('node:path')).join((await import('node:os')).tmpdir(), 'rollstamp-md-'));
  const fs = await import('node:fs');
  fs.writeFileSync(`${dir}/old.yaml`, `${secret('YQ==')}---\n${workload}`);
  fs.writeFileSync(`${dir}/new.yaml`, `${secret('Yg==')}---\n${workload}`);
  const r = await runInProcess(['diff', '-o', 'markdown', 'old.yaml', 'new.yaml'], { cwd: dir });
  fs.rmSync(dir, { recursive: true, force: true });
  assert.is(r.code, 3, r.stderr);
  assert.ok(r.stdout.includes('\\u0040octocat\\u202e1'), r.stdout);
  for (const [name, render] of RENDERERS) assertNoMarkup(render(r.stdout), name);
});

test('format characters are written as \\uXXXX in diff text and JSON, explain text, JSON and YAML, and results (#21)', async () => {
  const doc = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: "a\\u202eb\\u200bc"\n  annotations:\n    rollstamp.dev/enabled: "true"\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: x\n        envFrom:\n        - secretRef: {name: "s\\u2066x"}\n';
  for (const argv of [['explain', '-'], ['explain', '-o', 'json', '-'], ['explain', '-o', 'yaml', '-'], ['stamp', '-'], ['diff', '-o', 'json', '-', '/dev/null'], ['diff', '-', '/dev/null']]) {
    const r = await runInProcess(argv, { stdin: doc, env: {} });
    const printed = `${argv[0] === 'stamp' ? '' : r.stdout}${r.stderr}`;
    assert.ok(printed.length > 0, argv.join(' '));
    assert.not.match(printed, /[\u202e\u200b\u2066]/, `${argv.join(' ')}: ${printed}`);
  }
  const fn = await runInProcess(['fn'], { stdin: `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- ${doc.trimEnd().split('\n').join('\n  ')}\n` });
  assert.is(fn.code, 0, fn.stderr);
  const results = fn.stdout.slice(fn.stdout.indexOf('\nresults:'));
  assert.ok(results.length > 10 && results.includes('a\\u202eb\\u200bc'), results);
  assert.not.match(results, /[\u202e\u200b\u2066]/, results);
});

test.run();
