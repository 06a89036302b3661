# One image for the KRM container function (default entrypoint) and, later, the Argo CD plugin sidecar.
# Build: docker build -t rollstamp .   Run as a KRM function: kpt fn eval DIR --image rollstamp
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# The bundle needs no node_modules: only node and one file.
FROM gcr.io/distroless/nodejs20-debian12:nonroot
COPY --from=build --chmod=0444 /src/dist/rollstamp.js /app/rollstamp.js
COPY --from=build --chmod=0444 /src/schemas /app/schemas
ENV HOME=/tmp
USER 65532:65532
ENTRYPOINT ["/nodejs/bin/node", "/app/rollstamp.js"]
