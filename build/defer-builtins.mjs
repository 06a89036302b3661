// An esbuild plugin for both builds (build.mjs: the CLI's and the startup snapshot's): the node built-ins it names
// load on the first call of one of their functions, not when the module that imports them is initialized (#37). A
// run that never calls one does not pay for loading it; and a blob is made by initializing the CLI's modules, while
// node 24 aborts a worker thread of a process started from a blob whose heap holds crypto's or a libuv stream's
// bindings: deferred, they load when a render runs instead.
import { builtinModules, createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/** Where the snapshot build's deferred built-ins look for a stand-in (`standIns`). */
export const STAND_IN_KEY = 'rollstamp.builtin-stand-in';

/**
 * Resolves `node:NAME` (and bare `NAME`) for each of `names` to a module whose named exports are the built-in's
 * functions, each requiring the built-in on its first call (also with `new`); its default export reads through to
 * the built-in. A value that is not a function is not exported, so a module importing one fails the build.
 * - `standIns` (the startup snapshot's build only): until the built-in is loaded, a call first asks
 *   `globalThis[Symbol.for(STAND_IN_KEY)]?.[NAME]` and uses that object, without keeping it, when one is there.
 *   plugin/snapshot-entry.ts sets it while the blob's warm-up runs the core (crypto must not load then) and removes
 *   it before the blob is written, so a render loads the real built-in.
 */
export function deferBuiltins(names, { standIns = false } = {}) {
  for (const name of names) if (!builtinModules.includes(name)) throw new Error(`defer-builtins: ${name} is not a node built-in`);
  const filter = new RegExp(`^(node:)?(${names.join('|')})$`);
  return {
    name: 'defer-builtins',
    setup(b) {
      // The module's own require() is the real built-in.
      b.onResolve({ filter }, (args) => (args.namespace === 'deferred-builtin' ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ''), namespace: 'deferred-builtin' }));
      b.onLoad({ filter: /.*/, namespace: 'deferred-builtin' }, (args) => {
        const real = requireHere(`node:${args.path}`);
        const functions = Object.entries(Object.getOwnPropertyDescriptors(real)).filter(([key, d]) => 'value' in d && typeof d.value === 'function' && /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default');
        const loadReal = `(loaded ??= require('node:${args.path}'))`;
        const standIn = `globalThis[Symbol.for('${STAND_IN_KEY}')]?.[${JSON.stringify(args.path)}]`;
        const lines = [
          'let loaded;',
          `const load = () => ${standIns ? `loaded ?? ${standIn} ?? ${loadReal}` : loadReal};`,
          'export default new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });',
          // `new` on the wrapper makes an object of the built-in class (a subclass of the wrapper keeps its own new.target).
          ...functions.map(([key]) => `export function ${key}(...a) { const f = load().${key}; return new.target ? Reflect.construct(f, a, new.target === ${key} ? f : new.target) : f.apply(this, a); }`),
        ];
        return { contents: `${lines.join('\n')}\n`, loader: 'js', resolveDir: process.cwd() };
      });
    },
  };
}
