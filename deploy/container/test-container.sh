#!/usr/bin/env bash
# Builds the container image from BINARY (no base image pulled: see Containerfile) and runs it:
# GET /healthz from outside, the image's HEALTHCHECK through `podman healthcheck run`, the
# process's user, the database in the /data volume, a clean stop. Says so and exits 0 when
# podman and buildah are both missing (REQUIRE_CONTAINER=1 makes that a failure).
# Usage: test-container.sh BINARY WORKDIR
set -euo pipefail
binary=$(realpath "$1")
work=$2
here=$(cd "$(dirname "$0")" && pwd)
image=localhost/delivery-tracker:test
tag=$$

say() { printf '\n--> %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

if ! command -v podman >/dev/null && ! command -v buildah >/dev/null; then
  echo "SKIPPED: neither podman nor buildah is installed (apt-get install podman), so the container image was not built or run"
  [ "${REQUIRE_CONTAINER:-0}" = 1 ] && exit 1
  exit 0
fi

# Options that let podman work inside a sandbox as well as on a normal host (each is ordinary
# there too): vfs storage (no overlay mounts), cgroupfs (no systemd), runc where installed (crun
# refuses a hybrid cgroup v1/v2 layout), and limits at or below the caller's own (without
# CAP_SYS_RESOURCE podman's defaults cannot be set). Override with PODMAN_OPTS / RUN_OPTS.
# Without systemd podman logs that it cannot start the HEALTHCHECK's timer: the check is run
# on demand below instead.
default_opts="--storage-driver vfs --cgroup-manager cgroupfs"
if command -v runc >/dev/null; then default_opts+=" --runtime runc"; fi
read -ra podman_opts <<<"${PODMAN_OPTS:-$default_opts}"
read -ra run_opts <<<"${RUN_OPTS:---ulimit nofile=4096:4096 --ulimit nproc=4096:4096}"

say "Assembling the image's root filesystem from $binary"
"$here/rootfs.sh" "$binary" "$work"
du -sh "$work/rootfs"

if ! command -v podman >/dev/null; then
  say "buildah bud (podman is missing, so the image is built but not run)"
  buildah --storage-driver vfs bud --format docker --isolation chroot -t "$image" "$work"
  buildah --storage-driver vfs rmi "$image" >/dev/null
  echo "container image built with buildah; NOT run (install podman to run it)"
  exit 0
fi
pm() { podman "${podman_opts[@]}" "$@"; }

container=dt-test-$tag
volume=dt-test-data-$tag
cleanup() {
  pm rm -f "$container" >/dev/null 2>&1 || true
  pm volume rm -f "$volume" >/dev/null 2>&1 || true
  pm rmi -f "$image" >/dev/null 2>&1 || true
}
trap cleanup EXIT

say "podman build (--format docker keeps the HEALTHCHECK)"
pm build --format docker --isolation chroot -t "$image" "$work"
pm image inspect --format 'user={{.Config.User}} volumes={{.Config.Volumes}} healthcheck={{.Config.Healthcheck.Test}}' "$image"

port=$(( 20000 + RANDOM % 20000 ))
say "podman run, /data on the named volume $volume, published on 127.0.0.1:$port"
pm volume create "$volume" >/dev/null
pm run -d --name "$container" "${run_opts[@]}" -p "127.0.0.1:$port:8080" -v "$volume:/data" "$image" >/dev/null

healthy=
for _ in $(seq 1 60); do
  if body=$(curl -fsS "http://127.0.0.1:$port/healthz" 2>/dev/null); then healthy=1; break; fi
  [ "$(pm inspect --format '{{.State.Running}}' "$container")" = true ] || {
    pm logs "$container" >&2 || true
    fail "the container stopped before answering"
  }
  sleep 0.5
done
[ -n "$healthy" ] || { pm logs "$container" >&2 || true; fail "no answer from /healthz on port $port"; }
echo "GET /healthz: $body"
[ "$body" = '{"status":"ok"}' ] || fail "unexpected /healthz body"

say "The image's HEALTHCHECK (delivery-tracker healthcheck inside the container)"
pm healthcheck run "$container" || fail "the HEALTHCHECK reports the container unhealthy"
echo "healthy"

say "Runs as the image's non-root user; the database is on the volume"
uid=$(pm top "$container" huser | tail -n 1 | tr -d ' ')
echo "process user: $uid"
[ "$uid" = 10001 ] || [ "$uid" = delivery-tracker ] || fail "runs as $uid, not 10001"
mountpoint=$(pm volume inspect --format '{{.Mountpoint}}' "$volume")
ls -ln "$mountpoint"
ls "$mountpoint"/*.db >/dev/null || fail "no database in the /data volume"

say "podman stop (SIGTERM): a clean exit"
pm stop -t 20 "$container" >/dev/null
code=$(pm inspect --format '{{.State.ExitCode}}' "$container")
[ "$code" = 0 ] || { pm logs "$container" >&2 || true; fail "exit code $code"; }
echo "exited 0"

echo
echo "container test passed: built FROM scratch ($(du -sh "$work/rootfs" | cut -f1)), /healthz and HEALTHCHECK ok as uid 10001, data on the volume, clean stop"
