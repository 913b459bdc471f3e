package scrub

// anchorSet is an Aho-Corasick automaton over ASCII-case-folded bytes,
// compiled to a dense DFA over byte classes (only bytes that occur in some
// pattern get their own class; all others share class 0).
//
// Source: A. V. Aho and M. J. Corasick, "Efficient string matching: an aid to
// bibliographic search", CACM 18(6), 1975. The goto/failure functions are
// folded into one transition table, so scanning costs one lookup per byte.
type anchorSet struct {
	class  [256]uint8 // byte -> class, upper case folded to lower case
	nclass int
	delta  []int32   // row offset (state*nclass) + class -> next row offset, complemented when the next state has output
	out    [][]int32 // state -> pattern ids ending here (including suffixes)
	plen   []int     // pattern id -> length in bytes
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// newAnchorSet builds the automaton for patterns, which must be non-empty;
// matching ignores ASCII case.
func newAnchorSet(patterns []string) *anchorSet {
	a := &anchorSet{plen: make([]int, len(patterns))}
	var classOf [256]uint8
	n := 1
	for _, p := range patterns {
		for i := 0; i < len(p); i++ {
			c := lowerASCII(p[i])
			if classOf[c] == 0 {
				classOf[c] = uint8(n)
				n++
			}
		}
	}
	for b := 0; b < 256; b++ {
		a.class[b] = classOf[lowerASCII(byte(b))]
	}
	a.nclass = n

	// Trie, as one flat table of n classes per state; 0 means no edge.
	maxStates := 1
	for _, p := range patterns {
		maxStates += len(p)
	}
	goTo := make([]int32, n, maxStates*n)
	a.out = [][]int32{nil}
	for id, p := range patterns {
		a.plen[id] = len(p)
		s := int32(0)
		for i := 0; i < len(p); i++ {
			c := int32(a.class[p[i]])
			if goTo[s*int32(n)+c] == 0 {
				next := int32(len(a.out))
				goTo = goTo[:len(goTo)+n] // fresh zeros: within the capacity
				a.out = append(a.out, nil)
				goTo[s*int32(n)+c] = next
			}
			s = goTo[s*int32(n)+c]
		}
		a.out[s] = append(a.out[s], int32(id))
	}
	states := len(a.out)

	// Breadth-first: failure links, completed into a DFA.
	fail := make([]int32, states)
	queue := make([]int32, 0, states)
	for c := 0; c < n; c++ {
		if s := goTo[c]; s != 0 {
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		r := queue[0]
		queue = queue[1:]
		if f := fail[r]; len(a.out[f]) > 0 {
			a.out[r] = append(a.out[r], a.out[f]...)
		}
		row, frow := goTo[int(r)*n:int(r+1)*n], goTo[int(fail[r])*n:]
		for c := 0; c < n; c++ {
			s := row[c]
			if s == 0 {
				row[c] = frow[c]
				continue
			}
			fail[s] = frow[c]
			queue = append(queue, s)
		}
	}

	// Store row offsets (state*n) instead of state numbers, and flag states
	// with output by complementing the offset, so the scan loop is one load
	// and one sign test per byte.
	a.delta = goTo
	for i, next := range goTo {
		v := next * int32(n)
		if len(a.out[next]) > 0 {
			v = ^v
		}
		a.delta[i] = v
	}
	return a
}

// scan calls hit(id, start, end) for every occurrence of every pattern in
// text, in order of end offset.
func (a *anchorSet) scan(text string, hit func(id int32, start, end int)) {
	delta, class := a.delta, &a.class
	n := int32(a.nclass)
	s := int32(0)
	for i := 0; i < len(text); i++ {
		s = delta[s+int32(class[text[i]])]
		if s < 0 {
			s = ^s
			for _, id := range a.out[s/n] {
				hit(id, i+1-a.plen[id], i+1)
			}
		}
	}
}
