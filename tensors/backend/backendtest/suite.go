package backendtest

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/internal/half"
	"github.com/goaccel/goaccel/tensors/backend"
)

// Option changes what Run expects of a device beyond the contract every device keeps.
type Option func(*config)

type config struct{ strict bool }

// Strict says the device refuses what it cannot have made: a kernel given a released buffer, or
// a host buffer on a device whose memory the host cannot address, panics naming it (the
// simulated device does; the CPU and CUDA cannot tell a released buffer from a live one).
func Strict() Option { return func(c *config) { c.strict = true } }

// group is one family of checks, run as a subtest of its name.
type group struct {
	name string
	run  func(s *suite)
}

// groups lists every check of the suite, in the order of backend.Backend's methods.
var groups = []group{
	{"Memory", checkMemory},
	{"Fill", checkFill},
	{"Copy", checkCopy},
	{"Unary", checkUnary},
	{"Binary", checkBinary},
	{"Where", checkWhere},
	{"Reduce", checkReduce},
	{"Gemm", checkGemm},
	{"Softmax", checkSoftmax},
	{"LayerNorm", checkLayerNorm},
	{"CrossEntropy", checkCrossEntropy},
	{"Index", checkIndex},
	{"Im2col", checkIm2col},
	{"Conv2d", checkConv2d},
	{"MaxPool2d", checkMaxPool},
	{"AvgPool2d", checkAvgPool},
	{"Optimizers", checkOptimizers},
	{"Foreach", checkForeach},
	{"Attention", checkAttention},
	{"TopK", checkTopK},
	{"Multinomial", checkMultinomial},
	{"Elementwise", checkElementwise},
	{"Transfer", checkTransfer},
	{"EmptyAxes", checkEmpty},
	{"BadInputs", checkBadInputs},
}

// Run checks dev against float64 references: every method of the Backend that
// backend.Complete makes of it (its own fused kernels where it has them, the composed ones
// otherwise), in every element type the method takes, on broadcast and strided views, with
// accumulation into existing values, empty axes and bad indices. Each family of methods is a
// subtest; the number of comparisons made is logged.
func Run(t *testing.T, dev backend.Core, opts ...Option) {
	t.Helper()
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	be := backend.Complete(dev)
	tr, _ := be.(backend.Transfer)
	checks := 0
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			s := &suite{t: t, be: be, tr: tr, cfg: cfg, checks: &checks,
				r: rand.New(rand.NewPCG(seed(g.name), 7))}
			g.run(s)
		})
	}
	t.Logf("%s: %d checks in %d groups", dev.Name(), checks, len(groups))
}

// seed gives each group its own fixed random inputs, whatever runs before it.
func seed(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}

// suite is the state of one group's run: the device and its completed Backend.
type suite struct {
	t      *testing.T
	be     backend.Backend
	tr     backend.Transfer // nil for a host device
	cfg    config
	r      *rand.Rand
	checks *int
}

var (
	floats  = []backend.DType{backend.F32, backend.F64}
	numeric = []backend.DType{backend.F32, backend.F64, backend.I64}
	every   = []backend.DType{backend.F32, backend.F64, backend.BF16, backend.F16, backend.I64}
)

// round returns v as an element of dt holds it: halves round to nearest even through float32,
// integers truncate towards zero.
func round(dt backend.DType, v float64) float64 {
	switch dt {
	case backend.F32:
		return float64(float32(v))
	case backend.BF16:
		return float64(half.BF16ToF32(half.F32ToBF16(float32(v))))
	case backend.F16:
		return float64(half.F16ToF32(half.F32ToF16(float32(v))))
	case backend.I64:
		return float64(int64(v))
	}
	return v
}

// host makes a host buffer of vals as dt.
func host(dt backend.DType, vals []float64) *backend.Buffer {
	h := backend.NewHost(dt, len(vals))
	for i, v := range vals {
		switch dt {
		case backend.F32:
			h.F32[i] = float32(v)
		case backend.F64:
			h.F64[i] = v
		case backend.I64:
			h.I64[i] = int64(v)
		case backend.BF16:
			h.U16[i] = half.F32ToBF16(float32(v))
		case backend.F16:
			h.U16[i] = half.F32ToF16(float32(v))
		}
	}
	return h
}

// values reads a host buffer as float64.
func values(h *backend.Buffer) []float64 {
	out := make([]float64, h.Len)
	for i := range out {
		switch h.DType {
		case backend.F32:
			out[i] = float64(h.F32[i])
		case backend.F64:
			out[i] = h.F64[i]
		case backend.I64:
			out[i] = float64(h.I64[i])
		case backend.BF16:
			out[i] = float64(half.BF16ToF32(h.U16[i]))
		case backend.F16:
			out[i] = float64(half.F16ToF32(h.U16[i]))
		}
	}
	return out
}

// put makes a device buffer holding vals as dt (uploaded, or written into the host device's
// own buffer).
func (s *suite) put(dt backend.DType, vals []float64) *backend.Buffer {
	h := host(dt, vals)
	if s.tr != nil {
		return s.tr.Upload(h)
	}
	b := s.be.AllocUninit(dt, len(vals))
	switch dt {
	case backend.F32:
		copy(b.F32, h.F32)
	case backend.F64:
		copy(b.F64, h.F64)
	case backend.I64:
		copy(b.I64, h.I64)
	default:
		copy(b.U16, h.U16)
	}
	return b
}

