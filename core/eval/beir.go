package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Doc is one BEIR corpus document.
type Doc struct {
	ID    string
	Title string
	Text  string
}

// Query is one BEIR query.
type Query struct {
	ID   string
	Text string
}

// Dataset is a BEIR dataset with the judgments of one split.
type Dataset struct {
	// Name is the base name of the dataset directory, e.g. "scifact".
	Name string
	// Split is the qrels split that was read, e.g. "train".
	Split string
	// DocBudget is the document budget Subset cut the dataset to, 0 for the
	// whole dataset.
	DocBudget int
	// Docs holds the corpus in file order.
	Docs []Doc
	// Queries holds the queries that have judgments in Split, in
	// queries.jsonl order.
	Queries []Query
	// Qrels maps query id to its judgments (corpus id to grade).
	Qrels map[string]Grades
}

// LoadBEIR reads the BEIR dataset in dir: corpus.jsonl (one JSON object a
// line with "_id", "title", "text"), queries.jsonl ("_id", "text") and
// qrels/<split>.tsv (tab-separated query-id, corpus-id, integer score, with
// an optional header line). Other JSON fields are ignored; ids may be JSON
// strings or numbers.
//
// A malformed line, an empty or duplicate id, a duplicate judgment, or a
// judgment naming a query or document that does not exist is a *ParseError
// naming the file and line. Queries without judgments in the split are
// dropped. A missing file is an error wrapping fs.ErrNotExist.
func LoadBEIR(dir, split string) (*Dataset, error) {
	if split == "" || strings.ContainsAny(split, `/\`) {
		return nil, fmt.Errorf("load beir: bad split name %q", split)
	}
	ds := &Dataset{Name: filepath.Base(filepath.Clean(dir)), Split: split, Qrels: map[string]Grades{}}

	docIDs := map[string]bool{}
	err := readJSONL(filepath.Join(dir, "corpus.jsonl"), func(r beirRecord) error {
		if docIDs[string(r.ID)] {
			return fmt.Errorf("duplicate _id %q", r.ID)
		}
		docIDs[string(r.ID)] = true
		ds.Docs = append(ds.Docs, Doc{ID: string(r.ID), Title: r.Title, Text: r.Text})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load beir: %w", err)
	}

	var queries []Query
	queryIDs := map[string]bool{}
	err = readJSONL(filepath.Join(dir, "queries.jsonl"), func(r beirRecord) error {
		if queryIDs[string(r.ID)] {
			return fmt.Errorf("duplicate _id %q", r.ID)
		}
		queryIDs[string(r.ID)] = true
		queries = append(queries, Query{ID: string(r.ID), Text: r.Text})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load beir: %w", err)
	}

	qrelsPath := filepath.Join(dir, "qrels", split+".tsv")
	f, err := os.Open(qrelsPath)
	if err != nil {
		return nil, fmt.Errorf("load beir: %w", err)
	}
	defer f.Close()
	ds.Qrels, err = parseQrels(f, qrelsPath, queryIDs, docIDs)
	if err != nil {
		return nil, fmt.Errorf("load beir: %w", err)
	}
	for _, q := range queries {
		if ds.Qrels[q.ID] != nil {
			ds.Queries = append(ds.Queries, q)
		}
	}
	return ds, nil
}

// beirRecord is one line of corpus.jsonl or queries.jsonl.
type beirRecord struct {
	ID    flexID `json:"_id"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// flexID is an id written as a JSON string or number.
type flexID string

// UnmarshalJSON accepts a JSON string or number.
func (id *flexID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*id = flexID(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("_id must be a string or number, got %s", b)
	}
	*id = flexID(n.String())
	return nil
}

// parseQrels reads a BEIR qrels TSV from r (named file in errors). Ids must
// occur in queryIDs and docIDs.
func parseQrels(r io.Reader, file string, queryIDs, docIDs map[string]bool) (map[string]Grades, error) {
	qrels := map[string]Grades{}
	first := true
	err := eachLine(r, file, func(line []byte, n int) error {
		header := first
		first = false
		fields := strings.Split(string(line), "\t")
		if len(fields) != 3 {
			return fmt.Errorf("want 3 tab-separated fields (query-id, corpus-id, score), got %d", len(fields))
		}
		qid, did := strings.TrimSpace(fields[0]), strings.TrimSpace(fields[1])
		score, err := strconv.Atoi(strings.TrimSpace(fields[2]))
		if err != nil {
			if header {
				return nil // "query-id corpus-id score"
			}
			return fmt.Errorf("score %q is not an integer", fields[2])
		}
		switch {
		case qid == "" || did == "":
			return errors.New("empty query-id or corpus-id")
		case !queryIDs[qid]:
			return fmt.Errorf("query-id %q is not in queries.jsonl", qid)
		case !docIDs[did]:
			return fmt.Errorf("corpus-id %q is not in corpus.jsonl", did)
		}
		g := qrels[qid]
		if g == nil {
			g = Grades{}
			qrels[qid] = g
		}
		if _, dup := g[did]; dup {
			return fmt.Errorf("duplicate judgment for query %q and document %q", qid, did)
		}
		g[did] = score
		return nil
	})
	if err != nil {
		return nil, err
	}
	return qrels, nil
}

// readJSONL decodes every non-blank line of path as a beirRecord with a
// non-empty id and passes it to fn.
func readJSONL(path string, fn func(beirRecord) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return decodeJSONL(f, path, fn)
}

// decodeJSONL is readJSONL over a reader (named file in errors).
func decodeJSONL(r io.Reader, file string, fn func(beirRecord) error) error {
	return eachLine(r, file, func(line []byte, n int) error {
		var raw struct {
			ID *flexID `json:"_id"`
		}
		if err := json.Unmarshal(line, &raw); err != nil {
			return fmt.Errorf("bad JSON: %w", err)
		}
		if raw.ID == nil {
			return errors.New(`missing "_id"`)
		}
		var r beirRecord
		if err := json.Unmarshal(line, &r); err != nil {
			return fmt.Errorf("bad JSON: %w", err)
		}
		if strings.TrimSpace(string(r.ID)) == "" {
			return errors.New(`empty "_id"`)
		}
		return fn(r)
	})
}

// Subset returns a copy of ds cut to at most n documents for a fast,
// fixed regression run. The rule, applied in file order so the result
// depends only on the dataset:
//
//  1. Queries are kept in queries.jsonl order as long as the union of the
//     documents judged (any grade) for the kept queries stays within n; a
//     query whose judgments would overflow n is skipped.
//  2. Every document judged for a kept query is kept.
//  3. The remaining budget is filled with the first other documents of
//     corpus.jsonl (distractors).
//
// Documents keep corpus order. For SciFact train and n = 1000 every query
// is kept (565 judged documents) plus the first 435 distractors. n <= 0 or
// n >= len(ds.Docs) returns ds itself.
func (ds *Dataset) Subset(n int) *Dataset {
	if n <= 0 || n >= len(ds.Docs) {
		return ds
	}
	judged := map[string]bool{}
	out := &Dataset{Name: ds.Name, Split: ds.Split, DocBudget: n, Qrels: map[string]Grades{}}
	for _, q := range ds.Queries {
		g := ds.Qrels[q.ID]
		extra := 0
		for id := range g {
			if !judged[id] {
				extra++
			}
		}
		if len(judged)+extra > n {
			continue
		}
		for id := range g {
			judged[id] = true
		}
		out.Queries = append(out.Queries, q)
		out.Qrels[q.ID] = g
	}
	room := n - len(judged)
	for _, d := range ds.Docs {
		switch {
		case judged[d.ID]:
		case room > 0:
			room--
		default:
			continue
		}
		out.Docs = append(out.Docs, d)
	}
	return out
}
