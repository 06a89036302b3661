// Config stage: config text → the plain object the config reader reads. One function for every way settings
// arrive as YAML or JSON — a `--config` file, `.rollstamp.yaml`, a `kinds` list in an Argo CD parameter, and the
// functionConfig of a ResourceList (already read with the list) — so each is refused the same way (#36).
import { findUnsafeNode, toPlain } from '../model/nodes.ts';
import { fromYaml } from '../read/from-yaml.ts';
import { parseYamlDocument } from '../read/parse-yaml.ts';

/** Where settings come from: text (a file, a parameter's value) or a node already read (a functionConfig). */
export type ConfigSource = { text: string } | { node: unknown };

/** How deep a config may nest: far deeper than any setting goes, far shallower than a bomb. */
const MAX_CONFIG_DEPTH = 64;

/**
 * Config text (or an already-read node) as plain JSON data, or one line saying why not.
 * - `origin` names the source in the line: a file name, `parameter kinds`, `functionConfig`.
 * - Text that is not one valid YAML (or JSON) document: `<origin>: invalid YAML in config file`.
 * - Aliases, merge keys and nesting deeper than 64 are refused before anything is expanded:
 *   `<origin>: aliases, merge keys and deep nesting are not allowed in the config`.
 * - Empty text, or no functionConfig: `object` is undefined (the defaults apply).
 */
export function readConfigObject(source: ConfigSource, origin: string): { object: unknown } | { error: string } {
  let node: unknown;
  if ('text' in source) {
    const doc = parseYamlDocument(source.text);
    if (doc.errors.length > 0) return { error: `${origin}: invalid YAML in config file` };
    node = fromYaml(doc.contents);
  } else {
    node = source.node;
  }
  if (node === null || node === undefined) return { object: undefined };
  if (findUnsafeNode(node, MAX_CONFIG_DEPTH)) return { error: `${origin}: aliases, merge keys and deep nesting are not allowed in the config` };
  return { object: toPlain(node) };
}
