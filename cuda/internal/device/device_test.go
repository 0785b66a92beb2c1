package device

import (
	"math"
	"math/rand/v2"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/goaccel/goaccel/cuda/internal/fakelib"
	"github.com/goaccel/goaccel/cuda/internal/kernels"
	"github.com/goaccel/goaccel/internal/half"
	"github.com/goaccel/goaccel/tensors/backend"
	"github.com/goaccel/goaccel/tensors/backend/cpu"
)

// These tests run the backend on the emulated GPUs of package fakelib: the real kernels on the
// CPU, real cuBLAS products, device memory of the fake's own and every call logged. They check
// library loading, contexts, the allocator, transfers, the cuBLAS call mapping, the kernels'
// parameters as launched, and (conformance_test.go) the device suite of tensors/backend/backendtest.

var ctl *fakelib.Control

func TestMain(m *testing.M) { fakelib.Main(m, &ctl) }

func open(t *testing.T) *Device {
	t.Helper()
	if n := Count(); n != 2 {
		t.Fatalf("Count = %d (%v), want the fake's 2", n, Err())
	}
	d, err := Open(1)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func upload(d *Device, dt backend.DType, vals []float64) *backend.Buffer {
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
		}
	}
	return d.Upload(h)
}

func TestTransfersAndFillsRoundTrip(t *testing.T) {
	d := open(t)
	for _, dt := range []backend.DType{backend.F32, backend.F64, backend.I64, backend.BF16} {
		b := upload(d, dt, []float64{1, -2, 3.5, 4})
		h := d.Download(b)
		c := cpu.New()
		got := backend.NewHost(backend.F64, 4)
		c.Copy(backend.Strided{Buf: got, Strides: []int{1}}, backend.Strided{Buf: h, Strides: []int{1}}, []int{4})
		want := []float64{1, -2, 3.5, 4}
		if dt == backend.I64 {
			want[2] = 3
		}
		for i := range want {
			if got.F64[i] != want[i] {
				t.Fatalf("%s round trip: %v, want %v", dt, got.F64, want)
			}
		}
	}
	f := d.Alloc(backend.F32, 5)
	d.Fill(f, 2.5)
	if got := d.Download(f).F32; got[0] != 2.5 || got[4] != 2.5 {
		t.Fatalf("Fill: %v", got)
	}
	z := d.Alloc(backend.F32, 3)
	if got := d.Download(z).F32; got[0] != 0 || got[2] != 0 {
		t.Fatalf("Alloc is not zeroed: %v", got)
	}
}

// TestGemmMapsRowMajorProductsOntoColumnMajorCuBLAS compares the backend's products (through
// the fake cuBLAS) with the CPU's for every transpose, batches with broadcast and offset
// operands, alpha and beta, in float32, float64 and bfloat16.
func TestGemmMapsRowMajorProductsOntoColumnMajorCuBLAS(t *testing.T) {
	d := open(t)
	c := cpu.New()
	r := rand.New(rand.NewPCG(1, 1))
	rnd := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(int(r.IntN(9)) - 4) // small integers: exact in every type
		}
		return v
	}
	for _, dt := range []backend.DType{backend.F32, backend.F64, backend.BF16} {
		for _, ta := range []bool{false, true} {
			for _, tb := range []bool{false, true} {
				m, n, k, batch := 3, 4, 5, 2
				lda, ldb := k+1, n+2
				if ta {
					lda = m + 1
				}
				if tb {
					ldb = k + 2
				}
				rowsA, rowsB := m, k
				if ta {
					rowsA = k
				}
				if tb {
					rowsB = n
				}
				strideA, strideB, strideC := rowsA*lda, 0, m*n+3 // B broadcast over the batch
				aOff, bOff, cOff := 2, 1, 4
				av, bv := rnd(aOff+batch*strideA), rnd(bOff+rowsB*ldb)
				cv := rnd(cOff + batch*strideC)
				cdt := dt
				if dt == backend.BF16 {
					cdt = backend.F32
				}
				ha, hb, hc := host(dt, av), host(dt, bv), host(cdt, cv)
				c.Gemm(backend.F32, ta, tb, batch, m, n, k, 2, ha, aOff, lda, strideA, hb, bOff, ldb, strideB, 0.5, hc, cOff, n, strideC)
				da, db, dc := upload(d, dt, av), upload(d, dt, bv), upload(d, cdt, cv)
				d.Gemm(backend.F32, ta, tb, batch, m, n, k, 2, da, aOff, lda, strideA, db, bOff, ldb, strideB, 0.5, dc, cOff, n, strideC)
				got, want := asF64(d.Download(dc)), asF64(hc)
				for i := range want {
					if math.Abs(got[i]-want[i]) > 1e-9 {
						t.Fatalf("%s transA=%v transB=%v: C[%d] = %v, CPU %v", dt, ta, tb, i, got[i], want[i])
					}
				}
			}
		}
	}
}

