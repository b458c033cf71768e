# The two commands of the README:
#   make demo   compile Andorra, point releases/current at it, create a demo
#               account, serve releases/ (and the playground) on 127.0.0.1:8080
#   make test   set up this machine and run every test
GO       ?= go
# The approved toolchain (the machine's Go 1.26.8 has called standard-library
# vulnerabilities); a toolchain line in go.mod alone is ignored by a fresh machine's Go.
export GOTOOLCHAIN ?= go1.27.3
DATA     ?= ../shared/data
RELEASES ?= releases
VERSION  ?= andorra-demo
LISTEN   ?= 127.0.0.1:8080

.PHONY: all build setup setup-demo test demo release bench lint fuzz clean

all: build

build:
	$(GO) build -o bin/mapc ./cmd/mapc
	CGO_ENABLED=0 $(GO) build -o bin/mapd ./cmd/mapd

# setup-demo: libgdal-dev (mapc links GDAL) and the Go modules. setup: that,
# then what only the tests use (GDAL's tools, Chromium, nginx, npm packages,
# PostgreSQL and Redis started).
setup-demo:
	scripts/setup-demo

setup:
	scripts/setup

# Every test at full size, the ledger's crash and concurrency tests again
# with its invariant checks compiled in (a few seconds), then every test
# again under the race detector with -short (smaller random samples), which
# keeps CI within minutes on two cores. scripts/web-check: the committed
# playground page matches its sources, and the OpenAPI document passes
# Redocly's linter.
INVARIANT_TESTS = TestBoltCrashMidLoad|TestBoltJournalWraps|TestBoltMixedOutcomes|TestBoltContract|TestBoltDuplicate|TestBoltDiskFull
test: setup
	$(GO) vet ./...
	scripts/vulncheck
	scripts/web-check
	$(GO) test -count=1 -timeout 20m ./...
	$(GO) test -tags invariants -count=1 -timeout 5m -run '$(INVARIANT_TESTS)' ./pkg/ledger/...
	$(GO) test -race -short -count=1 -timeout 20m ./...

release: build
	@if [ ! -d $(RELEASES)/$(VERSION) ]; then \
		bin/mapc build --osm $(DATA)/andorra.osm.pbf --dem $(DATA)/dem/N42E001.hgt.zip \
			--data-version $(VERSION) --out $(RELEASES); \
	else echo "release $(RELEASES)/$(VERSION) exists"; fi

# The demo serves the directory of releases and follows its current pointer,
# so `bin/mapc release use --dir $(RELEASES) V` swaps what it serves, as in
# production (docs/operations.md). The pointer is set only when missing: a
# release chosen since is kept. The demo account is created once; its
# secret key is kept in $(RELEASES)/demo-key (the ledger stores only its
# hash). The playground is on when LISTEN is a loopback address only: the
# page takes secret keys (docs/playground.md).
demo: setup-demo release
	@if [ ! -e $(RELEASES)/current ]; then bin/mapc release use --dir $(RELEASES) $(VERSION); fi
	@if [ ! -s $(RELEASES)/demo-key ]; then \
		bin/mapd account create --credits 1000000 --ledger $(RELEASES)/ledger.db > $(RELEASES)/demo-account.json && \
		sed -n 's/.*"account_id": *"\([^"]*\)".*/\1/p' $(RELEASES)/demo-account.json > $(RELEASES)/demo-account-id && \
		grep -o '"sk_[A-Za-z0-9]*"' $(RELEASES)/demo-account.json | tr -d '"' > $(RELEASES)/demo-key; \
	fi
	@echo "demo API key: $$(cat $(RELEASES)/demo-key)"
	@echo "while it serves: bin/mapd account show $$(cat $(RELEASES)/demo-account-id) --ledger $(RELEASES)/ledger.db (credits add, key rotate, usage export: docs/metering.md)"
	@case "$(LISTEN)" in \
		127.*|localhost:*|"[::1]:"*) pg=--playground; echo "playground: http://$(LISTEN)/playground/";; \
		*) pg=; echo "playground off: $(LISTEN) is not a loopback address";; \
	esac; \
	set -x; bin/mapd serve --data $(RELEASES) --listen $(LISTEN) --ledger $(RELEASES)/ledger.db $$pg

bench:
	scripts/bench

lint:
	gofmt -l . | tee /dev/stderr | (! read)
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

# Short runs of every fuzz target (go test -fuzz takes one target at a time).
fuzz:
	scripts/fuzz 20s

clean:
	rm -rf bin $(RELEASES)
