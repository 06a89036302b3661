// Test support: renders shaped like argocd-diff-preview's `--output-app-manifests` files (#38). The layout and
// the shape follow dag-andersen/argocd-diff-preview cmd/main.go writeManifests (`<output>/<base|target>/<app
// id>.yaml`, one file per application, written even when empty) and pkg/extract/extracted_app.go
// FlattenToString (objects sorted by apiVersion, kind, namespace and name, CustomResourceDefinitions last, each
// marshalled by sigs.k8s.io/yaml, joined by `---`). The manifests come from Argo CD's API, which masks every
// Secret value (argoproj/argo-cd server/application/application.go GetManifests → gitops-engine
// pkg/diff/diff.go HideSecretData: stringData folded into data, each value `++++++++`).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { ROOT, runInProcess } from './run-cli.ts';

type Obj = Record<string, unknown>;

/** A Secret as Argo CD's API shows it: `stringData` folded into `data`, every value masked. */
export function maskSecret(obj: Obj): Obj {
  if (obj.apiVersion !== 'v1' || obj.kind !== 'Secret') return obj;
  const data = { ...((obj.data as Obj | undefined) ?? {}), ...((obj.stringData as Obj | undefined) ?? {}) };
  const { stringData: _folded, ...rest } = obj;
  return Object.keys(data).length === 0 ? rest : { ...rest, data: Object.fromEntries(Object.keys(data).map((k) => [k, '++++++++'])) };
}

const meta = (o: Obj, key: 'namespace' | 'name'): string => String(((o.metadata as Obj | undefined) ?? {})[key] ?? '');

/** One application's file: the objects masked, sorted and marshalled as argocd-diff-preview writes them. */
export function appManifest(objects: readonly Obj[]): string {
  const sorted = objects.map(maskSecret).sort((a, b) => {
    const crd = Number(a.kind === 'CustomResourceDefinition') - Number(b.kind === 'CustomResourceDefinition');
    if (crd !== 0) return crd;
    for (const k of [(o: Obj) => String(o.apiVersion), (o: Obj) => String(o.kind), (o: Obj) => meta(o, 'namespace'), (o: Obj) => meta(o, 'name')]) {
      const x = k(a);
      const y = k(b);
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  });
  // sigs.k8s.io/yaml goes through JSON: map keys sorted, lists not indented under their key.
  return sorted.map((o) => stringify(o, { sortMapEntries: true, indentSeq: false, lineWidth: 0 })).join('---\n');
}

/** The objects of a YAML stream (comments and order as written there do not survive Argo CD either). */
export const objectsOf = (text: string): Obj[] => parseAllDocuments(text).map((d) => d.toJS() as Obj).filter((o) => o !== null);

/** Writes `<dir>/output/base/<app>.yaml` and `<dir>/output/target/<app>.yaml` for each app (empty text: no objects). */
export function writeOutputTree(dir: string, apps: Record<string, { base?: readonly Obj[]; target?: readonly Obj[] }>): void {
  for (const branch of ['base', 'target'] as const) {
    mkdirSync(join(dir, 'output', branch), { recursive: true });
    for (const [app, renders] of Object.entries(apps)) {
      const objects = renders[branch];
      if (objects) writeFileSync(join(dir, 'output', branch, `${app}.yaml`), appManifest(objects));
    }
  }
}

/** Where examples/argocd-diff-preview's trees come from: the basic example before and after a password rotation. */
export const EXAMPLE = { app: 'examples/basic/app.yaml', config: 'examples/basic/rollstamp.yaml', dir: 'examples/argocd-diff-preview', file: 'shop.yaml' } as const;

/**
 * The example's two files as argocd-diff-preview writes them with the rollstamp plugin rendering the app: each
 * stamped (with the real values, as the plugin stamps in the repo-server), then masked by the API.
 */
export async function exampleFiles(): Promise<{ base: string; target: string }> {
  const app = readFileSync(join(ROOT, EXAMPLE.app), 'utf8');
  const render = async (text: string): Promise<string> => {
    const r = await runInProcess(['stamp', '-c', join(ROOT, EXAMPLE.config), '-'], { stdin: text });
    if (r.code !== 0) throw new Error(r.stderr);
    return appManifest(objectsOf(r.stdout));
  };
  return { base: await render(app), target: await render(app.replace('example-password-1', 'example-password-2')) };
}

/** Rewrites examples/argocd-diff-preview/output/{base,target}/shop.yaml (npm run fixtures:update). */
export async function writeExampleFiles(): Promise<void> {
  const files = await exampleFiles();
  for (const branch of ['base', 'target'] as const) {
    mkdirSync(join(ROOT, EXAMPLE.dir, 'output', branch), { recursive: true });
    writeFileSync(join(ROOT, EXAMPLE.dir, 'output', branch, EXAMPLE.file), files[branch]);
  }
}
