#!/usr/bin/env bash
# Runs every check CI runs: gofmt, go vet, the whole test suite (which
# includes scripts/install.sh end to end with `vaultctx doctor`, and the
# retrieval-quality regression check against eval/baseline.json), then the
# race detector over the pure-Go packages.
# Needs Go 1.26+, a C compiler, and ../shared beside the repository (test data).
# Extra arguments go to the main `go test` run (e.g. -short, -run X).
set -euo pipefail
cd "$(dirname "$0")/.."
export CGO_ENABLED=1
tags="sqlite_fts5"

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
echo "== go vet"
go vet -tags "$tags" ./...
echo "== go test"
go test -tags "$tags" -count=1 "$@" ./...
echo "== go test -race (pure-Go packages)"
go test -race -short -count=1 ./core/retrieve/ ./core/chunk/ ./core/note/ ./core/scrub/ ./core/hookio/ \
  ./core/settings/ ./core/eval/ ./core/vault/ ./core/config/ ./core/compress/
