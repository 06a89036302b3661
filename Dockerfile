# One image for the KRM container function (the default entrypoint: `rollstamp` = `rollstamp fn`) and the
# Argo CD plugin sidecar (which runs argocd-cmp-server as its command, and `rollstamp generate`; see argocd/install).
#   docker buildx build --platform linux/amd64,linux/arm64 -t REGISTRY/rollstamp:0.1.0 --push .
#   buildah build --layers -t REGISTRY/rollstamp:0.1.0 .          (no Docker engine needed)
#   kpt fn eval DIR --image REGISTRY/rollstamp:0.1.0   (or `container: image:` in a kustomize transformer)
# The release workflow (.github/workflows/release.yml) builds both architectures and pushes to the registry
# namespace of the repository's owner; docs/install.md says how. Size: see README.md#install (measured by
# test/e2e/image.test.ts).
#
# Pinned, with the source of each pin named next to it: the base images (by digest), helm and kubectl (by
# version and one sha256 per architecture), and the npm packages of the build stage (package-lock.json).
# Not pinned, on purpose:
#   - Debian's packages (ca-certificates, curl, git, openssh-client): apt installs bookworm's current ones,
#     security updates included, from the Debian archive at build time; two builds a day apart can differ.
#     The base image digest fixes everything else in the rootfs.
#   - The Dockerfile frontend: there is no `# syntax=` line, so BuildKit (docker buildx) uses the frontend
#     built into it, and buildah its own parser; nothing is pulled to parse this file.
# test/e2e/dockerfile.test.ts keeps the shape true (digests, one sha256 per architecture, user, entrypoint,
# no npm in the final stage, no unpinned frontend), and test/e2e/image.test.ts builds the image with buildah
# and runs it.
#
# Base images, by the digest of their multi-arch index (linux/amd64 and linux/arm64/v8 both listed), as
# recorded by the official images' own inventory, github.com/docker-library/repo-info:
#   node:24-bookworm-slim (Node 24.18.1 LTS, built 2026-07-30): repos/node/remote/24-bookworm-slim.md
#     at commit 2fb42a7c1204ce90c8bf85e458cec1447d6f2bbb
#   debian:bookworm-slim (2026-08-03): repos/debian/remote/bookworm-slim.md
#     at commit 05f354f0a08a211fdfed2f21845d1fccd389921d
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:235600a8101ab264e117b1768e925532262668dc9b581ef1dd7d96ced463b8e7
ARG DEBIAN_IMAGE=debian:bookworm-slim@sha256:abd67ffcfa541b485a3dff59865ab629aa048a6c613e639d36e7456b0b229241

# The bundle is plain JavaScript: build it once, on the builder's own platform.
FROM --platform=$BUILDPLATFORM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN node build.mjs

