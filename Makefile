# Two commands: `make run` serves the app on http://127.0.0.1:8080 (SQLite in ./data);
# `make test` runs every check and test suite.

CARGO ?= cargo
# `make run`, `make bench` and `make abuse` use the optimised binary with the web app embedded.
BIN := target/release/delivery-tracker
# cargo-nextest when present (parallel, per-test processes), plain cargo test otherwise.
CARGO_TEST := $(shell $(CARGO) nextest --version >/dev/null 2>&1 && echo "nextest run --no-fail-fast" || echo "test --no-fail-fast")

.PHONY: run test web release lint lint-rust lint-web checks-rust checks-web test-rust test-web test-e2e test-binary bench abuse

run: release
	./$(BIN) serve

# npm ci only when the lock file changed since the last install.
web/node_modules/.package-lock.json: web/package-lock.json web/package.json
	cd web && npm ci --no-audit --no-fund

web: web/node_modules/.package-lock.json
	cd web && npm run build

# The binary embeds web/dist, so the web app is built first.
release: web
	$(CARGO) build --release --locked -p server

lint: lint-rust lint-web

lint-rust:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets --locked -- -D warnings

lint-web: web/node_modules/.package-lock.json
	cd web && npm run typecheck && npm run lint

# The OpenID tests run the npm oidc-provider from web/node_modules.
test-rust: web/node_modules/.package-lock.json
	$(CARGO) $(CARGO_TEST) --locked

test-web: web/node_modules/.package-lock.json
	cd web && npm test

# The end-to-end specs drive the debug binary the Rust tests already built (the integration
# tests start it too), so `make test` compiles the server twice (clippy, tests) and not a third
# time with LTO. A debug build reads web/dist from disk at run time: the web app is still built
# first, and a web change needs no Rust rebuild. The same `cargo test` build, so after
# test-rust this is a no-op.
test-binary:
	$(CARGO) test --no-run --locked

test-e2e: web test-binary
	cd web && npm run e2e

# The Rust half (lint, then tests) and the web half (lint, unit tests) run side by side:
# alone, each leaves a core idle much of the time (linking, waits on the database and the
# browser), so together they take about as long as the longer half. Each step's output is
# printed in one piece when it ends. End-to-end last, so the output closes with a test
# runner's own summary.
test: web/node_modules/.package-lock.json
	$(MAKE) --no-print-directory -j2 --output-sync=target checks-rust checks-web
	$(MAKE) --no-print-directory test-e2e

checks-rust:
	$(MAKE) lint-rust
	$(MAKE) test-rust

checks-web: web/node_modules/.package-lock.json
	$(MAKE) lint-web
	$(MAKE) test-web

# Figures for the issue notes (not a test: nothing here is timed in CI).
bench: release
	$(CARGO) run --release --locked -p bench --bin sync-bench
	cd web && npx tsx bench/history-3650.ts && npx tsx bench/captcha-solve.ts && npx tsx bench/first-load.ts

# The attacks of issue 10 against the release binary, figures in a table (not a test). With
# BEFORE=path/to/an/older/binary the same attacks run against it too, side by side.
abuse: release
	$(CARGO) run --release --locked -p bench --bin abuse -- --after $(BIN) --before "$(BEFORE)"
