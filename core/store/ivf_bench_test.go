package store

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/internal/ivf"
)

// BenchmarkTrainLists measures the two steps of TrainVectorLists whose
// cost grows with the lists on a real index (VAULTCTX_BENCH_DB, as for
// BenchmarkVectorHits), in process and without writing: the k-means
// training on the 32-per-list sample ("train-s"), and assigning every
// vector of the index to its nearest list of the index's own lists by
// Lists.Assign ("assign-s") and by an exhaustive scan of the centroids
// ("exhaustive-s", on GOMAXPROCS goroutines as Assign). It reports the fraction of vectors Assign puts in the
// exhaustive scan's list ("agree", 1 for an exact Assign) and the
// fraction of the n·k centroid dot products Assign computed
// ("dots-frac"). The vectors are held as int8 (dim bytes each: 65 MB at
// 651,000 vectors of 100 dimensions).
func BenchmarkTrainLists(b *testing.B) {
	ctx := context.Background()
	s, _ := benchStore(b)
	lists, err := s.loadLists(ctx, s.db)
	if err != nil || lists.Len() == 0 {
		b.Fatalf("no IVF lists (%v)", err)
	}
	dim := s.vecDim
	var raw []byte
	if err := s.eachVector(ctx, s.db, func(_ int64, v []byte) { raw = append(raw, v...) }); err != nil {
		b.Fatal(err)
	}
	n := len(raw) / dim
	units := func(from, to int) [][]float32 {
		backing := make([]float32, 0, (to-from)*dim)
		out := make([][]float32, 0, to-from)
		for i := from; i < to; i++ {
			at := len(backing)
			backing = appendUnit(backing, raw[i*dim:(i+1)*dim])
			out = append(out, backing[at:len(backing):len(backing)])
		}
		return out
	}
	for b.Loop() {
		p := ivf.NewPlan(n, n/ListSize)
		sample := make([][]float32, len(p.Pos))
		for i, at := range p.Pos {
			sample[i] = units(at, at+1)[0]
		}
		t0 := time.Now()
		p.Train(sample, dotsF32)
		train := time.Since(t0)

		var assign, exhaustive time.Duration
		var agree int
		var dots int64
		t0 = time.Now()
		tree := lists.Tree()
		assign += time.Since(t0)
		for from := 0; from < n; from += trainBatch {
			batch := units(from, min(n, from+trainBatch))
			t0 := time.Now()
			got := tree.Assign(batch)
			assign += time.Since(t0)
			t0 = time.Now()
			want := make([]int, len(batch))
			var wg sync.WaitGroup
			procs := runtime.GOMAXPROCS(0)
			for w := 0; w < procs; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					scores := make([]float32, lists.Len())
					for i := w; i < len(batch); i += procs {
						want[i] = lists.NearestUnit(batch[i], scores)
					}
				}()
			}
			wg.Wait()
			exhaustive += time.Since(t0)
			for i := range got {
				if got[i] == want[i] {
					agree++
				}
			}
			sc := tree.Scratch()
			for _, u := range batch {
				tree.Nearest(u, sc)
			}
			dots += sc.Dots
		}
		b.ReportMetric(train.Seconds(), "train-s")
		b.ReportMetric(assign.Seconds(), "assign-s")
		b.ReportMetric(exhaustive.Seconds(), "exhaustive-s")
		b.ReportMetric(float64(agree)/float64(n), "agree")
		b.ReportMetric(float64(dots)/float64(n)/float64(lists.Len()), "dots-frac")
		b.ReportMetric(float64(lists.Len()), "lists")
	}
}
