#!/usr/bin/env bash
# The release artefacts (`make dist`), in OUT:
#   delivery-tracker-VERSION-ARCH-linux-gnu.tar.gz  the binary (web app embedded), README.md,
#       LICENSE, .env.example, the systemd unit and its settings file, docs/
#   delivery-tracker_VERSION-1_ARCH.deb               the Debian package (DEB, from cargo-deb)
#   delivery-tracker-VERSION-image.tar                the container image, a docker-archive
#   SHA256SUMS                                        `sha256sum -c SHA256SUMS` checks them
# The tarball is reproducible from the same binary: fixed order, owners and times (the last
# commit's). Without podman or buildah the image cannot be built: the script says so and fails,
# unless NO_IMAGE=1, which leaves the image out.
# Usage: dist.sh BINARY DEB OUT
set -euo pipefail
binary=$1
deb=$2
out=$3
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")

version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$repo/Cargo.toml" | head -n 1)
arch=$(uname -m)
name=delivery-tracker-$version-$arch-linux-gnu
rm -rf "$out"
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

echo "==> $name.tar.gz"
dir=$stage/$name
mkdir -p "$dir"
# Symbols stripped as cargo-deb strips the .deb's: the same binary in every artefact, 2.6 MB less.
strip --strip-unneeded -o "$dir/delivery-tracker" "$binary"
chmod 0755 "$dir/delivery-tracker"
install -m 0644 "$repo/README.md" "$repo/LICENSE" "$repo/.env.example" \
  "$repo/deploy/debian/delivery-tracker.service" "$repo/deploy/debian/delivery-tracker.env" "$dir/"
# The docs the README links to, as committed.
(cd "$repo" && git ls-files docs) | while read -r file; do
  install -D -m 0644 "$repo/$file" "$dir/$file"
done
mtime=$(git -C "$repo" log -1 --format=%ct)
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" -C "$stage" -cf - "$name" |
  gzip -n -9 >"$out/$name.tar.gz"

echo "==> $(basename "$deb")"
cp "$deb" "$out/"

image=delivery-tracker-$version-image.tar
if [ "${NO_IMAGE:-0}" = 1 ]; then
  echo "==> $image: left out (NO_IMAGE=1)"
else
  echo "==> $image"
  "$here/container/build-image.sh" "$dir/delivery-tracker" "$stage/container" "localhost/delivery-tracker:$version" "$out/$image"
fi

(cd "$out" && sha256sum -- *.tar.gz *.tar *.deb >SHA256SUMS)
echo
ls -l "$out"
echo "check with: (cd $out && sha256sum -c SHA256SUMS)"
