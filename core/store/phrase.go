package store

/*
#include <sqlite3.h>

int vaultctx_phrase_init(sqlite3 *db, char **err, const void *api);

static void vaultctx_phrase_auto(void) {
	sqlite3_auto_extension((void (*)(void))vaultctx_phrase_init);
}
*/
import "C"

import (
	"context"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/vaultctx/vaultctx/core/internal/bm25"
	"github.com/vaultctx/vaultctx/core/internal/postings"
)

// registerPhraseScan makes every new connection of this process define
// vaultctx_phrase_scan (ftsphrase.c).
func registerPhraseScan() { C.vaultctx_phrase_auto() }

// phraseScores adds to extra[chunk id] the BM25 that FTS5's bm25() with
// column weights w gives every chunk matching match (an OR of the query's
// phrases that the impact index does not serve), computed from the
// phrases' instance counts instead of by bm25() itself.
//
// The formula and statistics are bm25()'s (fts5_aux.c; see package bm25):
// each phrase's IDF from the number of rows it matches, counted in the
// same pass; f the phrase's instances weighted by column (the fourth
// column, cjk, takes chunk_text's weight); the row's length over all
// columns from lens for ids up to lensMax (the impact index's), from
// FTS5's own record for newer ones; nRow and avgdl FTS5's averages. The
// sum may differ from bm25()'s in the last bits (bm25() adds a weight per
// instance, this multiplies): TestPhraseScoresMatchBM25.
//
// bm25() reads each matching row's length from chunks_fts_docsize and, per
// phrase, walks all of its matches a second time to count them; on the
// phrases of common tokens at 4x the large corpus ("microsoft specific",
// "size t") that was three quarters of their cost. It returns
// errNoPhraseScan when the connection lacks the function (a build
// without FTS5's API), and an error when the counts would pass 8 MiB
// (ftsphrase.c, PHRASE_SCAN_MAX): the caller then streams bm25().
func (s *Store) phraseScores(ctx context.Context, w [3]float64, match string, nRow int64, avgdl float64, lens *postings.Lengths, lensMax int64, extra map[int64]float64) error {
	var raw []byte
	err := s.queryOwned(ctx, "SELECT vaultctx_phrase_scan(?, ?)", []any{match, lensMax}, func(vals []driver.Value) error {
		b, err := valBytes(vals[0])
		raw = b
		return err
	})
	if err != nil {
		if strings.Contains(err.Error(), "no such function") {
			return errNoPhraseScan
		}
		return err
	}
	rows, err := parsePhraseScan(raw)
	if err != nil {
		return fmt.Errorf("phrase counts: %w", err)
	}
	return rows.addScores(w, nRow, avgdl, lens, extra)
}

// errNoPhraseScan is phraseScores' error on a connection without
// vaultctx_phrase_scan.
var errNoPhraseScan = errors.New("vaultctx_phrase_scan is not registered")

// phraseRows is a parsed vaultctx_phrase_scan result (ftsphrase.c,
// phrase_buf): per matching row its id, its length (-1: look it up) and
// 4 instance counts per phrase.
type phraseRows struct {
	phrases int
	ids     []int64
	dl      []int32
	tf      []uint32 // len(ids) x phrases x 4
}

// parsePhraseScan decodes raw; an empty raw is no rows. Its error says how
// the blob is malformed.
func parsePhraseScan(raw []byte) (*phraseRows, error) {
	r := &phraseRows{}
	if len(raw) == 0 {
		return r, nil
	}
	if len(raw) < 4 {
		return nil, errors.New("truncated header")
	}
	p := int(binary.NativeEndian.Uint32(raw))
	if p <= 0 || p > 1<<16 {
		return nil, fmt.Errorf("%d phrases", p)
	}
	r.phrases = p
	size := 12 + 16*p
	body := raw[4:]
	if len(body)%size != 0 {
		return nil, fmt.Errorf("%d bytes of rows of %d bytes", len(body), size)
	}
	n := len(body) / size
	r.ids, r.dl, r.tf = make([]int64, n), make([]int32, n), make([]uint32, 0, n*4*p)
	for i := range n {
		row := body[i*size:]
		r.ids[i] = int64(binary.NativeEndian.Uint64(row))
		r.dl[i] = int32(binary.NativeEndian.Uint32(row[8:]))
		for j := range 4 * p {
			r.tf = append(r.tf, binary.NativeEndian.Uint32(row[12+4*j:]))
		}
	}
	return r, nil
}

// addScores adds each row's BM25 to extra (see phraseScores). A row whose
// length is neither recorded nor in lens is an error, and then extra is
// left as it was: the impact index does not describe this file.
func (r *phraseRows) addScores(w [3]float64, nRow int64, avgdl float64, lens *postings.Lengths, extra map[int64]float64) error {
	df := make([]int64, r.phrases)
	for i := range r.ids {
		for p := range r.phrases {
			t := r.tf[(i*r.phrases+p)*4:]
			if t[0]|t[1]|t[2]|t[3] != 0 {
				df[p]++
			}
		}
	}
	idf := make([]float64, r.phrases)
	for p, n := range df {
		idf[p] = bm25.IDF(nRow, n)
	}
	dls := make([]float64, len(r.ids))
	for i, id := range r.ids {
		dls[i] = float64(r.dl[i])
		if r.dl[i] < 0 {
			if dls[i] = lens.Len(uint32(id)); dls[i] == 0 {
				return fmt.Errorf("chunk %d has no recorded length", id)
			}
		}
	}
	for i, id := range r.ids {
		dl := dls[i]
		sc := 0.0
		for p := range r.phrases {
			t := r.tf[(i*r.phrases+p)*4:]
			f := w[0]*float64(t[0]) + w[1]*float64(t[1]) + w[2]*float64(t[2]) + w[0]*float64(t[3])
			if f != 0 {
				sc += idf[p] * (f * (bm25.K1 + 1)) / (f + bm25.K1*(1-bm25.B+bm25.B*dl/avgdl))
			}
		}
		extra[id] += sc
	}
	return nil
}
