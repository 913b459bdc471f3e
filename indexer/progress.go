package main

import (
	"fmt"
	"io"
	"time"
)

// progressEvery is the least time between two redraws of a progressLine.
const progressEvery = 100 * time.Millisecond

// progressLine is the index run's progress on a terminal: one line,
// "indexing 1234/16673 files, 850 files/s, 18 s left", rewritten in place
// (carriage return, then erase to the end of the line) and erased when the
// last file is done, so that the run's summary follows on a clean line.
//
// It replaced github.com/schollz/progressbar, whose dependencies'
// package initialisation and pages cost every vaultctx command, search
// included, 0.2-0.45 ms of a search's 8 (issue 17).
type progressLine struct {
	w     io.Writer
	start time.Time
	last  time.Time // the last redraw; zero before the first
	shown bool      // a line is on the terminal
}

// update is the index run's progress callback (index.Options.Progress):
// done of total files.
func (p *progressLine) update(done, total int) {
	now := time.Now()
	if done >= total {
		if p.shown {
			fmt.Fprint(p.w, "\r\x1b[K")
			p.shown = false
		}
		return
	}
	if !p.last.IsZero() && now.Sub(p.last) < progressEvery {
		return
	}
	p.last = now
	fmt.Fprintf(p.w, "\r\x1b[K%s", progressText(done, total, now.Sub(p.start)))
	p.shown = true
}

// progressText is the text of a progress line after elapsed: the count,
// and once a file is done the rate and an estimate of the time left at
// that rate, in whole seconds.
func progressText(done, total int, elapsed time.Duration) string {
	s := fmt.Sprintf("indexing %d/%d files", done, total)
	if done == 0 || elapsed <= 0 {
		return s
	}
	rate := float64(done) / elapsed.Seconds()
	left := time.Duration(float64(total-done) / rate * float64(time.Second))
	return s + fmt.Sprintf(", %.0f files/s, %d s left", rate, int(left.Round(time.Second)/time.Second))
}