func host(dt backend.DType, v []float64) *backend.Buffer {
	h := backend.NewHost(dt, len(v))
	for i, x := range v {
		switch dt {
		case backend.F32:
			h.F32[i] = float32(x)
		case backend.F64:
			h.F64[i] = x
		case backend.BF16:
			h.U16[i] = half.F32ToBF16(float32(x))
		}
	}
	return h
}

func asF64(h *backend.Buffer) []float64 {
	out := make([]float64, h.Len)
	for i := range out {
		if h.DType == backend.F32 {
			out[i] = float64(h.F32[i])
		} else {
			out[i] = h.F64[i]
		}
	}
	return out
}

var launchRE = regexp.MustCompile(`cuLaunchKernel (\w+) grid=(\d+),1,1 block=256,1,1 shared=0((?: p\d+=\S+)*)`)

// lastLaunch returns the name and parameters (64-bit words, decimal) of the last launch logged.
func lastLaunch(t *testing.T) (string, [][]int64) {
	t.Helper()
	ms := launchRE.FindAllStringSubmatch(ctl.Log(), -1)
	if len(ms) == 0 {
		t.Fatalf("no kernel launched:\n%s", ctl.Log())
	}
	m := ms[len(ms)-1]
	var params [][]int64
	for _, p := range strings.Fields(m[3]) {
		_, v, _ := strings.Cut(p, "=")
		var words []int64
		for _, w := range strings.Split(v, ",") {
			x, _ := strconv.ParseInt(w, 10, 64)
			words = append(words, x)
		}
		params = append(params, words)
	}
	return m[1], params
}

// TestBroadcastBinaryOpsPassCoalescedShapesAndViews checks the Shape and View structs a strided
// kernel receives: a [2, 3, 4] + [3, 1] broadcast (b offset 5) keeps three dimensions for b and
// merges nothing it must not.
func TestBroadcastBinaryOpsPassCoalescedShapesAndViews(t *testing.T) {
	d := open(t)
	a, b, dst := d.Alloc(backend.F32, 24), d.Alloc(backend.F32, 8), d.Alloc(backend.F32, 24)
	ctl.Reset()
	ctl.SetLaunchParams(8)
	ctl.SetParamBytes(72)
	defer ctl.SetLaunchParams(0)
	d.Binary(backend.Mul, dst, backend.Strided{Buf: a, Strides: []int{12, 4, 1}}, backend.Strided{Buf: b, Offset: 5, Strides: []int{0, 1, 0}}, []int{2, 3, 4})
	name, p := lastLaunch(t)
	if name != "binary_f32" {
		t.Fatalf("launched %s, want the strided binary_f32", name)
	}
	if p[0][0]&0xffffffff != int64(backend.Mul) {
		t.Fatalf("op %d", p[0][0])
	}
	av, bv, sh := p[3], p[5], p[6]
	if sh[0] != 2 || sh[1] != 3 || sh[2] != 4 || sh[8] != 3 {
		t.Fatalf("shape %v, want [2 3 4] with nd 3", sh)
	}
	if av[0] != 0 || av[1] != 12 || av[2] != 4 || av[3] != 1 || bv[0] != 5 || bv[1] != 0 || bv[2] != 1 || bv[3] != 0 {
		t.Fatalf("views a %v, b %v", av[:4], bv[:4])
	}
	// A contiguous operand and a scalar take the flat kernel with the addresses offset.
	ctl.Reset()
	ctl.SetLaunchParams(6)
	ctl.SetParamBytes(8)
	d.Binary(backend.Add, dst, backend.Strided{Buf: a, Offset: 0, Strides: []int{4, 1}}, backend.Strided{Buf: b, Offset: 2, Strides: []int{0, 0}}, []int{6, 4})
	if log := ctl.Log(); !strings.Contains(log, "cuLaunchKernel binary_flat_f32 grid=1,1,1") || !strings.Contains(log, " p5=18") {
		t.Fatalf("flat launch not as expected (p5 = n = 24 = 0x18):\n%s", log)
	}
}

