// Property 8, cert-manager Certificate (cert-manager.io/v1): a change of what determines the value changes the stamped
// hash of the Deployment that uses what it makes; refresh settings, labels, key order, formatting and comments
// do not. The model and the properties every producer shares: test/support/producer-model.ts, producer-properties.ts.
import { test } from 'uvu';
import { ANNOTATION_KEYS, COMMON_NEUTRAL, LABEL_KEYS, metadata, type Obj, other, prod, renameSecretRefs, sample, type Scenario, secretRefs, spec, type State, word } from '../support/producer-model.ts';
import { producerProperties } from '../support/producer-properties.ts';

// ---------------------------------------------------------------------------------------------------------
// cert-manager Certificate

const USAGES = ['server auth', 'client auth', 'digital signature', 'key encipherment'];

const CERTIFICATE: Scenario = {
  index: 5,
  producer: 'Certificate cert-manager.io/v1',
  base(rng) {
    const ns = rng.pick([undefined, 'app', 'team-a']);
    const secretName = rng.pick(['web-tls', 'api-tls-secret']);
    const s: State = { ns, refs: secretRefs(rng, secretName, ['tls.crt', 'tls.key', 'ca.crt']), docs: [] };
    const hosts = sample(rng, ['web.example.com', 'api.example.com', 'www.example.org', 'admin.example.net'], rng.range(1, 3));
    const sp: Obj = {
      secretName,
      dnsNames: hosts,
      issuerRef: { name: rng.pick(['letsencrypt-prod', 'internal-ca']), kind: rng.pick(['ClusterIssuer', 'Issuer']), group: 'cert-manager.io' },
    };
    if (rng.bool(0.5)) sp.commonName = hosts[0];
    if (rng.bool(0.6)) sp.duration = rng.pick(['2160h', '720h']);
    if (rng.bool(0.6)) sp.renewBefore = rng.pick(['360h', '48h']);
    if (rng.bool(0.6)) sp.privateKey = { algorithm: rng.pick(['RSA', 'ECDSA']), ...(rng.bool() ? { rotationPolicy: 'Always' } : {}) };
    if (rng.bool(0.5)) sp.usages = sample(rng, USAGES, 2);
    if (rng.bool(0.3)) sp.secretTemplate = { labels: { app: 'web' } };
    if (rng.bool(0.3)) sp.revisionHistoryLimit = rng.range(1, 5);
    s.docs.push({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: metadata(s, 'web-cert', rng), spec: sp });
    return s;
  },
  outputs: (s) => [spec(s).secretName],
  value: [
    {
      name: 'dnsNames: a name added or changed',
      apply(s, rng) {
        const names: string[] = spec(s).dnsNames;
        if (rng.bool()) names.push(`${word(rng)}.example.com`);
        else names[0] = `${word(rng)}.example.com`;
      },
    },
    { name: 'commonName set or changed', apply: (s, rng) => void (spec(s).commonName = `${word(rng)}.example.com`) },
    { name: 'issuerRef.name', apply: (s, rng) => void (spec(s).issuerRef.name = other(rng, ['letsencrypt-prod', 'internal-ca', 'letsencrypt-staging'], spec(s).issuerRef.name)) },
    { name: 'issuerRef.kind', apply: (s) => void (spec(s).issuerRef.kind = spec(s).issuerRef.kind === 'Issuer' ? 'ClusterIssuer' : 'Issuer') },
    { name: 'duration set or changed', apply: (s, rng) => void (spec(s).duration = other(rng, ['2160h', '720h', '8760h'], spec(s).duration)) },
    {
      name: 'privateKey.algorithm',
      apply(s, rng) {
        const pk = (spec(s).privateKey ??= {});
        pk.algorithm = other(rng, ['RSA', 'ECDSA', 'Ed25519'], pk.algorithm ?? 'RSA');
      },
    },
    {
      name: 'usages added or changed',
      apply(s, rng) {
        const u: string[] = spec(s).usages ?? [];
        spec(s).usages = [...u, other(rng, USAGES, u[0])].filter((x, i, a) => a.indexOf(x) === i);
        if (spec(s).usages.length === u.length) spec(s).usages = [...u, 'code signing'];
      },
    },
    {
      name: 'secretName changed (the references follow)',
      apply(s) {
        const from = spec(s).secretName;
        spec(s).secretName = `${from}-v2`;
        renameSecretRefs(s, from, `${from}-v2`);
      },
    },
  ],
  neutral: [
    ...COMMON_NEUTRAL,
    { name: 'renewBefore set or changed', apply: (s, rng) => void (spec(s).renewBefore = other(rng, ['360h', '48h', '720h'], spec(s).renewBefore)) },
    {
      name: 'secretTemplate added/changed',
      apply(s, rng) {
        const t = (spec(s).secretTemplate ??= {});
        if (rng.bool()) t.labels = { ...(t.labels ?? {}), [rng.pick(LABEL_KEYS)]: word(rng) };
        else t.annotations = { ...(t.annotations ?? {}), [rng.pick(ANNOTATION_KEYS)]: word(rng) };
      },
    },
    { name: 'revisionHistoryLimit set or changed', apply: (s) => void (spec(s).revisionHistoryLimit = (spec(s).revisionHistoryLimit ?? 1) + 1) },
    { name: 'Certificate renamed', apply: (s) => void (prod(s).metadata.name += '-v2') },
  ],
};

producerProperties(CERTIFICATE);

test.run();
