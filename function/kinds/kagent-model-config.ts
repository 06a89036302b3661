// Target kind for kagent ModelConfigs (kagent.dev, when kagent support is on): targets unless opted out, with
// an informational stamp on their own metadata. A ModelConfig is hashed as a unit, once, over its own
// Secrets and ConfigMap (discover/kagent.ts modelConfigRefs); an Agent that names it takes that hash.
import { modelConfigRefs } from '../discover/kagent.ts';
import { isSafeToRead } from '../model/safety.ts';
import { KAGENT_GROUP } from './kagent-versions.ts';
import type { TargetKind } from './kind.ts';
import { newTarget } from '../model/target.ts';

export const kagentModelConfigs: TargetKind = {
  mode: 'model-config',
  hash: 'unit',
  local: false,
  select: {
    matches: (obj, config) => config.kagent === 'enabled' && obj.group === KAGENT_GROUP && obj.kind === 'ModelConfig',
    byDefault: () => true,
    read: (obj, results) => (isSafeToRead(obj, results) ? newTarget(obj, 'model-config', { kind: 'annotation', path: ['metadata', 'annotations'] }) : undefined),
  },
  unitKind: 'ModelConfig',
  unitRefs: modelConfigRefs,
};
