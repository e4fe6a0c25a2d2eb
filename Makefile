# Gatehouse: every target installs what it needs. The two a new user runs are `make run` and `make test`.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

OPA_VERSION := v1.22.3
OPA_DIR     := $(HOME)/.cache/gatehouse/opa-$(OPA_VERSION)
OPA         := $(OPA_DIR)/opa
BUNDLE_DIR  := target/bundle
BUNDLE      := $(BUNDLE_DIR)/bundle.tar.gz
COVERAGE_MIN := 95
MVN         := mvn -B -ntp

.PHONY: replicas help opa policy policy-java-vocabulary policy-lint policy-reason-codes reason-codes policy-fmt policy-check policy-test policy-families policy-cost policy-golden-suites policy-bundle-errors policy-mutation policy-mutation-changed bundle browser build check test run demo conformance bench bench-compare clean

help:
	@echo "make run    - build and start the gateway on the embedded default backends"
	@echo "make test   - every check and test (policies, Wasm bundle, Java)"
	@echo "make check  - the inner loop before a commit: policy checks and unit tests, Java unit tests (a few minutes)"
	@echo "make policy - only the policy checks (families, lints, reason codes, fmt, check --strict, test + coverage)"
	@echo "make policy-mutation - do the policy tests notice rule changes? report in target/policy-mutation.txt"
	@echo "make demo   - a scripted MCP client session against a running make run"
	@echo "make replicas - two gateway replicas on one embedded PostgreSQL (README: Running several replicas)"
	@echo "make bench  - JMH benchmarks and the load harness, results in bench/results.md and results.json"
	@echo "make bench-compare BASE=<rev> - the policies of <rev> vs the working tree's: same decisions? time per evaluation"

# The pinned OPA, built from the Go module proxy into a cache outside the repository and reused while
# `opa version` matches the pin. No other download route exists here. (The version is captured before it is
# compared: `opa version | grep -q` under pipefail fails at random when grep exits first and opa gets SIGPIPE.)
opa:
	@if [ -x "$(OPA)" ] && [[ "$$("$(OPA)" version 2>/dev/null)" == *"Version: $(OPA_VERSION:v%=%)"* ]]; then exit 0; fi; \
	command -v go >/dev/null || { echo "Go is needed once, to build OPA $(OPA_VERSION) (go install)"; exit 1; }; \
	echo ">> building OPA $(OPA_VERSION) with go install into $(OPA_DIR) (first time only, takes a few minutes)"; \
	mkdir -p "$(OPA_DIR)"; \
	GOBIN="$(OPA_DIR)" GOFLAGS=-mod=mod go install github.com/open-policy-agent/opa@$(OPA_VERSION); \
	[[ "$$("$(OPA)" version)" == *"Version: $(OPA_VERSION:v%=%)"* ]] || { echo "built OPA does not report $(OPA_VERSION)"; exit 1; }; \
	echo ">> OPA $(OPA_VERSION) ready"

policy: policy-families policy-lint policy-reason-codes policy-java-vocabulary policy-fmt policy-check policy-test policy-golden-suites policy-cost policy-bundle-errors

policy-families:
	@scripts/check-families.sh

# Java keeps no copy of the policy's vocabulary (modes, ceilings, wiki folders, reason codes): the served revision
# says what they are (docs/design.md, "One served revision").
policy-java-vocabulary:
	@python3 scripts/check-java-vocabulary.py

# `not f(input.x)` never fires when input.x is absent (docs/design.md, "Decision contract").
policy-lint:
	@scripts/check-negations.sh

# policies/REASON_CODES.md must match the rules' # METADATA; `make reason-codes` regenerates it.
policy-reason-codes: opa
	@python3 scripts/reason-codes.py "$(OPA)" --check

reason-codes: opa
	@python3 scripts/reason-codes.py "$(OPA)"

policy-fmt: opa
	@echo ">> opa fmt (fails on any diff)"
	@out="$$("$(OPA)" fmt --list policies policy-tests)"; if [ -n "$$out" ]; then echo "not formatted (run: $(OPA) fmt -w policies policy-tests):"; echo "$$out"; exit 1; fi

policy-check: opa
	@echo ">> opa check --strict with schemas/decision-input.json"
	@"$(OPA)" check --strict --schema schemas/decision-input.json policies
	@"$(OPA)" check --strict policies policy-tests

policy-test: opa
	@echo ">> opa test with coverage (minimum $(COVERAGE_MIN)% of policies/)"
	@mkdir -p target
	@"$(OPA)" test --timeout 120s policies policy-tests
	@"$(OPA)" test --timeout 120s --coverage --format json policies policy-tests > target/policy-coverage.json
	@python3 scripts/coverage-gate.py target/policy-coverage.json policies/ $(COVERAGE_MIN)

# Every golden suite is replayed: golden_test.rego skips a suite whose entry point its `evaluate` does not know.
policy-golden-suites: opa
	@python3 scripts/check-golden-suites.py "$(OPA)"

# The policy's work grows linearly with the width of a call: evaluation counts of `opa eval --profile`, not time.
policy-cost: opa
	@echo ">> evaluations grow linearly with argument keys and path segments"
	@python3 scripts/check-eval-counts.py "$(OPA)"

# Mutation testing of the policies: each mutant changes one comparison, negation, condition, constant or data
# entry under policies/ and `opa test` must fail on it; under 90 % killed fails (survivors with file:line are
# printed). Equivalent mutants are reviewed in policy-tests/mutation-equivalent.txt.
policy-mutation: opa
	@python3 scripts/policy-mutation.py --opa "$(OPA)" --min 90 --jobs 2

