#!/bin/sh
# `rollstamp` in the image (/usr/local/bin/rollstamp, the entrypoint): runs the CLI from the V8 startup snapshot made
# when the image was built (/app/rollstamp.blob, docs/performance.md "Startup snapshot"), which saves a render most
# of loading and compiling the CLI, or from the bundle when there is none. Either way node runs /app/rollstamp.js
# with the same arguments, environment and descriptors, and the output is the same. `rollstamp --version` alone
# loads nothing but the entry (plugin/launch.ts), which is less than deserializing the blob. `[` is the shell's own:
# no process is started to decide.
if [ "$#" -eq 1 ] && { [ "$1" = --version ] || [ "$1" = -V ]; }; then exec node /app/rollstamp.js "$1"; fi
if [ -f /app/rollstamp.blob ]; then exec node --snapshot-blob /app/rollstamp.blob /app/rollstamp.js "$@"; fi
exec node /app/rollstamp.js "$@"