// TestEveryKernelTheBackendLaunchesIsInThePTX guards the names used in Go against the module.
func TestEveryKernelTheBackendLaunchesIsInThePTX(t *testing.T) {
	ptx := string(kernels.PTX)
	var names []string
	for _, base := range []string{"unary", "unary_grad", "binary_flat", "softmax", "softmax_grad", "layernorm", "layernorm_grad_dx", "layernorm_grad_wb",
		"xent", "xent_grad", "index_add", "scatter_add", "im2col", "col2im", "maxpool", "maxpool_grad", "avgpool", "avgpool_grad"} {
		names = append(names, base+"_f32", base+"_f64")
	}
	for _, base := range []string{"binary", "where", "reduce"} {
		names = append(names, base+"_f32", base+"_f64", base+"_i64")
	}
	for _, base := range []string{"copy", "index_select", "gather"} {
		names = append(names, base+"_2", base+"_4", base+"_8")
	}
	for _, base := range []string{"attn_fwd", "attn_grad_q", "attn_grad_kv", "topk", "multinomial"} {
		names = append(names, base+"_f32", base+"_f64")
	}
	names = append(names, "copy_convert", "fill_8", "adam_f32", "sgd_f32", "sumsq_f32", "scale_check_f32", "adadelta_f32", "rmsprop_f32", "adagrad_f32")
	for _, n := range names {
		if !strings.Contains(ptx, ".entry "+n+"(") {
			t.Errorf("kernel %s is not in the PTX", n)
		}
	}
}

// TestAttentionPassesHeadViewsAndParameters checks the Attn struct the attention kernel gets for
// heads read in place from a [B, T, 3, H, D] projection (B 2, H 4, T 5, D 8: the keys start at
// element 32 and a head's rows are 96 apart), and that the backward pass runs its two kernels.
func TestAttentionPassesHeadViewsAndParameters(t *testing.T) {
	d := open(t)
	qkv, out, lse := d.Alloc(backend.F32, 2*5*96), d.Alloc(backend.F32, 2*5*32), d.Alloc(backend.F32, 40)
	st := []int{480, 8, 96, 1}
	q, k, v := backend.Strided{Buf: qkv, Strides: st}, backend.Strided{Buf: qkv, Offset: 32, Strides: st}, backend.Strided{Buf: qkv, Offset: 64, Strides: st}
	o := backend.Strided{Buf: out, Strides: []int{160, 8, 32, 1}}
	p := backend.AttentionParams{Batch: 2, Heads: 4, Tq: 5, Tk: 5, D: 8, Dv: 8, Scale: 0.25, Causal: true, Dropout: 0.1, Seed: 7}
	ctl.Reset()
	ctl.SetLaunchParams(6)
	ctl.SetParamBytes(176)
	defer ctl.SetLaunchParams(0)
	d.Attention(o, lse, q, k, v, p)
	name, ps := lastLaunch(t)
	if name != "attn_fwd_f32" {
		t.Fatalf("launched %s", name)
	}
	if ps[3][0] != ps[2][0]+32*4 || ps[4][0] != ps[2][0]+64*4 {
		t.Fatalf("k and v addresses %d and %d, q %d: want q+128 and q+256 bytes", ps[3][0], ps[4][0], ps[2][0])
	}
	a := ps[5]
	want := []int64{2, 4, 5, 5, 8, 8, 480, 8, 96, 480, 8, 96, 480, 8, 96, 160, 8, 32}
	for i, w := range want {
		if a[i] != w {
			t.Fatalf("Attn word %d = %d, want %d (struct %v)", i, a[i], w, a[:len(want)])
		}
	}
	if math.Float64frombits(uint64(a[18])) != 0.25 || math.Float64frombits(uint64(a[19])) != 0.1 || a[20] != 7 || a[21] != 1 {
		t.Fatalf("scale, dropout, seed, causal = %v %v %d %d", math.Float64frombits(uint64(a[18])), math.Float64frombits(uint64(a[19])), a[20], a[21])
	}
	if !strings.Contains(ctl.Log(), "cuLaunchKernel attn_fwd_f32 grid=5,1,1") {
		t.Fatalf("40 rows at eight per block want 5 blocks:\n%s", ctl.Log())
	}
	ctl.Reset()
	ctl.SetLaunchParams(0)
	dqkv := d.Alloc(backend.F32, 2*5*96)
	gq, gk, gv := backend.Strided{Buf: dqkv, Strides: st}, backend.Strided{Buf: dqkv, Offset: 32, Strides: st}, backend.Strided{Buf: dqkv, Offset: 64, Strides: st}
	d.AttentionGrad(gq, gk, gv, o, o, lse, q, k, v, p)
	log := ctl.Log()
	if !strings.Contains(log, "attn_grad_q_f32") || !strings.Contains(log, "attn_grad_kv_f32") || strings.Index(log, "attn_grad_q_f32") > strings.Index(log, "attn_grad_kv_f32") {
		t.Fatalf("backward launches:\n%s", log)
	}
}