# The same for the mutants on the lines of policies/ the working tree changed (none: nothing to run), for `make check`.
policy-mutation-changed: opa
	@python3 scripts/policy-mutation.py --opa "$(OPA)" --min 90 --jobs 2 --changed HEAD \
	  --report target/policy-mutation-changed.txt

# A broken policy source (Rego syntax, a schema or data file that is not JSON) stops make bundle with OPA's or the
# file's own message, never a Python traceback (a few seconds: each copy fails before anything is compiled).
policy-bundle-errors: opa
	@OPA="$(OPA)" scripts/check-bundle-errors.sh

# The Wasm bundle the embedded PDP loads, and a Rego bundle for a remote OPA, both signed (OPA bundle signing,
# RS256) with the local key pair of scripts/bundle-signing-key.sh, or with BUNDLE_SIGNING_KEY (a PEM private key)
# when set. Both are built from one staged source (scripts/bundle-source.py): policies/, every tool input schema
# and the reason catalogue, so one signed revision holds everything the gateway enforces. Entry points are the
# rules annotated `entrypoint: true`. The signature carries `iat`, which orders revisions (an older one is refused
# as a rollback). Each is written beside its target and moved into place, so a watching gateway never reads half a
# file.
BUNDLE_SIGNING_KEY ?= $(shell scripts/bundle-signing-key.sh)/private.pem
bundle: opa
	@mkdir -p $(BUNDLE_DIR)
	@echo "{\"iat\": $$(date +%s)}" > $(BUNDLE_DIR)/claims.json
	@echo ">> opa build -t wasm --signing-key $(BUNDLE_SIGNING_KEY) -> $(BUNDLE)"
	@OPA="$(OPA)" scripts/build-bundle.sh --wasm -o $(BUNDLE) -- \
	  --signing-key "$(abspath $(BUNDLE_SIGNING_KEY))" --claims-file $(CURDIR)/$(BUNDLE_DIR)/claims.json
	@echo ">> opa build (Rego, signed) -> $(BUNDLE_DIR)/rego-bundle.tar.gz, for a remote OPA sidecar (gatehouse.policy.engine=remote)"
	@OPA="$(OPA)" scripts/build-bundle.sh -o $(BUNDLE_DIR)/rego-bundle.tar.gz -- \
	  --signing-key "$(abspath $(BUNDLE_SIGNING_KEY))" --claims-file $(CURDIR)/$(BUNDLE_DIR)/claims.json

# Headless Chromium (Debian package) for the matrix page's browser test in cli/; installed only when missing.
browser:
	@scripts/ensure-chromium.sh

# The inner loop, what a developer runs before each commit (README, "Testing"): the policy checks and unit tests,
# the mutants on the policy lines the working tree changed, the bundle, and every module's unit tests (surefire) with
# small generated runs and without the slow tier (@Slow). Not the end-to-end *IT tests, not the whole mutation run.
# Two test forks and C1-compiled JVMs: one fork left a core idle (user+sys time equalled wall time), and short test
# JVMs spend more on C2 compiling than C2 code saves them (measured in README, "Testing"). C1 alone gets a 48 MB code
# cache by default, which a fork running many test contexts fills ("Out of space in CodeCache"): it gets tiered's 240.
CHECK_RUNS := -Dgatehouse.differential.count=1000 -Dgatehouse.confinement.cases=2000 -Dgatehouse.parity.count=1000 \
  -DexcludedGroups=slow -DforkCount=2 '-DargLine=-XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=240m'
check: policy policy-mutation-changed bundle
	@echo ">> mvn test (unit tests of every module; slow tier and end-to-end tests: make test)"
	@MAVEN_OPTS="$(MAVEN_OPTS) -XX:TieredStopAtLevel=1" $(MVN) test $(CHECK_RUNS)

# Everything, what CI runs. The differential test (memo vs fresh Wasm vs opa eval) decides 10^5 generated inputs
# here, 10^4 in a plain verify.
test: policy policy-mutation bundle browser
	@echo ">> mvn verify"
	@$(MVN) verify -Dgatehouse.differential.count=100000

# The jars are removed first: re-shading an already shaded jar only grows original-*.jar.
build: bundle
	@rm -f sdk-facades/target/*.jar local-services/target/*.jar local-auth/target/*.jar gateway/target/*.jar bench/target/*.jar
	@$(MVN) -q -DskipTests install

# Ports are checked before building, so a second `make run` next to a running one changes nothing.
run:
	@scripts/check-ports.sh run
	@$(MAKE) --no-print-directory build
	@"$(CURDIR)/scripts/run.sh"

# Two gateway replicas on one (embedded) PostgreSQL, to try scale-out locally (README, "Running several replicas").
replicas:
	@scripts/check-ports.sh replicas
	@$(MAKE) --no-print-directory build
	@"$(CURDIR)/scripts/replicas.sh"

# A scripted session with a real MCP client against a running `make run`.
demo:
	@scripts/demo.sh

# The official MCP conformance scenarios against a running `make run` (baseline: conformance/baseline.yml).
conformance:
	@conformance/run.sh

bench: bundle
	@scripts/bench.sh

# A policy change against a baseline: BASE's policies (default HEAD) vs the working tree's, same inputs, one JVM.
# The bundle first: the sized inputs are built with the served tool schemas and rows (bench Fixture).
bench-compare: opa bundle
	@BASE="$(BASE)" scripts/bench-compare.sh

clean:
	@$(MVN) -q clean
	@rm -rf target
