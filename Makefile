# Two commands: `make run` serves the app on http://127.0.0.1:8080 (SQLite in ./data);
# `make test` runs every check and test suite.

CARGO ?= cargo
BIN := target/release/delivery-tracker
# cargo-nextest when present (parallel, per-test processes), plain cargo test otherwise.
CARGO_TEST := $(shell $(CARGO) nextest --version >/dev/null 2>&1 && echo "nextest run --no-fail-fast" || echo "test --no-fail-fast")

.PHONY: run test web release lint test-rust test-web test-e2e bench abuse

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

lint: web/node_modules/.package-lock.json
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets --locked -- -D warnings
	cd web && npm run typecheck && npm run lint

# The OpenID tests run the npm oidc-provider from web/node_modules.
test-rust: web/node_modules/.package-lock.json
	$(CARGO) $(CARGO_TEST) --locked

test-web: web/node_modules/.package-lock.json
	cd web && npm test

test-e2e: release
	cd web && npm run e2e

# End-to-end last so the output closes with a test runner's own summary.
test: lint test-rust test-web test-e2e

# Figures for the issue notes (not a test: nothing here is timed in CI).
bench: release
	$(CARGO) run --release --locked -p bench --bin sync-bench
	cd web && npx tsx bench/history-3650.ts && npx tsx bench/captcha-solve.ts

# The attacks of issue 10 against the release binary, figures in a table (not a test). With
# BEFORE=path/to/an/older/binary the same attacks run against it too, side by side.
abuse: release
	$(CARGO) run --release --locked -p bench --bin abuse -- --after $(BIN) --before "$(BEFORE)"
