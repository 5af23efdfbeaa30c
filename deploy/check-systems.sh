#!/usr/bin/env bash
# Checks that the release tarball's binary runs on fresh systems: for each Debian SUITE (default
# bookworm and trixie) a minimal root made with debootstrap (kept in /var/tmp for the next run),
# the tarball unpacked in it and `./delivery-tracker` started there as the README says, then
# /healthz and a guest sign-up answered over HTTP from outside; then the tarball's "as a service"
# commands from docs/installing.md run in the root (all but the systemctl line: no systemd runs
# there) and the installed files checked. Prints each system's glibc and the newest glibc symbol
# version the binary needs. Needs root and Debian's mirror. Not part of `make test`.
# Usage: check-systems.sh TARBALL [SUITE...]
set -euo pipefail
tarball=$(realpath "$1")
shift
if [ $# -gt 0 ]; then suites=("$@"); else suites=(bookworm trixie); fi
here=$(cd "$(dirname "$0")" && pwd)
docs=$here/../docs/installing.md

say() { printf '\n--> %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

name=$(basename "$tarball" .tar.gz)
work=$(mktemp -d)
tar xzf "$tarball" -C "$work"
needs=$(objdump -T "$work/$name/delivery-tracker" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
echo "$name: binary $(du -h "$work/$name/delivery-tracker" | cut -f1), tarball $(du -h "$tarball" | cut -f1); needs $needs or newer"
rm -rf "$work"

# The tarball's service install, as docs/installing.md gives it (the block after "As a service").
service_commands=$(awk '/As a service/ {found = 1} found && /^```sh/ {inside = 1; next} inside && /^```/ {exit} inside {print}' "$docs")
[ -n "$service_commands" ] || fail "no service install commands in $docs"

server_pid=
mounted=
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill "$server_pid"; fi
  if [ -n "$mounted" ]; then umount "$mounted" || true; fi
}
trap cleanup EXIT

for suite in "${suites[@]}"; do
  root=/var/tmp/delivery-tracker-check-$suite
  say "$suite in $root"
  if [ ! -f "$root/etc/debian_version" ]; then
    debootstrap --variant=minbase --include=adduser,ca-certificates,sudo "$suite" "$root" >/dev/null
  fi
  mount -t proc proc "$root/proc" && mounted=$root/proc
  echo "Debian $(cat "$root/etc/debian_version"), $(chroot "$root" ldd --version | head -n 1)"

  rm -rf "$root/opt/$name" "$root/opt/data"
  tar xzf "$tarball" -C "$root/opt"
  port=$(( 20000 + RANDOM % 20000 ))
  log=$root/opt/start.log
  chroot "$root" /bin/sh -c "cd /opt/$name && LISTEN=127.0.0.1:$port exec ./delivery-tracker" >"$log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 60); do
    grep -q '^Open ' "$log" && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$log"; fail "$suite: the binary exited"; }
    sleep 0.5
  done
  grep '^Open ' "$log" || { cat "$log"; fail "$suite: no start-up line"; }
  [ "$(curl -fsS "http://127.0.0.1:$port/healthz")" = '{"status":"ok"}' ] || fail "$suite: /healthz"
  curl -fsS -o /dev/null -w "guest sign-up: %{http_code}\n" -X POST "http://127.0.0.1:$port/api/v1/auth/guest" | grep -q ' 201' ||
    fail "$suite: guest sign-up"
  kill -TERM "$server_pid"
  wait "$server_pid" || fail "$suite: exit status $? on SIGTERM"
  server_pid=
  echo "$suite: started, /healthz ok, guest sign-up 201, clean stop"

  say "$suite: the tarball's service install from docs/installing.md"
  chroot "$root" /bin/sh -c "userdel delivery-tracker 2>/dev/null; rm -f /usr/bin/delivery-tracker /etc/systemd/system/delivery-tracker.service; rm -rf /etc/delivery-tracker" || true
  grep -v systemctl <<<"$service_commands" | sed 's/^/  /'
  chroot "$root" /bin/sh -c "set -e; cd /opt/$name; $(grep -v systemctl <<<"$service_commands")" ||
    fail "$suite: the documented install commands failed"
  chroot "$root" /bin/sh -c 'id delivery-tracker && ls -l /usr/bin/delivery-tracker /etc/systemd/system/delivery-tracker.service && ls -ld /etc/delivery-tracker /etc/delivery-tracker/delivery-tracker.env && delivery-tracker --version'
  umount "$root/proc"
  mounted=
done
echo
echo "checked on: ${suites[*]}"
