#!/usr/bin/env bash
# Builds the container image (Containerfile: FROM scratch over the root filesystem rootfs.sh
# assembles from BINARY; no base image is pulled) as TAG, with podman or else buildah, and with
# ARCHIVE saves it as a docker-archive (`podman load -i` or `docker load -i` reads it; podman 4
# reads no gzip'd one, so it is left uncompressed).
# Options that work inside a sandbox as on a normal host: vfs storage (no overlay mounts) and
# chroot isolation (the build runs no container: the Containerfile only copies files).
# Usage: build-image.sh BINARY WORKDIR TAG [ARCHIVE]
set -euo pipefail
binary=$1
work=$2
tag=$3
archive=${4:-}
here=$(cd "$(dirname "$0")" && pwd)

if command -v podman >/dev/null; then
  engine=(podman --storage-driver vfs)
elif command -v buildah >/dev/null; then
  engine=(buildah --storage-driver vfs)
else
  echo "neither podman nor buildah is installed (apt-get install podman): the container image cannot be built" >&2
  exit 1
fi

"$here/rootfs.sh" "$binary" "$work"
# --format docker keeps the HEALTHCHECK (OCI images drop it).
if [ "${engine[0]}" = podman ]; then
  "${engine[@]}" build --format docker --isolation chroot -t "$tag" "$work"
else
  "${engine[@]}" bud --format docker --isolation chroot -t "$tag" "$work"
fi
if [ -n "$archive" ]; then
  rm -f "$archive"
  if [ "${engine[0]}" = podman ]; then
    "${engine[@]}" save --format docker-archive -o "$archive" "$tag"
  else
    "${engine[@]}" push "$tag" "docker-archive:$archive:$tag"
  fi
  # The archive is the release file: the engine's own copy is not kept.
  "${engine[@]}" rmi "$tag" >/dev/null
  echo "image $tag saved to $archive"
fi
