#!/usr/bin/env bash
# The compose stage of CI: the stack as a developer runs it, for real, on a clean checkout.
#   bash tools/compose/ci.sh           (bash tools/compose/ci.sh prepare: steps 1 and 2 only)
# 1. a Docker engine: Debian's docker.io and docker-compose when missing, the daemon started;
# 2. the base images: pulled, else built as stand-ins (tools/compose/standin-images.sh) when no
#    registry answers;
# 3. `up --build -d`, every container healthy, the smoke test through the published ports
#    (tools/compose/smoke.mjs), the image sizes;
# 4. the drills of tools/compose/drill.mjs (COMPOSE_DRILLS=0 skips them): a replica restarted and
#    a new image rolled out under load (0 failed requests, every create stored once), kill -9 of
#    services in the middle of their work, every effect counted;
# 5. `down` and `up` again: the data is still there; then `down -v`.
# Its own project name and free ports, so a developer's stack on the same machine is left alone.
set -euo pipefail
cd "$(dirname "$0")/../.."

STARTED=$SECONDS
say() { printf 'compose-ci %ds: %s\n' "$((SECONDS - STARTED))" "$*"; }
fail() { echo "compose-ci: FAILED: $*" >&2; exit 1; }

# ---- 1. engine ----
need_engine=false
command -v docker >/dev/null || need_engine=true
command -v docker-compose >/dev/null || docker compose version >/dev/null 2>&1 || need_engine=true
# a docker client alone (a machine may have one without an engine) starts nothing
docker info >/dev/null 2>&1 || command -v dockerd >/dev/null || need_engine=true
if [[ $need_engine == true ]]; then
  [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null || fail 'docker and docker-compose are missing and cannot be installed (not root or no apt-get)'
  say 'installing docker.io and docker-compose (Debian)'
  timeout 300 apt-get update -qq
  DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq docker.io docker-compose debootstrap >/dev/null
fi
if ! docker info >/dev/null 2>&1; then
  say 'starting dockerd'
  (dockerd >/tmp/dockerd.log 2>&1 &)
  for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || fail "dockerd did not answer within 60 s (see /tmp/dockerd.log)"
fi
if docker compose version >/dev/null 2>&1; then COMPOSE_BIN=(docker compose); else COMPOSE_BIN=(docker-compose); fi
say "engine $(docker version --format '{{.Server.Version}}'), compose: ${COMPOSE_BIN[*]}"

# ---- 2. base images ----
missing=()
for image in node:22-bookworm-slim postgres:16 nats:2-alpine; do
  docker image inspect "$image" >/dev/null 2>&1 && continue
  timeout 60 docker pull -q "$image" >/dev/null 2>&1 && continue
  missing+=("${image%%:*}")
done
if ((${#missing[@]})); then
  command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  say "no registry: building stand-ins of ${missing[*]}"
  bash tools/compose/standin-images.sh "${missing[@]}" >/tmp/standin-images.log 2>&1 \
    || { tail -30 /tmp/standin-images.log; fail 'stand-in images'; }
fi

# `ci.sh prepare` stops here: .ci/run prepares the machine (once per machine: Debian packages,
# stand-in images) outside the stage's 15-minute budget, which is for the stack itself.
if [[ "${1:-}" == prepare ]]; then say 'machine ready'; exit 0; fi

# ---- 3. up, wait, smoke ----
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
export COMPOSE_PROJECT_NAME=${COMPOSE_PROJECT_NAME:-crmci}
export GATEWAY_PORT=${GATEWAY_PORT:-$(free_port)} MAILBOX_PORT=${MAILBOX_PORT:-$(free_port)}
export GIT_REVISION=${GIT_REVISION:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
export COMPOSE="${COMPOSE_BIN[*]}" GATEWAY_URL="http://127.0.0.1:$GATEWAY_PORT" MAILBOX_URL="http://127.0.0.1:$MAILBOX_PORT"
# COMPOSE_TRACES=1: traces on, caught by the compose file's trace catcher (profile traces), and the
# smoke finds a company deletion's trace there. Not in CI: with every app tracing, crm-people's
# health checks exceeded their 3 s during the rolling-update drill in one of two runs on a busy
# 2-core machine (the smoke's trace was found in both).
if [[ "${COMPOSE_TRACES:-0}" == 1 ]]; then
  export COMPOSE_PROFILES=${COMPOSE_PROFILES:-traces} TRACES_PORT=${TRACES_PORT:-$(free_port)}
  export OTEL_EXPORTER_OTLP_ENDPOINT=${OTEL_EXPORTER_OTLP_ENDPOINT-http://traces:4318} TRACES_URL="http://127.0.0.1:$TRACES_PORT"
fi
compose() { "${COMPOSE_BIN[@]}" "$@"; }
STATE=$(mktemp)
# step <name> <command...>: runs a step of the stage with its output kept, so that a failure ends
# with the step that failed and its last lines, below the containers' logs (CI keeps only the
# tail of its output: a landing run failed once with nothing but the log dump to read).
STEP=setup STEP_LOG=$(mktemp)
step() {
  STEP=$1; shift
  "$@" 2>&1 | tee "$STEP_LOG"
}
cleanup() {
  local code=$?
  if ((code != 0)); then
    echo '--- compose ps and the last log lines of each container ---'
    compose ps || true
    compose logs --no-color --tail=40 || true
    # the whole log stays on the machine; a crashed database server says why far above the tail
    compose logs --no-color >/tmp/compose-logs.txt 2>&1 || true
    df -h /var/lib/docker /tmp 2>/dev/null || true
    echo '--- PostgreSQL: processes that ended abnormally, PANICs (whole log: /tmp/compose-logs.txt) ---'
    # with the statement the lost backend was running (the DETAIL line after it)
    grep -E -A1 'postgres.*(terminated by signal|exited with exit code|PANIC|was terminated|all server processes terminated)' /tmp/compose-logs.txt | grep -v 'not yet accepting' | tail -24 || true
    echo "--- the step that failed: $STEP (exit $code, at $((SECONDS - STARTED)) s); its last lines ---"
    tail -30 "$STEP_LOG" || true
  fi
  compose down -v --remove-orphans >/dev/null 2>&1 || true
  rm -f "$STATE" "$STEP_LOG"
  exit "$code"
}
trap cleanup EXIT

compose down -v --remove-orphans >/dev/null 2>&1 || true
# Each run leaves untagged images behind (the replaced :local images, the drill's second revision,
# the build stages, 0.3-2.5 GB each); on a machine that runs CI again and again they filled the
# disk, and a PostgreSQL that cannot write its WAL stops with a PANIC. Those older than a day go,
# and all of them when less than 20 GB are free. Not those of the last hours: they are the build
# cache (a cold build took 370-560 s of the stage's budget, a warm one 58 s).
docker image prune -f --filter until=24h >/dev/null 2>&1 || true
if (($(df --output=avail -k /var/lib/docker 2>/dev/null | tail -1 || echo 0) < 20 * 1024 * 1024)); then
  docker image prune -f >/dev/null 2>&1 || true
fi
say "disk: $(df -h --output=avail /var/lib/docker 2>/dev/null | tail -1 | tr -d ' ') free for Docker"
STEP=build; say "build (revision $GIT_REVISION)"
build_started=$SECONDS
if ! COMPOSE_DOCKER_CLI_BUILD=0 DOCKER_BUILDKIT=0 compose build >/tmp/compose-build.log 2>&1; then
  grep -v '^ ---> \|^Step \|^Removing intermediate' /tmp/compose-build.log | tail -40
  fail 'the build failed (whole log: /tmp/compose-build.log)'
fi
say "build done in $((SECONDS - build_started)) s"
docker images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep '^crm-events/' | sort | sed 's/^/  image /'
step up compose up -d
step 'smoke wait' node tools/compose/smoke.mjs wait
step 'smoke first' node tools/compose/smoke.mjs first "$STATE"

# ---- 4. drills (COMPOSE_DRILLS=0 skips them) ----
if [[ "${COMPOSE_DRILLS:-1}" != 0 ]]; then
  step 'drill roll' node tools/compose/drill.mjs roll "$STATE"
  step 'drill kill' node tools/compose/drill.mjs kill "$STATE"
fi

# ---- 5. data survives down + up ----
say 'down, then up again'
step down compose down
step 'up again' compose up -d
step 'smoke wait again' node tools/compose/smoke.mjs wait
step 'smoke again' node tools/compose/smoke.mjs again "$STATE"
say 'passed'
