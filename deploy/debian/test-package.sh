#!/usr/bin/env bash
# Installs the .deb into a Debian 12 root (a chroot made with debootstrap, with systemd's
# files for systemd-analyze; PID 1 on a build machine or in CI is not systemd, so nothing can
# start the unit for real), then starts the service the way its unit says, read
# from the installed unit file: ExecStart as its User/Group, with its Environment,
# EnvironmentFile and WorkingDirectory, after making its StateDirectory= folders as systemd
# would. Checks /healthz, `delivery-tracker healthcheck`, the data directory's owner, a first
# scheduled backup in the settings file's example BACKUP_DIR, the admin command the docs give
# (run with sudo from /root, a folder the service user cannot read), a graceful stop, and that
# remove and purge keep the data.
# What this does not exercise: systemd itself (the sandboxing options, Restart=);
# `systemd-analyze verify` checks the unit's syntax when it is installed.
# Usage: test-package.sh DEB ROOT   (ROOT is made with debootstrap when it is not a Debian root)
set -euo pipefail
deb=$(realpath "$1")
root=$2
unit_name=delivery-tracker

say() { printf '\n--> %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

if [ ! -f "$root/etc/debian_version" ]; then
  command -v debootstrap >/dev/null || fail "debootstrap is missing (apt-get install debootstrap), and $root is not a Debian root"
  say "Making a Debian 12 root in $root with debootstrap"
  debootstrap --variant=minbase --include=adduser,ca-certificates,procps,sudo,systemd bookworm "$root" >/dev/null
fi

mounted=
server_pid=
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill "$server_pid"; fi
  if [ -n "$mounted" ]; then umount "$root/proc"; fi
}
trap cleanup EXIT
mount -t proc proc "$root/proc" && mounted=1
in_root() { chroot "$root" "$@"; }

say "A clean start: the package purged and its data removed from the test root"
in_root dpkg --purge "$unit_name" >/dev/null 2>&1 || true
rm -rf "$root/var/lib/delivery-tracker"

say "dpkg -i $(basename "$deb")"
cp "$deb" "$root/tmp/package.deb"
in_root dpkg -i /tmp/package.deb

unit=
for dir in /usr/lib/systemd/system /lib/systemd/system; do
  if [ -f "$root$dir/$unit_name.service" ]; then unit=$dir/$unit_name.service; fi
done
[ -n "$unit" ] || fail "the package installed no $unit_name.service"
echo "unit: $unit"

# One value of KEY from the [Service] section (the last one wins, as in systemd); every value
# with `all`.
service_values() {
  awk -v key="$1" '
    /^\[/ { section = $0; next }
    section == "[Service]" && index($0, key "=") == 1 { print substr($0, length(key) + 2) }
  ' "$root$unit"
}
service_value() { service_values "$1" | tail -n 1; }

user=$(service_value User)
group=$(service_value Group)
workdir=$(service_value WorkingDirectory)
exec_start=$(service_value ExecStart)
[ -n "$user" ] && [ -n "$exec_start" ] || fail "the unit has no User or ExecStart"

say "The package made the service's user and its directories"
in_root getent passwd "$user" || fail "no user $user"
read -ra state_dirs <<<"$(service_value StateDirectory)"
state=/var/lib/${state_dirs[0]}
# What systemd does at each start: every StateDirectory= folder exists, the service user's, with
# StateDirectoryMode (the package's postinst made them already).
for dir in "${state_dirs[@]}"; do
  in_root install -d -o "$user" -g "$group" -m "$(service_value StateDirectoryMode)" "/var/lib/$dir"
done
for dir in "${state_dirs[@]}"; do
  # Names from inside the root: its uids are not the host's.
  owner=$(in_root stat -c %U "/var/lib/$dir")
  [ "$owner" = "$user" ] || fail "/var/lib/$dir is owned by $owner, not $user"
done
in_root ls -ld "${state_dirs[@]/#//var/lib/}" /etc/delivery-tracker /etc/delivery-tracker/delivery-tracker.env

# The environment systemd would give the process: Environment= lines, then each
# EnvironmentFile (a leading `-` means optional), whose values win.
port=$(( 20000 + RANDOM % 20000 ))
env_file_edit=
envs=(PATH=/usr/local/bin:/usr/bin:/bin "HOME=$state" "USER=$user")
while read -r line; do
  [ -n "$line" ] || continue
  case "$line" in *\"*|*\'*) fail "quoted Environment= values are not handled here: $line" ;; esac
  read -ra words <<<"$line"
  envs+=("${words[@]}")
done < <(service_values Environment)
while read -r file; do
  optional=
  case "$file" in -*) optional=1; file=${file#-} ;; esac
  if [ ! -f "$root$file" ]; then
    [ -n "$optional" ] || fail "EnvironmentFile $file is missing"
    continue
  fi
  if [ -z "$env_file_edit" ]; then
    # The test listens on a free port and turns on the example BACKUP_DIR, the way an operator
    # would: in the settings file.
    say "Setting LISTEN=127.0.0.1:$port and the example BACKUP_DIR in $file"
    sed -i -e "s/^LISTEN=.*/LISTEN=127.0.0.1:$port/" -e "s/^#BACKUP_DIR=/BACKUP_DIR=/" "$root$file"
    backup_dir=$(sed -n 's/^BACKUP_DIR=//p' "$root$file")
    [ -n "$backup_dir" ] || fail "$file has no example BACKUP_DIR"
    env_file_edit=1
  fi
  while IFS= read -r setting; do
    case "$setting" in ''|'#'*) continue ;; esac
    envs+=("$setting")
  done <"$root$file"
