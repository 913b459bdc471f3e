package embed

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrCorrupt is returned when a model file cannot be parsed or its contents
// disagree with each other (shapes, offsets, ids beyond the matrix).
var ErrCorrupt = errors.New("corrupt model")

// maxHeader bounds the safetensors JSON header (bytes).
const maxHeader = 100 << 20

type tensor struct {
	DType   string   `json:"dtype"`
	Shape   []int64  `json:"shape"`
	Offsets [2]int64 `json:"data_offsets"`
	name    string
	start   int64 // absolute file offset of the first byte
}

func dtypeSize(dt string) int {
	switch dt {
	case "F64", "I64":
		return 8
	case "F32", "I32":
		return 4
	case "F16", "BF16":
		return 2
	case "I8", "U8":
		return 1
	}
	return 0
}

func (t *tensor) elems() int64 {
	n := int64(1)
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// readSafetensors reads and checks the header of a safetensors file: an
// 8-byte little-endian header length, then a JSON map of tensor name to
// dtype, shape and data offsets relative to the end of the header.
func readSafetensors(path string) (map[string]*tensor, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	var lenBuf [8]byte
	if _, err := io.ReadFull(f, lenBuf[:]); err != nil {
		return nil, 0, fmt.Errorf("%w: %s: short file", ErrCorrupt, path)
	}
	hlen := binary.LittleEndian.Uint64(lenBuf[:])
	if hlen > maxHeader || int64(hlen)+8 > st.Size() {
		return nil, 0, fmt.Errorf("%w: %s: header length %d for a %d-byte file", ErrCorrupt, path, hlen, st.Size())
	}
	hdr := make([]byte, hlen)
	if _, err := io.ReadFull(f, hdr); err != nil {
		return nil, 0, fmt.Errorf("%w: %s: %v", ErrCorrupt, path, err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(hdr, &raw); err != nil {
		return nil, 0, fmt.Errorf("%w: %s: header: %v", ErrCorrupt, path, err)
	}
	base := 8 + int64(hlen)
	out := make(map[string]*tensor, len(raw))
	for name, r := range raw {
		if name == "__metadata__" {
			continue
		}
		t := &tensor{name: name}
		if err := json.Unmarshal(r, t); err != nil {
			return nil, 0, fmt.Errorf("%w: %s: tensor %q: %v", ErrCorrupt, path, name, err)
		}
		size := dtypeSize(t.DType)
		if size == 0 {
			return nil, 0, fmt.Errorf("%w: %s: tensor %q has unsupported dtype %q", ErrCorrupt, path, name, t.DType)
		}
		for _, d := range t.Shape {
			if d < 0 || d > 1<<40 {
				return nil, 0, fmt.Errorf("%w: %s: tensor %q has shape %v", ErrCorrupt, path, name, t.Shape)
			}
		}
		lo, hi := t.Offsets[0], t.Offsets[1]
		if lo < 0 || hi < lo || base+hi > st.Size() || hi-lo != t.elems()*int64(size) {
			return nil, 0, fmt.Errorf("%w: %s: tensor %q: offsets %v do not fit shape %v %s in a %d-byte file",
				ErrCorrupt, path, name, t.Offsets, t.Shape, t.DType, st.Size())
		}
		t.start = base + lo
		out[name] = t
	}
	return out, base, nil
}
