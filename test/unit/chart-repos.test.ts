// plugin/argocd/chart-repos.ts (#21): which chart repositories pass, which helm settings of a kustomization or
// generator file are refused, and that a refusal names the place and the scheme but never the rest of the URL.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkChartRepo, checkGeneratorConfig, checkKustomizationHelm } from '../../plugin/argocd/chart-repos.ts';
import { InputError } from '../../plugin/process/errors.ts';

const STRICT = { allowHttp: false };
const HTTP = { allowHttp: true };

/** The refusal's message, or undefined when `run` passes. */
function refusal(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (err) {
    assert.instance(err, InputError);
    return (err as Error).message;
  }
}

const REPOS: { name: string; repo: string; dependency: boolean; policy: typeof STRICT; refused: RegExp | undefined }[] = [
  { name: 'a local chart (no repository) passes', repo: '', dependency: false, policy: STRICT, refused: undefined },
  { name: 'https:// passes', repo: 'https://charts.example.com', dependency: false, policy: STRICT, refused: undefined },
  { name: 'the scheme is case-insensitive, as in helm', repo: 'HTTPS://charts.example.com', dependency: false, policy: STRICT, refused: undefined },
  { name: 'oci:// passes', repo: 'oci://registry.example.com/charts', dependency: false, policy: STRICT, refused: undefined },
  { name: 'file:// passes as a dependency (its place is checked by the tree walk)', repo: 'file://../lib', dependency: true, policy: STRICT, refused: undefined },
  { name: 'file:// is no helmCharts repository', repo: 'file://../lib', dependency: false, policy: STRICT, refused: /^x: chart repository refused: scheme file:\/\/ / },
  { name: 'http:// is refused by default', repo: 'http://charts.example.com', dependency: false, policy: STRICT, refused: /^x: a plain http:\/\/ chart repository is refused .*ROLLSTAMP_HELM_ALLOW_HTTP=true\)$/ },
  { name: 'Http:// is http:// too', repo: 'Http://charts.example.com', dependency: true, policy: STRICT, refused: /plain http:\/\// },
  { name: 'http:// passes when the operator allows it', repo: 'http://charts.example.com', dependency: true, policy: HTTP, refused: undefined },
  { name: 'a plugin\'s scheme is refused, even with http allowed', repo: 'evil://h/c', dependency: false, policy: HTTP, refused: /^x: chart repository refused: scheme evil:\/\/ \(accepted: https:\/\/, oci:\/\/ and local charts\)$/ },
  { name: 'an alias is refused', repo: '@stable', dependency: true, policy: STRICT, refused: /a repository alias/ },
  { name: 'alias: is refused', repo: 'alias:stable', dependency: true, policy: STRICT, refused: /a repository alias/ },
  { name: 'leading white space is not a URL', repo: ' https://h', dependency: false, policy: STRICT, refused: /not a URL/ },
  { name: 'a bare host is not a URL', repo: 'charts.example.com', dependency: false, policy: STRICT, refused: /not a URL/ },
];

for (const c of REPOS) {
  test(`checkChartRepo: ${c.name}`, () => {
    const message = refusal(() => checkChartRepo(c.repo, 'x', c.policy, c.dependency));
    if (c.refused === undefined) assert.is(message, undefined);
    else {
      assert.ok(message !== undefined, 'refused');
      assert.match(message!, c.refused);
    }
  });
}

test('a refusal shows the scheme, never the rest of the URL (credentials, paths)', () => {
  const message = refusal(() => checkChartRepo('evil://user:hunter2@h/secret-path', 'x', STRICT, false))!;
  assert.not.ok(message.includes('hunter2') || message.includes('secret-path'), message);
});

test('checkKustomizationHelm: configHome, helmHome and each chart repository (#21)', () => {
  const at = 'k.yaml';
  assert.match(refusal(() => checkKustomizationHelm({ helmGlobals: { configHome: 'home' } }, at, STRICT))!, /^k\.yaml: helmGlobals\.configHome is refused: helm would run plugins/);
  assert.match(refusal(() => checkKustomizationHelm({ helmGlobals: { configHome: '' } }, at, STRICT))!, /configHome is refused/, 'even empty: kustomize would still set it');
  assert.match(refusal(() => checkKustomizationHelm({ helmChartInflationGenerator: [{ helmHome: 'h' }] }, at, STRICT))!, /helmChartInflationGenerator\[0\]\.helmHome is refused/);
  assert.match(refusal(() => checkKustomizationHelm({ helmCharts: [{ name: 'a' }, { name: 'b', repo: 'evil://h' }] }, at, STRICT))!, /^k\.yaml: helmCharts\[1\]\.repo: chart repository refused/);
  assert.match(refusal(() => checkKustomizationHelm({ helmChartInflationGenerator: [{ chartRepoUrl: 'http://h' }] }, at, STRICT))!, /chartRepoUrl: a plain http/);
  assert.match(refusal(() => checkKustomizationHelm({ helmCharts: [{ name: 'a', repo: 7 }] }, at, STRICT))!, /not a URL/, 'a repo that is not a string is refused, not skipped');
  assert.is(refusal(() => checkKustomizationHelm({ helmGlobals: { chartHome: 'charts' }, helmCharts: [{ name: 'a' }, { name: 'b', repo: 'oci://r/c' }] }, at, STRICT)), undefined);
});

test('checkGeneratorConfig: a HelmChartInflationGenerator is held to the same rules; other kinds pass (#21)', () => {
  assert.match(refusal(() => checkGeneratorConfig({ kind: 'HelmChartInflationGenerator', configHome: 'h' }, 'g.yaml', STRICT))!, /^g\.yaml: HelmChartInflationGenerator configHome is refused/);
  assert.match(refusal(() => checkGeneratorConfig({ kind: 'HelmChartInflationGenerator', repo: 'evil://h' }, 'g.yaml', STRICT))!, /HelmChartInflationGenerator repo: chart repository refused/);
  assert.is(refusal(() => checkGeneratorConfig({ kind: 'ConfigMapGenerator', configHome: 'h' }, 'g.yaml', STRICT)), undefined);
  assert.is(refusal(() => checkGeneratorConfig(undefined, 'g.yaml', STRICT)), undefined);
});

test.run();
