# The two commands of the README:
#   make demo   compile Andorra, create a demo account, serve on 127.0.0.1:8080
#   make test   set up this machine and run every test
GO       ?= go
# The approved toolchain (the machine's Go 1.26.8 has called standard-library
# vulnerabilities); a toolchain line in go.mod alone is ignored by a fresh machine's Go.
export GOTOOLCHAIN ?= go1.27.3
DATA     ?= ../shared/data
RELEASES ?= releases
VERSION  ?= andorra-demo
LISTEN   ?= 127.0.0.1:8080

.PHONY: all build setup test demo release bench lint fuzz clean

all: build

build:
	$(GO) build -o bin/mapc ./cmd/mapc
	CGO_ENABLED=0 $(GO) build -o bin/mapd ./cmd/mapd

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
	$(GO) test -tags invariants -count=1 -timeout 5m -run '$(INVARIANT_TESTS)' ./pkg/ledger
	$(GO) test -race -short -count=1 -timeout 20m ./...

release: build
	@if [ ! -d $(RELEASES)/$(VERSION) ]; then \
		bin/mapc build --osm $(DATA)/andorra.osm.pbf --dem $(DATA)/dem/N42E001.hgt.zip \
			--data-version $(VERSION) --out $(RELEASES); \
	else echo "release $(RELEASES)/$(VERSION) exists"; fi

# The demo account is created once; its secret key is kept in
# $(RELEASES)/demo-key (the ledger stores only its hash).
demo: setup release
	@if [ ! -s $(RELEASES)/demo-key ]; then \
		bin/mapd account create --credits 1000000 --ledger $(RELEASES)/ledger.db > $(RELEASES)/demo-account.json && \
		grep -o '"sk_[A-Za-z0-9]*"' $(RELEASES)/demo-account.json | tr -d '"' > $(RELEASES)/demo-key; \
	fi
	@echo "demo API key: $$(cat $(RELEASES)/demo-key)"
	@echo "while it serves: bin/mapd account show $$(jq -r .account_id $(RELEASES)/demo-account.json) --ledger $(RELEASES)/ledger.db (credits add, key rotate, usage export: docs/metering.md)"
	bin/mapd serve --data $(RELEASES)/$(VERSION) --listen $(LISTEN) --ledger $(RELEASES)/ledger.db

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
