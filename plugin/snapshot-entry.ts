// The script of the image's V8 startup snapshot (#37; build.mjs bundles it as CommonJS, build-snapshot.mjs makes
// the blob): while the blob is made it loads the CLI and every command that runs on the main thread, with the core,
// and leaves the CLI's start on globalThis for launch.ts, the script a process started from the blob runs.
//
// What runs here runs once, when the image is built, and its heap is what every render starts from, so nothing here
// may read the environment, the arguments, the clock or a descriptor, or make a random number: those are read when a
// command runs. Nor may it load crypto or a built-in that binds a libuv stream (node:v8, net, tty, child_process: what
// main.ts and run-in-process.ts import): on node 24 a worker thread of a process started from such a blob aborts
// when it loads the same built-in (an assertion in node's binding setup). So main.ts loads in start(), crypto on its
// first call (build/defer-builtins.mjs), and build-snapshot.mjs keeps no blob whose worker cannot load them. The
// warm-up (snapshot-warmup.ts) runs commands over made-up input with an empty environment and no descriptor; the
// clock a run's deadline reads then, and all the run made, is garbage before the blob is written.
import { pathToFileURL } from 'node:url';
import { COMMANDS } from './commands/index.ts';
import { SNAPSHOT_KEY, type SnapshotCli } from './snapshot-cli.ts';
import { warmUpCli, warmUpCore, warmUpStreams, WARMUP_RUNS } from './snapshot-warmup.ts';

const cli: SnapshotCli = {
  start(dir) {
    // main.ts's `import.meta.url` in this bundle (build.mjs): its worker thread loads main.mjs from the install, as
    // a run without the blob does.
    (globalThis as { __rollstampMainUrl?: string }).__rollstampMainUrl = pathToFileURL(`${dir}/main.mjs`).href;
    void import('./main.ts');
  },
};
(globalThis as Record<symbol, SnapshotCli>)[SNAPSHOT_KEY] = cli;

// The main thread's commands and what they import; `refresh` (worker only) and main.ts are loaded when run.
for (const c of COMMANDS) if (!c.worker) void c.load();

// The core's functions compiled in the blob (snapshot-warmup.ts), with a stand-in for node:crypto's hashes that the
// deferred built-in (build/defer-builtins.mjs) uses only while it is on globalThis: removed before the blob is written.
const STAND_IN = Symbol.for('rollstamp.builtin-stand-in');
const fakeHash = { update: () => fakeHash, digest: (encoding?: string) => (encoding === undefined ? Buffer.alloc(32) : '0'.repeat(64)) };
(globalThis as Record<symbol, unknown>)[STAND_IN] = { crypto: { createHash: () => fakeHash, createHmac: () => fakeHash } };
const ran = warmUpCore();
if (ran !== WARMUP_RUNS) throw new Error(`the startup snapshot's warm-up: ${ran} of ${WARMUP_RUNS} core runs ended without an error`);
// The blob is written once this has settled; a rejection fails its making (node exits non-zero, no blob).
void warmUpCli()
  .then(warmUpStreams)
  .finally(() => delete (globalThis as Record<symbol, unknown>)[STAND_IN]);