# helm and kubectl from their official release artifacts, for the target architecture, each checked by
# the sha256 published for that artifact:
#   helm v4.1.4: https://get.helm.sh/helm-v4.1.4-linux-<arch>.tar.gz, sums as listed in the v4.1.4 release
#     notes (github.com/helm/helm/releases/tag/v4.1.4) and in get.helm.sh/helm-v4.1.4-linux-<arch>.tar.gz.sha256sum
#   kubectl v1.35.0 (kustomize v5.7 embedded): https://dl.k8s.io/release/v1.35.0/bin/linux/<arch>/kubectl,
#     sums as in dl.k8s.io/release/v1.35.0/bin/linux/<arch>/kubectl.sha256 (the same pair is pinned in
#     github.com/hangy/azure-devops-agent-on-kubernetes, Dockerfile, KUBECTL_SHA256_AMD64/ARM64)
# Each tool's download base URL, version and sums are build arguments, so a mirror (or the image test's local
# files, test/e2e/image.test.ts) can stand in; the defaults are the official ones above.
FROM --platform=$BUILDPLATFORM ${DEBIAN_IMAGE} AS tools
ARG TARGETARCH
ARG HELM_VERSION=v4.1.4
ARG HELM_BASE_URL=https://get.helm.sh
ARG HELM_SHA256_AMD64=70b2c30a19da4db264dfd68c8a3664e05093a361cefd89572ffb36f8abfa3d09
ARG HELM_SHA256_ARM64=13d03672be289045d2ff00e4e345d61de1c6f21c1257a45955a30e8ae036d8f1
ARG KUBECTL_VERSION=v1.35.0
ARG KUBECTL_BASE_URL=https://dl.k8s.io/release
ARG KUBECTL_SHA256_AMD64=a2e984a18a0c063279d692533031c1eff93a262afcc0afdc517375432d060989
ARG KUBECTL_SHA256_ARM64=58f82f9fe796c375c5c4b8439850b0f3f4d401a52434052f2df46035a8789e25
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates curl && rm -rf /var/lib/apt/lists/*
WORKDIR /tools
RUN set -eu; \
    case "${TARGETARCH}" in \
      amd64) helm_sha256="${HELM_SHA256_AMD64}"; kubectl_sha256="${KUBECTL_SHA256_AMD64}" ;; \
      arm64) helm_sha256="${HELM_SHA256_ARM64}"; kubectl_sha256="${KUBECTL_SHA256_ARM64}" ;; \
      *) echo "unsupported TARGETARCH '${TARGETARCH}' (linux/amd64 and linux/arm64 only)" >&2; exit 1 ;; \
    esac; \
    curl -fsSLo helm.tar.gz "${HELM_BASE_URL}/helm-${HELM_VERSION}-linux-${TARGETARCH}.tar.gz"; \
    echo "${helm_sha256}  helm.tar.gz" | sha256sum -c -; \
    tar -xzf helm.tar.gz --strip-components=1 "linux-${TARGETARCH}/helm"; \
    curl -fsSLo kubectl "${KUBECTL_BASE_URL}/${KUBECTL_VERSION}/bin/linux/${TARGETARCH}/kubectl"; \
    echo "${kubectl_sha256}  kubectl" | sha256sum -c -; \
    chmod 0755 helm kubectl; \
    rm helm.tar.gz

# The node binary alone, for the target architecture (no npm, npx, corepack or yarn come with it).
FROM ${NODE_IMAGE} AS node

# The final image: Debian slim (glibc, libstdc++ for node), git and an ssh client (kustomize fetches remote bases
# with git, as in Argo CD's own image), node, helm, kubectl and the bundle (dist/: the entry /app/rollstamp.js
# and the chunks it loads) with its startup snapshot, the `rollstamp` command that runs them, and the package's
# README.md beside /app as `rollstamp --help` names it.
FROM ${DEBIAN_IMAGE}
ARG VERSION=0.1.0
# The repository the image is built from; the release workflow passes its own (github.com/<owner>/<repo>).
ARG SOURCE_URL=https://source.example.invalid/rollstamp
LABEL org.opencontainers.image.title="rollstamp" \
      org.opencontainers.image.description="Rolls Kubernetes workloads when the Secrets and ConfigMaps they use change: KRM function, Argo CD plugin, CLI" \
      org.opencontainers.image.source="${SOURCE_URL}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="Apache-2.0"
# ssh refuses to run for a uid without a passwd entry ("No user exists for uid 999"), so 999 gets one, as the
# argocd user in Argo CD's image.
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates git openssh-client \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/apt/archives/*.deb /var/log/apt /var/log/dpkg.log \
    && groupadd --gid 999 rollstamp \
    && useradd --uid 999 --gid 999 --home-dir /tmp --no-create-home --shell /usr/sbin/nologin rollstamp
COPY --from=node /usr/local/bin/node /usr/local/bin/node
COPY --from=tools /tools/helm /tools/kubectl /usr/local/bin/
# 0555, not 0444: BuildKit gives a directory it creates the --chmod mode too, and /app must stay traversable.
COPY --from=build --chmod=0555 /src/dist/ /app/
COPY --chmod=0444 LICENSE /app/LICENSE
COPY --chmod=0444 README.md /README.md
# Fails the build (under emulation, for the other architecture) if node or a tool cannot run here.
RUN ["node", "--version"]
RUN ["helm", "version", "--short"]
RUN ["git", "--version"]
# A V8 code cache of the bundle (#37; plugin/launch.ts uses /app/compile-cache when it is there): node keeps one
# per user id, so the usual commands run once as uid 999 (the Argo CD plugin's, this image's user) and once as
# 65534 (nobody, as which a KRM runtime may run the function) on a small input; then the cache is made root's and
# read-only, so the user a render runs as reads it and can write nothing there. Another uid, node version or
# changed bundle compiles as before (docs/performance.md, "Code cache").
RUN set -eu; \
    mkdir -m 0777 /app/compile-cache /tmp/warm; \
    secret="kind: Secret|metadata:|  name: db|  namespace: app|data:|  password: cGFzcw=="; \
    web="kind: Deployment|metadata:|  name: web|  namespace: app|  annotations:|    rollstamp.dev/enabled: 'true'|spec:|  template:|    spec:|      containers:|        - name: web|          image: web|          envFrom:|            - secretRef:|                name: db"; \
    printf 'apiVersion: v1|%s|---|apiVersion: apps/v1|%s|' "$secret" "$web" | tr '|' '\n' > /tmp/warm/all.yaml; \
    printf 'apiVersion: config.kubernetes.io/v1|kind: ResourceList|items:|- apiVersion: v1|%s|- apiVersion: apps/v1|%s|' "$(echo "$secret" | sed 's/|/|  /g')" "$(echo "$web" | sed 's/|/|  /g')" \
      | tr '|' '\n' | sed '/^kind: [SD]/s/^/  /' > /tmp/warm-list.yaml; \
    for uid in 999 65534; do \
      as="setpriv --reuid=$uid --regid=$uid --clear-groups env HOME=/tmp ARGOCD_APP_NAME=warm ARGOCD_APP_NAMESPACE=app"; \
      $as node /app/rollstamp.js stamp /tmp/warm/all.yaml > /dev/null; \
      (cd /tmp/warm && $as node /app/rollstamp.js generate > /dev/null); \
      $as node /app/rollstamp.js fn < /tmp/warm-list.yaml > /dev/null; \
    done; \
    rm -rf /tmp/warm /tmp/warm-list.yaml; \
    chown -R root:root /app/compile-cache; \
    chmod -R a=rX /app/compile-cache
# A V8 startup snapshot of the CLI (#37; build-snapshot.mjs, plugin/snapshot-entry.ts): a heap in which the CLI and
# the core are already loaded, so a render skips most of loading and compiling them. Made here, by this image's node
# (a blob runs only on the node binary that made it), in /app (its worker thread loads /app/main.mjs), from the
# script the build stage bundled; build-snapshot.mjs starts a process and a worker thread from the blob and fails the
# build if either cannot run. Then root's and read-only, as the code cache: a blob is code every render runs.
# /usr/local/bin/rollstamp (image/rollstamp.sh) runs from it when it is there, else from the bundle. Exit 4 is a node
# that refuses a blob under V8 flags other than its own (node 20, not this image's): no blob, the bundle runs.
COPY --from=build /src/build-snapshot.mjs /src/build/snapshot/rollstamp.cjs /tmp/snapshot/
RUN status=0; node /tmp/snapshot/build-snapshot.mjs /app /tmp/snapshot/rollstamp.cjs || status=$?; \
    rm -rf /tmp/snapshot; \
    if [ "$status" -eq 0 ]; then chown root:root /app/rollstamp.blob && chmod 0444 /app/rollstamp.blob; else [ "$status" -eq 4 ]; fi
COPY --chmod=0555 image/rollstamp.sh /usr/local/bin/rollstamp
# uid 999 is what Argo CD's cmp-server expects; KRM runtimes may run it as `nobody` (the file is world-readable).
ENV HOME=/tmp
USER 999:999
ENTRYPOINT ["/usr/local/bin/rollstamp"]