// TestPoolingAndAdaptiveStepsPassTheirStructs checks the AvgPool struct (14 words) of the
// average-pooling kernels and the scalars of the Adadelta, RMSprop and Adagrad kernels, as the
// CUDA side lays them out.
func TestPoolingAndAdaptiveStepsPassTheirStructs(t *testing.T) {
	d := open(t)
	x, y := d.Alloc(backend.F32, 2*3*7*7), d.Alloc(backend.F32, 2*3*4*4)
	p := backend.AvgPoolParams{Planes: 6, H: 7, W: 7, OH: 4, OW: 4, KH: 3, KW: 3, SH: 2, SW: 2, PH: 1, PW: 1, CountIncludePad: true, Divisor: 5}
	ctl.Reset()
	ctl.SetLaunchParams(3)
	ctl.SetParamBytes(112)
	defer ctl.SetLaunchParams(0)
	d.AvgPool2d(y, x, p)
	name, ps := lastLaunch(t)
	want := []int64{6, 7, 7, 4, 4, 3, 3, 2, 2, 1, 1, 1, 5, 0}
	if name != "avgpool_f32" || !slices.Equal(ps[2][:len(want)], want) {
		t.Fatalf("launched %s with %v, want avgpool_f32 with %v", name, ps[2], want)
	}
	ctl.Reset()
	d.AvgPool2dGrad(x, y, p)
	if name, _ := lastLaunch(t); name != "avgpool_grad_f32" || !strings.Contains(ctl.Log(), "grid=2,1,1") {
		t.Fatalf("gradient launch %s:\n%s", name, ctl.Log())
	}
	w, g, s, a := d.Alloc(backend.F32, 10), d.Alloc(backend.F32, 10), d.Alloc(backend.F32, 10), d.Alloc(backend.F32, 10)
	vec := func(b *backend.Buffer) []backend.Vec { return []backend.Vec{{Buf: b, Len: 10}} }
	words := func(fs ...float32) []int64 { // float32 pairs per 8-byte word, as the fake prints them
		var out []int64
		for i := 0; i < len(fs); i += 2 {
			lo, hi := math.Float32bits(fs[i]), uint32(0)
			if i+1 < len(fs) {
				hi = math.Float32bits(fs[i+1])
			}
			out = append(out, int64(uint64(hi)<<32|uint64(lo)))
		}
		return out
	}
	ctl.Reset()
	ctl.SetLaunchParams(6)
	ctl.SetParamBytes(24)
	d.AdadeltaStep(vec(w), vec(g), vec(s), vec(a), []backend.AdadeltaScalars{{LR: 1, Rho: 0.9, OneMinusRho: 0.1, Eps: 1e-6, WeightDecay: 0.5}})
	if name, ps := lastLaunch(t); name != "adadelta_f32" || ps[4][0] != 10 || !slices.Equal(ps[5][:3], words(1, 0.9, 0.1, 1e-6, 0.5)) {
		t.Fatalf("Adadelta launch %s %v", name, ps)
	}
	ctl.Reset()
	ctl.SetLaunchParams(7)
	ctl.SetParamBytes(32)
	d.RMSpropStep(vec(w), vec(g), vec(s), []backend.Vec{{}}, vec(a), []backend.RMSpropScalars{{LR: 0.01, Alpha: 0.99, OneMinusAlpha: 0.01, Eps: 1e-8, Centered: true}})
	if name, ps := lastLaunch(t); name != "rmsprop_f32" || ps[3][0] != 0 || ps[4][0] == 0 || ps[6][3] != 1 {
		t.Fatalf("RMSprop launch %s %v: want no momentum buffer, a gradient average, centered", name, ps)
	}
	ctl.Reset()
	ctl.SetLaunchParams(5)
	ctl.SetParamBytes(16)
	d.AdagradStep(vec(w), vec(g), vec(s), []backend.AdagradScalars{{CLR: 0.01, Eps: 1e-10, WeightDecay: 0}})
	if name, ps := lastLaunch(t); name != "adagrad_f32" || !slices.Equal(ps[4][:2], words(0.01, 1e-10, 0)) {
		t.Fatalf("Adagrad launch %s %v", name, ps)
	}
}

