package retrieve

import (
	"context"
	"errors"
	"testing"
)

func TestPseudoQuery(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"## Syntax\n\n```powershell\nGet-ChildItem -Path x\n```\n\nGets the items and child items in one or more locations. More text.", "Gets the items and child items in one or more locations."},
		{"| a | b |\n|---|---|\n- Use the Recurse parameter to get items in all child containers", "Use the Recurse parameter to get items in all child containers"},
		{"Too short.\nSee also: [[Other note]] for the details of it", "See also: [[Other note]] for the details of it"},
		{"# Title\n\n42 17 99", ""},
		{"one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty 21st 22nd 23rd 24th 25th 26th",
			"one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty 21st 22nd 23rd 24th"},
	} {
		if got := PseudoQuery(c.text); got != c.want {
			t.Errorf("PseudoQuery(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// wordSource is a tiny index: BM25 finds the chunk that holds the query
// verbatim first; KNN finds it at rank vecRank among decoys of cosine 0.5
// and 0.6.
type wordSource struct {
	texts   map[int64]string
	vecRank int
}

func (s wordSource) KeywordHits(_ context.Context, q string, k int) ([]Scored, error) {
	for id, t := range s.texts {
		if PseudoQuery(t) == q {
			return []Scored{{id, 10}, {id + 1000, 5}}, nil
		}
	}
	return nil, nil
}

func (s wordSource) VectorHits(_ context.Context, v []float32, k int) ([]Scored, error) {
	id := int64(v[0])
	var out []Scored
	for r := 1; r <= 4; r++ {
		if r == s.vecRank {
			out = append(out, Scored{id, 0.9})
		} else {
			out = append(out, Scored{id + int64(1000*r), 0.5 + 0.1*float64(r%2)})
		}
	}
	return out, nil
}

func (s wordSource) Hydrate(context.Context, []int64) ([]Hit, error) { return nil, nil }

// idEmbedder embeds a pseudo-query as the id of the chunk it came from.
type idEmbedder map[string]int64

func (e idEmbedder) Encode(q string) ([]float32, error) { return []float32{float32(e[q])}, nil }

func TestCalibrateFusion(t *testing.T) {
	src := wordSource{texts: map[int64]string{}}
	emb := idEmbedder{}
	var samples []Sample
	for i := int64(1); i <= 40; i++ {
		text := "chunk number " + string(rune('a'+i%26)) + string(rune('a'+i/26)) + " holds these words"
		src.texts[i] = text
		emb[PseudoQuery(text)] = i
		samples = append(samples, Sample{ChunkID: i, Text: text})
	}
	samples = append(samples, Sample{ChunkID: 99, Text: "1 2 3"}) // no pseudo-query
	for _, c := range []struct {
		vecRank int
		weight  float64
	}{{1, 1}, {2, 0.5}, {4, 0.25}, {0, MinCalibratedVectorWeight}} {
		src.vecRank = c.vecRank
		f, err := CalibrateFusion(context.Background(), src, emb, samples, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if f.Queries != 40 || f.BM25MRR != 1 || f.VectorWeight != c.weight || !f.Valid() {
			t.Errorf("vector rank %d: %+v, want weight %g", c.vecRank, f, c.weight)
		}
		// The chance neighbours' cosines are 0.5 and 0.6: the 90th
		// percentile is 0.6.
		if f.BackgroundCosine != 0.6 {
			t.Errorf("vector rank %d: background cosine %g, want 0.6", c.vecRank, f.BackgroundCosine)
		}
	}
	if _, err := CalibrateFusion(context.Background(), src, emb, samples[:MinPseudoQueries-1], Options{}); !errors.Is(err, ErrFewPseudoQueries) {
		t.Errorf("%d samples: %v, want ErrFewPseudoQueries", MinPseudoQueries-1, err)
	}
}
