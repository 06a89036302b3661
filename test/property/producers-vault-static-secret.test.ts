// Property 8, VaultStaticSecret (secrets.hashicorp.com/v1beta1): a change of what determines the value changes the stamped
// hash of the Deployment that uses what it makes; refresh settings, labels, key order, formatting and comments
// do not. The model and the properties every producer shares: test/support/producer-model.ts, producer-properties.ts.
import { test } from 'uvu';
import { COMMON_NEUTRAL, KEYS, LABEL_KEYS, metadata, type Obj, other, prod, renameSecretRefs, sample, type Scenario, secretRefs, spec, type State, word } from '../support/producer-model.ts';
import { producerProperties } from '../support/producer-properties.ts';

// ---------------------------------------------------------------------------------------------------------
// VaultStaticSecret

const vssName = (s: State): string => spec(s).destination.name;

const VAULT_STATIC_SECRET: Scenario = {
  index: 2,
  producer: 'VaultStaticSecret secrets.hashicorp.com/v1beta1',
  base(rng) {
    const ns = rng.pick([undefined, 'app', 'team-a']);
    const dest = rng.pick(['webapp-secret', 'vault-creds']);
    const s: State = { ns, refs: secretRefs(rng, dest, sample(rng, KEYS, 3)), docs: [] };
    const type = rng.pick(['kv-v1', 'kv-v2']);
    const sp: Obj = {
      vaultAuthRef: rng.pick(['static-auth', 'default']),
      mount: rng.pick(['kvv2', 'secret']),
      type,
      path: rng.pick(['webapp/config', 'team/db']),
      refreshAfter: rng.pick(['30s', '1h']),
      destination: { name: dest, create: rng.bool(0.8) },
    };
    if (type === 'kv-v2' && rng.bool(0.4)) sp.version = rng.range(1, 9);
    if (rng.bool(0.3)) sp.namespace = rng.pick(['team-a', 'admin/team-b']);
    if (rng.bool(0.3)) sp.hmacSecretData = true;
    if (rng.bool(0.4)) sp.destination.labels = { app: 'web' };
    if (rng.bool(0.3)) sp.destination.type = 'Opaque';
    if (rng.bool(0.3)) sp.destination.transformation = { excludeRaw: true, templates: { url: { text: '{{ get .Secrets "host" }}' } } };
    s.docs.push({ apiVersion: 'secrets.hashicorp.com/v1beta1', kind: 'VaultStaticSecret', metadata: metadata(s, 'webapp', rng), spec: sp });
    return s;
  },
  outputs: (s) => [vssName(s)],
  value: [
    { name: 'mount', apply: (s, rng) => void (spec(s).mount = other(rng, ['kvv2', 'secret', 'kv', 'apps'], spec(s).mount)) },
    { name: 'path', apply: (s, rng) => void (spec(s).path += `/${word(rng)}`) },
    {
      name: 'type (kv-v1 ↔ kv-v2)',
      apply(s) {
        spec(s).type = spec(s).type === 'kv-v1' ? 'kv-v2' : 'kv-v1';
      },
    },
    { name: 'version (pinned or changed)', apply: (s, rng) => void (spec(s).version = (spec(s).version ?? 0) + rng.range(1, 4)) },
    { name: 'namespace (Vault namespace) set or changed', apply: (s, rng) => void (spec(s).namespace = other(rng, ['team-a', 'admin/team-b', 'ops'], spec(s).namespace)) },
    { name: 'vaultAuthRef', apply: (s, rng) => void (spec(s).vaultAuthRef = other(rng, ['static-auth', 'default', 'other-auth'], spec(s).vaultAuthRef)) },
    {
      name: 'destination.transformation added/changed',
      apply(s, rng) {
        const d = spec(s).destination;
        if (d.transformation === undefined) d.transformation = { templates: { dsn: { text: `{{ get .Secrets "${word(rng)}" }}` } } };
        else if (rng.bool()) d.transformation.excludeRaw = !d.transformation.excludeRaw;
        else d.transformation.templates.url.text += '-x';
      },
    },
    {
      name: 'destination.name changed (the references follow)',
      apply(s) {
        const from = vssName(s);
        spec(s).destination.name = `${from}-v2`;
        renameSecretRefs(s, from, `${from}-v2`);
      },
    },
  ],
  neutral: [
    ...COMMON_NEUTRAL,
    { name: 'refreshAfter', apply: (s, rng) => void (spec(s).refreshAfter = other(rng, ['30s', '1h', '5m', '10s'], spec(s).refreshAfter)) },
    {
      name: 'destination.labels added/changed/removed',
      apply(s, rng) {
        const d = spec(s).destination;
        if (d.labels !== undefined && rng.bool(0.3)) delete d.labels;
        else d.labels = { ...(d.labels ?? {}), [rng.pick(LABEL_KEYS)]: word(rng) };
      },
    },
    { name: 'destination.create', apply: (s) => void (spec(s).destination.create = !spec(s).destination.create) },
    { name: 'VaultStaticSecret renamed', apply: (s) => void (prod(s).metadata.name += '-v2') },
  ],
};

producerProperties(VAULT_STATIC_SECRET);

test.run();