// get reads a device buffer back as float64 (waiting for the work queued on it).
func (s *suite) get(b *backend.Buffer) []float64 {
	if s.tr != nil {
		return values(s.tr.Download(b))
	}
	return values(b)
}

// rand returns n values uniform in [lo, hi) as dt holds them, and their buffer.
func (s *suite) rand(dt backend.DType, n int, lo, hi float64) (*backend.Buffer, []float64) {
	v := s.uniform(n, lo, hi)
	for i := range v {
		v[i] = round(dt, v[i])
	}
	return s.put(dt, v), v
}

// uniform returns n float64 values in [lo, hi).
func (s *suite) uniform(n int, lo, hi float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = lo + (hi-lo)*s.r.Float64()
	}
	return v
}

// ints returns n whole numbers in [lo, hi) (many ties).
func (s *suite) ints(n, lo, hi int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(lo + s.r.IntN(hi-lo))
	}
	return v
}

// poisonValue is what a buffer holds where a kernel must write (and where it must not, checked
// unchanged): NaN for floats, an unlikely integer for int64.
func poisonValue(dt backend.DType) float64 {
	if dt == backend.I64 {
		return -1 << 40
	}
	return math.NaN()
}

// poison returns a buffer of n elements of poisonValue.
func (s *suite) poison(dt backend.DType, n int) (*backend.Buffer, []float64) {
	v := make([]float64, n)
	for i := range v {
		v[i] = poisonValue(dt)
	}
	return s.put(dt, v), v
}

// expect compares b's elements with want: exactly when rtol is 0, else within rtol relative
// with an absolute floor of rtol times want's largest finite magnitude (sums that cancel to small
// values carry their terms' rounding). NaN must be NaN, infinities equal.
func (s *suite) expect(what string, b *backend.Buffer, want []float64, rtol float64) {
	s.t.Helper()
	*s.checks++
	if b.Len != len(want) {
		s.t.Errorf("%s: buffer of %d elements, want %d", what, b.Len, len(want))
		return
	}
	got := s.get(b)
	if i, ok := agree(got, want, rtol); !ok {
		s.t.Errorf("%s: element %d of %d is %v, want %v (rtol %g)%s", what, i, len(want), got[i], want[i], rtol, around(got, want, i))
	}
}

// expectValue compares one value.
func (s *suite) expectValue(what string, got, want, rtol float64) {
	s.t.Helper()
	*s.checks++
	if _, ok := agree([]float64{got}, []float64{want}, rtol); !ok {
		s.t.Errorf("%s: %v, want %v (rtol %g)", what, got, want, rtol)
	}
}

// agree reports the first element where got and want differ beyond rtol (see expect).
func agree(got, want []float64, rtol float64) (int, bool) {
	scale := 0.0
	for _, w := range want {
		if !math.IsInf(w, 0) && !math.IsNaN(w) {
			scale = max(scale, math.Abs(w))
		}
	}
	for i, w := range want {
		g := got[i]
		switch {
		case math.IsNaN(w):
			if !math.IsNaN(g) {
				return i, false
			}
		case math.IsInf(w, 0) || rtol == 0:
			if g != w {
				return i, false
			}
		case !(math.Abs(g-w) <= rtol*math.Abs(w)+rtol*scale):
			return i, false
		}
	}
	return 0, true
}

// around shows a few elements beside element i of a failed comparison.
func around(got, want []float64, i int) string {
	lo, hi := max(0, i-2), min(len(want), i+3)
	var b strings.Builder
	for j := lo; j < hi; j++ {
		fmt.Fprintf(&b, "\n\t[%d] got %v want %v", j, got[j], want[j])
	}
	return b.String()
}

// view is a strided view of a buffer.
func view(b *backend.Buffer, off int, strides ...int) backend.Strided {
	return backend.Strided{Buf: b, Offset: off, Strides: strides}
}

// forEach calls fn with every index of shape (row-major) and its position in order.
func forEach(shape []int, fn func(pos int, idx []int)) {
	n := 1
	for _, d := range shape {
		n *= d
	}
	idx := make([]int, len(shape))
	for pos := 0; pos < n; pos++ {
		rem := pos
		for d := len(shape) - 1; d >= 0; d-- {
			idx[d] = rem % shape[d]
			rem /= shape[d]
		}
		fn(pos, idx)
	}
}

// at is the element position of idx in a view.
func at(off int, strides, idx []int) int {
	for d, i := range idx {
		off += i * strides[d]
	}
	return off
}

// mustPanic runs fn, then reads back, and checks that one of them panicked with a message
// containing want: a device that finds bad inputs in a kernel reports them at the next read
// back.
func (s *suite) mustPanic(what, want string, fn func(), readBack *backend.Buffer) {
	s.t.Helper()
	*s.checks++
	msg, panicked := func() (msg string, panicked bool) {
		defer func() {
			if r := recover(); r != nil {
				msg, panicked = fmt.Sprint(r), true
			}
		}()
		fn()
		if readBack != nil {
			s.get(readBack)
		}
		return "", false
	}()
	switch {
	case !panicked:
		s.t.Errorf("%s: no panic; want one saying %q", what, want)
	case !strings.Contains(msg, want):
		s.t.Errorf("%s: panic %q; want one saying %q", what, msg, want)
	}
}
