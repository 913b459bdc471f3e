package main

import (
	"encoding/json"
	"flag"
	"path/filepath"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/eval"
)

var (
	sciFactDir   = testkit.SharedDir("bench/scifact")
	largeVault   = testkit.SharedDir("corpora/large")
	gloveModel   = filepath.Join(sharedModels, "glove-120k")
	baselineFile = filepath.Join("..", "eval", "baseline.json")
	largeQueries = filepath.Join("..", "eval", "large-queries.jsonl")
	paraQueries  = filepath.Join("..", "eval", "paraphrase-queries.jsonl")
)

// TestEvalBaseline is the CI regression check of issue 7: the fixed
// 1,000-document SciFact subset and the 1,000-note subsets of the vault
// reference set and of the paraphrase set (issue 16), every mode, against
// eval/baseline.json. It fails when a mode's nDCG@10 drops more than 0.02
// below the committed baseline.
func TestEvalBaseline(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes three 1,000-note vaults")
	}
	isolate(t)
	tests := []struct {
		name string
		args []string
	}{
		{"scifact train subset", []string{"--beir", sciFactDir, "--split", "train", "--subset", "1000"}},
		{"vault reference set subset", []string{"--queries", largeQueries, "--vault", largeVault, "--subset", "1000"}},
		{"paraphrase set subset", []string{"--queries", paraQueries, "--vault", largeVault, "--subset", "1000"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"eval", "--model", gloveModel, "--json", "--baseline", baselineFile}, tc.args...)
			code, out := runCaptured(t, args...)
			var rep eval.Report
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("exit %d, output not a JSON report: %v\n%s", code, err, out)
			}
			if len(rep.Modes) != len(eval.Modes) || rep.Queries == 0 {
				t.Errorf("report %s: %d modes, %d queries", rep.Set, len(rep.Modes), rep.Queries)
			}
			for _, m := range rep.Modes {
				t.Logf("%s %s: nDCG@10 %.4f recall@10 %.4f MRR@10 %.4f", rep.Set, m.Mode, m.NDCG, m.Recall, m.MRR)
			}
			if code != 0 {
				t.Fatalf("exit %d: nDCG@10 regressed against %s (see stderr)", code, baselineFile)
			}
		})
	}
}

var largeDB = flag.String("large.db", "", "existing index of ../shared/corpora/large built with glove-120k, for TestConceptQueryRescue (default: index it into a temporary folder)")

// TestConceptQueryRescue is the hard constraint of issue 3 on the default
// ranking settings: on the whole large corpus, the concept query "how to
// handle authentication failures" brings up, in hybrid mode, a section that
// BM25 alone ranks below 10: the Authentication section of
// SSH-Remoting-in-PowerShell.md. It also checks the premise (BM25 alone
// ranks that section below 10), so a BM25 change cannot make it pass
// vacuously. It indexes the corpus (about 17k notes) unless -large.db names
// an index of it, and runs the whole-corpus checks of issue 16 on the same
// index (wholeCorpusKeyword).
func TestConceptQueryRescue(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes the whole large corpus")
	}
	isolate(t)
	db := *largeDB
	if db == "" {
		db = filepath.Join(t.TempDir(), "index.db")
		if code, out := runCaptured(t, "index", "--vault", largeVault, "--db", db, "--model", gloveModel, "--json"); code != 0 {
			t.Fatalf("index: exit %d\n%s", code, out)
		}
	}
	const (
		query   = "how to handle authentication failures"
		path    = "PowerShell-Docs/reference/docs-conceptual/security/remoting/SSH-Remoting-in-PowerShell.md"
		section = "Authentication"
	)
	rank := func(mode, k string) int {
		t.Helper()
		code, out := runCaptured(t, "search", "--db", db, "--mode", mode, "-k", k, "--json", query)
		var hits []jsonHit
		if err := json.Unmarshal([]byte(out), &hits); err != nil || code != 0 {
			t.Fatalf("search --mode %s: exit %d, %v\n%s", mode, code, err, out)
		}
		for i, h := range hits {
			if h.Path == path && h.Section == section {
				return i + 1
			}
		}
		return 0
	}
	if r := rank("bm25", "30"); r <= 10 {
		t.Fatalf("premise broken: BM25 alone ranks %s § %s at %d (0 = beyond 30), not below 10; choose another concept query for this check", path, section, r)
	}
	if r := rank("hybrid", "10"); r == 0 {
		t.Errorf("hybrid search does not bring up %s § %s in its first 10 for %q", path, section, query)
	} else {
		t.Logf("hybrid rank %d", r)
	}
	t.Run("issue 16", func(t *testing.T) { wholeCorpusKeyword(t, db) })
}