func TestABadIndexFoundOnTheDevicePanicsAtTheNextReadBack(t *testing.T) {
	d := open(t)
	x := d.Alloc(backend.F32, 4)
	rep := []int64{2, 7, 3, 5} // ERR_TARGET: target 7 at row 3, 5 classes
	if err := d.Do(func() error { return d.drv.CopyHtoD(d.errBuf, unsafe.Pointer(&rep[0]), 32, d.stream) }); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			msg, _ := recover().(string)
			if !strings.Contains(msg, "CrossEntropy: target 7 at row 3 is outside [0, 5)") || !strings.Contains(msg, "cuda:1") {
				t.Fatalf("panic %q", msg)
			}
		}()
		d.Download(x)
	}()
	d.Download(x) // reported once, then cleared
}

func TestReleasedAndUnreachableBuffersReturnToTheCache(t *testing.T) {
	d := open(t)
	b := d.Alloc(backend.F32, 1000)
	before := d.CacheStats()
	d.Release(b)
	c := d.Alloc(backend.F32, 900)
	if c.Ptr != b.Ptr || d.CacheStats().Hits != before.Hits+1 {
		t.Fatal("a released block was not reused")
	}
	live := d.CacheStats().LiveBytes
	for i := 0; i < 10; i++ {
		d.Alloc(backend.F32, 5000) // dropped at once
	}
	deadline := time.Now().Add(5 * time.Second)
	for d.CacheStats().LiveBytes > live && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := d.CacheStats().LiveBytes; got > live {
		t.Fatalf("%d bytes still live after the buffers became unreachable (was %d)", got, live)
	}
	runtime.KeepAlive(c)
}

// TestDroppedBuffersKeepDeviceMemoryBounded: 10,000 buffers of 4 MB, each dropped without
// Release (as a temporary a program never releases), with the pacer's collections between
// allocations (package tensors runs CollectIfDue before each): the caching allocator sees them
// come back, so the device's memory in use stays within the pacer's budget and the cache serves
// almost every request.
func TestDroppedBuffersKeepDeviceMemoryBounded(t *testing.T) {
	d := open(t)
	backend.Collect()
	before := d.CacheStats()
	most := before.LiveBytes
	for range 10000 {
		backend.CollectIfDue()
		d.AllocUninit(backend.F32, 1<<20)
		most = max(most, d.CacheStats().LiveBytes)
	}
	after := d.CacheStats()
	_, budget := d.Pacer().Bounds()
	if grew := most - before.LiveBytes; grew > budget+64<<20 {
		t.Fatalf("device memory in use peaked %d MB above the start (the pacer's largest budget %d MB)", grew>>20, budget>>20)
	}
	if raw := after.RawAllocs - before.RawAllocs; raw > int(budget>>22)+32 {
		t.Fatalf("%d raw device allocations for 10,000 dropped 4 MB buffers: the cache did not see them come back", raw)
	}
	t.Logf("peak %d MB above the start, %d raw allocations, %d collections", (most-before.LiveBytes)>>20, after.RawAllocs-before.RawAllocs, d.Pacer().Collections())
}

// TestHalfProductsReadOnlyTheElementsTheyNeed multiplies, under bfloat16, the last four
// columns of an [8, 64] float32 matrix that fills its allocation exactly: the rounded copy must
// read those 8×4 elements only (reading whole rows from the slice's start would run 60 elements
// past the allocation, which the emulated device reports as an illegal address), and the product
// must match the CPU's.
func TestHalfProductsReadOnlyTheElementsTheyNeed(t *testing.T) {
	d := open(t)
	c := cpu.New()
	r := rand.New(rand.NewPCG(5, 5))
	vals := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(r.IntN(9) - 4)
		}
		return v
	}
	av, bv := vals(8*64), vals(2*4*3)
	for _, transB := range []bool{false, true} {
		ha, hb, hc := host(backend.F32, av), host(backend.F32, bv), host(backend.F32, make([]float64, 2*8*3))
		da, db, dc := upload(d, backend.F32, av), upload(d, backend.F32, bv), upload(d, backend.F32, make([]float64, 2*8*3))
		ldb := 3
		if transB {
			ldb = 4
		}
		// A: columns 60..63 of the matrix, broadcast over a batch of 2; B: two 4×3 (or 3×4) matrices.
		c.Gemm(backend.BF16, false, transB, 2, 8, 3, 4, 1, ha, 60, 64, 0, hb, 0, ldb, 12, 0, hc, 0, 3, 24)
		d.Gemm(backend.BF16, false, transB, 2, 8, 3, 4, 1, da, 60, 64, 0, db, 0, ldb, 12, 0, dc, 0, 3, 24)
		got, want := asF64(d.Download(dc)), asF64(hc)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("transB=%v: C[%d] = %v, CPU %v", transB, i, got[i], want[i])
			}
		}
	}
}
