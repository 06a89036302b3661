// Golden cases: fixtures/<area>/<case>/{input.yaml, config.yaml?, expected.yaml | errors.txt, warnings.txt?}. A case
// with a cluster.yaml reads the cluster (the objects of cluster.yaml, served by test/support/fake-cluster.ts): it
// runs in test/live/record-golden.test.ts, not with the others.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './run-cli.ts';

export interface GoldenCase {
  name: string;
  dir: string;
  input: string;
  config?: string;
  expected?: string;
  errors?: string;
  warnings: string;
  /** The objects the fake cluster serves (cluster cases only). */
  cluster?: string;
}

export const FIXTURES = join(ROOT, 'fixtures');

/** Every case under fixtures/, sorted by name: those without a cluster.yaml, or (`cluster`) only those with one. */
export function loadCases(which: 'plain' | 'cluster' = 'plain'): GoldenCase[] {
  const cases: GoldenCase[] = [];
  for (const area of readdirSync(FIXTURES).sort()) {
    const areaDir = join(FIXTURES, area);
    if (!statSync(areaDir).isDirectory()) continue;
    for (const name of readdirSync(areaDir).sort()) {
      const dir = join(areaDir, name);
      if (!statSync(dir).isDirectory()) continue;
      const read = (f: string): string | undefined => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : undefined);
      const c: GoldenCase = { name: `${area}/${name}`, dir, input: read('input.yaml') ?? '', warnings: read('warnings.txt') ?? '' };
      const config = read('config.yaml');
      const expected = read('expected.yaml');
      const errors = read('errors.txt');
      if (config !== undefined) c.config = config;
      if (expected !== undefined) c.expected = expected;
      if (errors !== undefined) c.errors = errors;
      const cluster = read('cluster.yaml');
      if (cluster !== undefined) c.cluster = cluster;
      if ((cluster !== undefined) === (which === 'cluster')) cases.push(c);
    }
  }
  return cases;
}

/** The argv golden cases run with (cwd = the case directory). */
export function stampArgs(c: GoldenCase, input = 'input.yaml'): string[] {
  return ['stamp', ...(c.config !== undefined ? ['--config', 'config.yaml'] : []), input];
}

/**
 * The case's documents as a ResourceList, built from their text (each indented under `- `), so quoting,
 * duplicate keys, aliases and syntax errors reach the function exactly as written.
 */
export function resourceListOf(c: GoldenCase): string {
  const asItem = (text: string): string =>
    text
      .replace(/\n$/, '')
      .split('\n')
      .map((line, i) => (i === 0 ? '- ' : '  ') + line)
      .join('\n');
  const docs = c.input
    .split(/^---[^\n]*\n/m)
    .map((d) => d.replace(/^(\.\.\.\s*|%.*)$/gm, '')) // end markers and directives belong to streams
    .filter((d) => d.split('\n').some((line) => line.trim() !== '' && !line.trim().startsWith('#')));
  const config = c.config === undefined ? '' : `functionConfig:\n${c.config.replace(/\n$/, '').split('\n').map((l) => `  ${l}`).join('\n')}\n`;
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n${config}items:\n${docs.map(asItem).join('\n')}\n`;
}
