# Vitrine: multi-stage build on node:20-slim, running as the unprivileged `node` user.
# Build: docker build -t vitrine .   (see docs/deployment.md)

# 1. Dependencies, with the toolchain better-sqlite3 needs when no prebuilt binary fits.
FROM node:20-slim AS deps
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# The client SDK is a workspace of the repository (SPEC §11): npm ci needs its manifest.
COPY packages/client/package.json ./packages/client/
RUN npm ci

# 2. Compile TypeScript to dist/, then drop the dev dependencies.
FROM deps AS build
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY packages/client ./packages/client
RUN npm run build && npm prune --omit=dev

# 3. Runtime: compiled code, production dependencies, nothing else.
FROM node:20-slim AS runtime
# glibc's malloc with fixed thresholds (ADR 0044): blocks above 128 KiB get pages of their own,
# given back when freed. Left dynamic, the threshold rises to the largest block freed (the
# index's columns as they grow), and the freed columns stay in the process for good.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    MALLOC_MMAP_THRESHOLD_=131072 \
    MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
COPY --chown=node:node bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080 8081
# Liveness without curl in the image: Node's own fetch. Issue 13: healthy when any listener this
# instance serves answers (`--env testing` listens on TESTING_PORT only, `--env production` on
# PORT only, plain `serve` on both), so every `--env` becomes healthy.
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD ["node", "bin/healthcheck.js"]
# exec form: node is PID 1's child-free target of SIGTERM, so graceful shutdown works.
ENTRYPOINT ["node", "bin/vitrine.js"]
CMD ["serve"]
