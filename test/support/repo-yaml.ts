// The YAML files the repository ships as inputs (fixtures/ and examples/), for the property tests that hold a
// reader's decision equal to the tree path's on every real document the project has.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFilesUnder(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

/** Every .yaml/.yml file under fixtures/ and examples/, in directory order. */
export function fixtureAndExampleYaml(): string[] {
  return [...yamlFilesUnder(join(ROOT, 'fixtures')), ...yamlFilesUnder(join(ROOT, 'examples'))];
}
