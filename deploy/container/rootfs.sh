#!/usr/bin/env bash
# Assembles the image's root filesystem in OUT/rootfs from BINARY: the binary, every shared
# library ldd says it loads (with the dynamic loader), the system's CA certificates, and
# /etc/passwd and /etc/group naming the app's user (10001); and OUT/data, the empty /data the
# Containerfile copies in owned by that user (COPY does not keep owners).
# Usage: rootfs.sh BINARY OUT
set -euo pipefail
binary=$1
out=$2
root="$out/rootfs"
rm -rf "$root" "$out/data"
mkdir -p "$root/usr/bin" "$root/etc/ssl/certs" "$root/tmp" "$out/data"
install -m 0755 "$binary" "$root/usr/bin/delivery-tracker"
# ldd prints `name => /path (addr)` for libraries and `/path (addr)` for the loader.
ldd "$binary" | awk '/=> \// {print $3} /^[ \t]*\// {print $1}' | while read -r lib; do
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done
cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
printf 'root:x:0:0:root:/:/nonexistent\ndelivery-tracker:x:10001:10001:Delivery Tracker:/data:/nonexistent\n' >"$root/etc/passwd"
printf 'root:x:0:\ndelivery-tracker:x:10001:\n' >"$root/etc/group"
printf 'hosts: files dns\n' >"$root/etc/nsswitch.conf"
chmod 1777 "$root/tmp"
chmod 0750 "$out/data"
cp "$(dirname "$0")/Containerfile" "$out/Containerfile"
