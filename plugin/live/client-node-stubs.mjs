// esbuild plugin for build.mjs: keeps @kubernetes/client-node's KubeConfig but leaves out the modules its
// config.js imports that live reads never reach, which are most of its size (~1.6 MiB of the bundle:
// the generated API models, openid-client, the proxy agents, node-fetch with whatwg-url/tr46, jsonpath-plus).
//
// Each stub is safe because plugin/live refuses the feature before client-node could use it:
// - gen/index.js: only makeApiClient / applySecurityAuthentication use it; live reads do their own GETs.
// - oidc_auth, azure_auth, gcp_auth: auth-providers are refused (connection.ts) except the in-cluster token file.
// - socks-proxy-agent, hpagent: `proxy-url` is refused (connection.ts).
// - node-fetch: config.js takes only `Headers`, for applyToFetchOptions, which live reads do not call; watch.js
//   (imported by informer.js, which cache.js imports for its event names) fetches in Watch.watch, which
//   `rollstamp refresh` replaces with its own transport (plugin/commands/refresh/informers.ts).
// - serializer.js (from cache.js): the generated models' ObjectSerializer, used only to serialize a label or
//   field selector, which the refresher never passes; a plain string conversion stands in.
// A stub that is reached anyway throws, naming itself. test/live/bundle.test.ts bundles the reader with this
// plugin and reads through it, so a client-node update that needs one of these modules fails there.
//
// Usage in build.mjs:  import { slimClientNode } from './plugin/live/client-node-stubs.mjs';
//                      await build({ ..., plugins: [slimClientNode] });

const STUBS = {
  'gen/index.js': `
    const no = () => { throw new Error('rollstamp bundle: @kubernetes/client-node API clients are not bundled'); };
    export const createConfiguration = no;
    export class ServerConfiguration { constructor() { no(); } }`,
  'oidc_auth.js': authStub('OpenIDConnectAuth', 'oidc'),
  'azure_auth.js': authStub('AzureAuth', 'azure'),
  'gcp_auth.js': authStub('GoogleCloudPlatformAuth', 'gcp'),
  'socks-proxy-agent': `export class SocksProxyAgent { constructor() { throw new Error('rollstamp bundle: proxy-url is not supported'); } }`,
  hpagent: `
    const no = () => { throw new Error('rollstamp bundle: proxy-url is not supported'); };
    export class HttpProxyAgent { constructor() { no(); } }
    export class HttpsProxyAgent { constructor() { no(); } }`,
  'node-fetch': `export const Headers = globalThis.Headers; export default function fetch() { throw new Error('rollstamp bundle: node-fetch is not bundled'); }`,
  'serializer.js': `export const ObjectSerializer = { serialize: (value) => String(value) };`,
};

function authStub(className, provider) {
  return `export class ${className} {
    isAuthProvider(user) { return user?.authProvider?.name === '${provider}'; }
    async applyAuthentication() { throw new Error('rollstamp bundle: the ${provider} auth-provider is not supported'); }
  }`;
}

/** @type {import('esbuild').Plugin} */
export const slimClientNode = {
  name: 'rollstamp-slim-client-node',
  setup(b) {
    b.onResolve({ filter: /^(\.\/(gen\/index|oidc_auth|azure_auth|gcp_auth)\.js|socks-proxy-agent|hpagent|node-fetch)$/ }, (args) => {
      if (!/[\\/]@kubernetes[\\/]client-node[\\/]dist[\\/]config\.js$/.test(args.importer)) return undefined;
      return { path: args.path.replace(/^\.\//, ''), namespace: 'rollstamp-client-node-stub' };
    });
    b.onResolve({ filter: /^node-fetch$/ }, (args) => (/[\\/]@kubernetes[\\/]client-node[\\/]dist[\\/]watch\.js$/.test(args.importer) ? { path: 'node-fetch', namespace: 'rollstamp-client-node-stub' } : undefined));
    b.onResolve({ filter: /^\.\/serializer\.js$/ }, (args) => (/[\\/]@kubernetes[\\/]client-node[\\/]dist[\\/]cache\.js$/.test(args.importer) ? { path: 'serializer.js', namespace: 'rollstamp-client-node-stub' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'rollstamp-client-node-stub' }, (args) => ({ contents: STUBS[args.path], loader: 'js' }));
  },
};