done < <(service_values EnvironmentFile)
printf '  %s\n' "${envs[@]}"

say "Starting, as $user:$group in $workdir: $exec_start"
# shellcheck disable=SC2086 # ExecStart is split on spaces, as systemd does for unquoted words.
chroot --userspec="$user:$group" "$root" /usr/bin/env -i "${envs[@]}" \
  /bin/sh -c 'cd "$0" && exec "$@"' "$workdir" $exec_start &
server_pid=$!

healthy=
for _ in $(seq 1 60); do
  if body=$(curl -fsS "http://127.0.0.1:$port/healthz" 2>/dev/null); then healthy=1; break; fi
  kill -0 "$server_pid" 2>/dev/null || fail "the service exited before answering"
  sleep 0.5
done
[ -n "$healthy" ] || fail "no answer from /healthz on port $port"
echo "GET /healthz: $body"
[ "$body" = '{"status":"ok"}' ] || fail "unexpected /healthz body"

# chroot, env and sh each exec the next, so the started PID is the server's.
running_as=$(ps -o uid= -p "$server_pid" | tr -d ' ')
echo "the server process runs as uid $running_as"
[ "$running_as" = "$(in_root id -u "$user")" ] || fail "runs as uid $running_as, not $user"

say "The first scheduled backup, in $backup_dir"
backup=
for _ in $(seq 1 60); do
  backup=$(in_root sh -c "ls $backup_dir/delivery-tracker-*.tar.gz 2>/dev/null" || true)
  [ -n "$backup" ] && break
  kill -0 "$server_pid" 2>/dev/null || fail "the service exited"
  sleep 0.5
done
[ -n "$backup" ] || fail "no scheduled backup in $backup_dir"
in_root ls -l "$backup"
[ "$(in_root stat -c %U "$backup")" = "$user" ] || fail "the backup is not $user's"

say "The admin command from docs/installing.md, run with sudo from /root"
admin_command=$(grep -o "sudo -u delivery-tracker sh -c '[^']*'" "$(dirname "$0")/../../docs/installing.md" | head -n 1)
[ -n "$admin_command" ] || fail "docs/installing.md gives no admin command"
echo "$admin_command"
in_root sh -c "command -v sudo >/dev/null || apt-get install -y -qq sudo >/dev/null"
listing=$(in_root env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root sh -c "cd /root && $admin_command") ||
  fail "the admin command failed"
echo "$listing"
echo "$listing" | grep -q "0 user(s)" || fail "unexpected listing"

say "delivery-tracker healthcheck (the container's probe) as $user"
chroot --userspec="$user:$group" "$root" /usr/bin/env -i "${envs[@]}" /usr/bin/delivery-tracker healthcheck

say "The database is in $state, owned by $user"
in_root ls -l "$state"
db_owner=$(in_root sh -c "stat -c %U $state/*.db")
[ "$db_owner" = "$user" ] || fail "database owned by $db_owner"

say "Stopping with SIGTERM (systemd's KillSignal)"
kill -TERM "$server_pid"
status=0
wait "$server_pid" || status=$?
server_pid=
[ "$status" = 0 ] || fail "the server exited with $status on SIGTERM"
echo "exited 0"

say "dpkg -r keeps the data and the user"
in_root dpkg -r "$unit_name"
[ ! -e "$root/usr/bin/delivery-tracker" ] || fail "binary left after remove"
ls "$root$state"/*.db >/dev/null || fail "data removed by dpkg -r"
in_root getent passwd "$user" >/dev/null || fail "user removed"

say "Installing again over the kept data and user"
in_root dpkg -i /tmp/package.deb >/dev/null

say "dpkg --purge keeps the data too"
in_root dpkg --purge "$unit_name"
ls "$root$state"/*.db >/dev/null || fail "data removed by purge"
[ ! -e "$root/etc/delivery-tracker/delivery-tracker.env" ] || fail "settings left after purge"

if command -v systemd-analyze >/dev/null; then
  say "systemd-analyze verify (the unit as installed)"
  in_root dpkg -i /tmp/package.deb >/dev/null
  systemd-analyze verify --root="$root" "$unit" || fail "systemd-analyze verify"
  in_root dpkg --purge "$unit_name" >/dev/null
else
  say "systemd-analyze is missing: the unit's syntax was not verified"
fi

rm -f "$root/tmp/package.deb"
echo
echo "package test passed: installed, started as $user from the installed unit, /healthz ok, a scheduled backup in $backup_dir, the documented admin command ok, stopped cleanly, data kept on remove and purge"
