package embed

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tidwall/gjson"
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
	if !gjson.ValidBytes(hdr) || !gjson.ParseBytes(hdr).IsObject() {
		return nil, 0, fmt.Errorf("%w: %s: header is not a JSON object", ErrCorrupt, path)
	}
	base := 8 + int64(hlen)
	out := map[string]*tensor{}
	var perr error
	gjson.ParseBytes(hdr).ForEach(func(k, v gjson.Result) bool {
		name := k.String()
		if name == "__metadata__" {
			return true
		}
		t, err := parseTensor(name, v)
		if err != nil {
			perr = fmt.Errorf("%w: %s: %v", ErrCorrupt, path, err)
			return false
		}
		lo, hi := t.Offsets[0], t.Offsets[1]
		if lo < 0 || hi < lo || base+hi > st.Size() || hi-lo != t.elems()*int64(dtypeSize(t.DType)) {
			perr = fmt.Errorf("%w: %s: tensor %q: offsets %v do not fit shape %v %s in a %d-byte file",
				ErrCorrupt, path, name, t.Offsets, t.Shape, t.DType, st.Size())
			return false
		}
		t.start = base + lo
		out[name] = t
		return true
	})
	if perr != nil {
		return nil, 0, perr
	}
	return out, base, nil
}

// parseTensor reads one header entry: {"dtype", "shape", "data_offsets"}.
func parseTensor(name string, v gjson.Result) (*tensor, error) {
	if !v.IsObject() {
		return nil, fmt.Errorf("tensor %q is not an object", name)
	}
	t := &tensor{name: name, DType: v.Get("dtype").String()}
	if dtypeSize(t.DType) == 0 {
		return nil, fmt.Errorf("tensor %q has unsupported dtype %q", name, t.DType)
	}
	shape := v.Get("shape")
	if !shape.IsArray() {
		return nil, fmt.Errorf("tensor %q has no shape", name)
	}
	prod := int64(1)
	for _, d := range shape.Array() {
		n := d.Int()
		if d.Type != gjson.Number || n < 0 || n > 1<<40 || float64(n) != d.Float() {
			return nil, fmt.Errorf("tensor %q has shape %s", name, shape.Raw)
		}
		if n > 0 && prod > (1<<40)/n {
			return nil, fmt.Errorf("tensor %q has shape %s: too large", name, shape.Raw)
		}
		prod *= n
		t.Shape = append(t.Shape, n)
	}
	offs := v.Get("data_offsets").Array()
	if len(offs) != 2 || offs[0].Type != gjson.Number || offs[1].Type != gjson.Number {
		return nil, fmt.Errorf("tensor %q has data_offsets %s", name, v.Get("data_offsets").Raw)
	}
	t.Offsets = [2]int64{offs[0].Int(), offs[1].Int()}
	return t, nil
}
