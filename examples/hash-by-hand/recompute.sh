#!/usr/bin/env bash
# Recomputes the rollstamp.dev/hash that `rollstamp stamp input.yaml` writes, with printf, openssl and
# sha256sum only (hash scheme v1, see docs/hash-scheme.md). With ROLLSTAMP_HASH_KEY set, every digest
# is HMAC-SHA256 under that key instead.
set -euo pipefail
export LC_ALL=C
u64() { printf "$(printf '%016x' "$1" | sed 's/../\\x&/g')"; } # 8-byte big-endian length
F() { u64 "${#1}"; printf '%s' "$1"; }                        # a field from text
Ffile() { u64 "$(wc -c <"$1")"; cat "$1"; }                   # a field from a file's bytes
H() {                                                         # digest of stdin, raw bytes
  if [ -n "${ROLLSTAMP_HASH_KEY:-}" ]; then openssl dgst -sha256 -mac HMAC -macopt "key:$ROLLSTAMP_HASH_KEY" -binary
  else openssl dgst -sha256 -binary; fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Source 1: Secret default/db, the one key the env var uses; its value is data.password, base64-decoded.
printf '%s' 'c2VjcmV0LXZhbHVl' | openssl base64 -d -A >"$tmp/password"
{ F rollstamp.v1; F source; F Secret; F default; F db; F present; F password; F value; Ffile "$tmp/password"; } | H >"$tmp/db"

# Source 2: ConfigMap default/web-config, used whole (envFrom): every key, in byte order.
{ F rollstamp.v1; F source; F ConfigMap; F default; F web-config; F present; F LOG_LEVEL; F value; F info; } | H >"$tmp/web-config"

# Target: each source as F(id) F(digest), ids in byte order ("ConfigMap/…" sorts before "Secret/…").
{ F rollstamp.v1; F target; F ConfigMap/default/web-config; Ffile "$tmp/web-config"; F Secret/default/db; Ffile "$tmp/db"; } | H >"$tmp/target"

prefix=sha256
[ -n "${ROLLSTAMP_HASH_KEY:-}" ] && prefix=hmac-sha256
echo "$prefix:$(od -An -v -tx1 "$tmp/target" | tr -d ' \n')"