// wholeCorpusKeyword checks, on an index of the whole large corpus, that
// an identifier matched as written ranks its note first although the
// porter stemmer conflates it with another: EnableQuickCustomization (5
// times in cmfctoolbar-class.md, nowhere else) and EnableQuickCustomize
// (cmfctoolbarmenubutton-class.md) share the stem "enablequickcustom", and
// before issue 16 the second note came first for the first word.
func wholeCorpusKeyword(t *testing.T, db string) {
	for _, tc := range []struct{ query, path string }{
		{"EnableQuickCustomization", "cpp-docs/docs/mfc/reference/cmfctoolbar-class.md"},
		{"EnableQuickCustomize", "cpp-docs/docs/mfc/reference/cmfctoolbarmenubutton-class.md"},
	} {
		for _, mode := range []string{"bm25", "hybrid"} {
			code, out := runCaptured(t, "search", "--db", db, "--mode", mode, "-k", "5", "--json", tc.query)
			var hits []jsonHit
			if err := json.Unmarshal([]byte(out), &hits); err != nil || code != 0 {
				t.Fatalf("search --mode %s %s: exit %d, %v\n%s", mode, tc.query, code, err, out)
			}
			if len(hits) == 0 || hits[0].Path != tc.path {
				t.Errorf("search --mode %s %s: first hit %v, want %s", mode, tc.query, hits, tc.path)
			}
		}
	}
}

// isolate keeps the user's config, index and caches out of a test.
func isolate(t *testing.T) {
	t.Helper()
	for _, k := range []string{"XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"} {
		t.Setenv(k, t.TempDir())
	}
	for _, k := range []string{"VAULTCTX_CONFIG", "VAULTCTX_DB", "VAULTCTX_VAULT", "VAULTCTX_MODEL"} {
		t.Setenv(k, "")
	}
}

func TestEvalCommand(t *testing.T) {
	isolate(t)
	beir := testkit.TinyBEIR(t)

	t.Run("bm25 finds both documents", func(t *testing.T) {
		code, out := runCaptured(t, "eval", "--beir", beir, "--split", "train", "--mode", "bm25", "--json")
		var rep eval.Report
		if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
			t.Fatalf("exit %d, %v: %s", code, err, out)
		}
		if rep.Set != filepath.Base(beir)+"/train" || rep.Queries != 2 || len(rep.Modes) != 1 || rep.Modes[0].MRR != 1 {
			t.Errorf("report = %+v", rep)
		}
		if want := config.Defaults().Search.Summary() + " (vector_weight from default)"; rep.Settings != want {
			t.Errorf("report settings = %q, want the default [search] table %q", rep.Settings, want)
		}
	})

	t.Run("baseline: record, pass, then fail on a raised baseline", func(t *testing.T) {
		base := filepath.Join(t.TempDir(), "baseline.json")
		args := []string{"eval", "--beir", beir, "--split", "train", "--mode", "bm25", "--baseline", base}
		if code, _ := runCaptured(t, append(args, "--write-baseline")...); code != 0 {
			t.Fatalf("--write-baseline: exit %d", code)
		}
		if code, _ := runCaptured(t, args...); code != 0 {
			t.Fatalf("check against own baseline: exit %d", code)
		}
		b, err := eval.ReadBaseline(base)
		if err != nil {
			t.Fatal(err)
		}
		set := filepath.Base(beir) + "/train"
		if b.NDCG[set]["bm25"] != 1 {
			t.Fatalf("recorded baseline = %v", b.NDCG)
		}
		b.NDCG[set]["bm25"] = 1.5 // unreachable: any real run is a regression
		if err := b.WriteFile(base); err != nil {
			t.Fatal(err)
		}
		if code, _ := runCaptured(t, args...); code != 1 {
			t.Errorf("regression: exit %d, want 1", code)
		}
	})

	usage := []struct {
		name string
		args []string
	}{
		{"nothing to evaluate", []string{"eval"}},
		{"both inputs", []string{"eval", "--beir", beir, "--queries", largeQueries}},
		{"vectors without a model", []string{"eval", "--beir", beir, "--split", "train", "--mode", "hybrid"}},
		{"missing split", []string{"eval", "--beir", beir, "--split", "test", "--mode", "bm25"}},
		{"write-baseline without file", []string{"eval", "--beir", beir, "--write-baseline"}},
		{"subset of an existing index", []string{"eval", "--queries", largeQueries, "--db", "x.db", "--subset", "10"}},
	}
	for _, tc := range usage {
		t.Run(tc.name, func(t *testing.T) {
			if code, _ := runCaptured(t, tc.args...); code != 2 {
				t.Errorf("exit %d, want 2 (usage error)", code)
			}
		})
	}
}
