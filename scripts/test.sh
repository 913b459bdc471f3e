#!/usr/bin/env bash
# Runs every check CI runs: gofmt, go vet and the whole test suite.
# Needs Go 1.26+, a C compiler, and ../shared beside the repository (test data).
set -euo pipefail
cd "$(dirname "$0")/.."
export CGO_ENABLED=1
tags="sqlite_fts5"

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet -tags "$tags" ./...
go test -tags "$tags" -count=1 "$@" ./...
