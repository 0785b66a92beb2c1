package sim

import (
	"math"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
)

func mustPanic(t *testing.T, want string, fn func()) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Fatalf("no panic; want one containing %q", want)
		}
		if msg, _ := r.(string); !strings.Contains(msg, want) {
			t.Fatalf("panic %v; want one containing %q", r, want)
		}
	}()
	fn()
}

func TestBuffersAreOpaqueToTheHost(t *testing.T) {
	d := New("t")
	b := d.Alloc(backend.F32, 4)
	if b.F32 != nil || b.F64 != nil || b.I64 != nil || b.U16 != nil || b.Ptr == 0 {
		t.Fatalf("device buffer exposes host memory: %+v", b)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("reading a device buffer's host slice did not panic")
		}
	}()
	_ = b.F32[0]
}

func TestKernelsRefuseHostAndReleasedBuffers(t *testing.T) {
	d := New("t")
	host := backend.NewHost(backend.F32, 4)
	dev := d.Alloc(backend.F32, 4)
	mustPanic(t, "was given a host buffer", func() { d.Unary(backend.Exp, dev, host, 0, 0) })
	d.Release(dev)
	mustPanic(t, "was released, or belongs to another device", func() { d.Fill(dev, 1) })
	other := New("u").Alloc(backend.F32, 4)
	mustPanic(t, "belongs to another device", func() { d.Fill(other, 1) })
}

func TestTransfersAreCountedAndCopy(t *testing.T) {
	d := New("t")
	h := backend.NewHost(backend.F32, 3)
	copy(h.F32, []float32{1, 2, 3})
	b := d.Upload(h)
	h.F32[0] = 9 // the device holds its own copy
	d.Unary(backend.MulScalar, b, b, 2, 0)
	got := d.Download(b)
	if got.F32[0] != 2 || got.F32[2] != 6 {
		t.Fatalf("downloaded %v, want [2 4 6]", got.F32)
	}
	s := d.Stats()
	if s.Uploads != 1 || s.Downloads != 1 || s.UploadBytes != 12 || s.DownloadBytes != 12 || s.Live != 1 {
		t.Fatalf("stats %+v, want one 12-byte transfer each way and one live buffer", s)
	}
}

func TestUninitializedMemoryIsPoisoned(t *testing.T) {
	d := New("t")
	f := d.Download(d.AllocUninit(backend.F32, 2))
	i := d.Download(d.AllocUninit(backend.I64, 2))
	if !math.IsNaN(float64(f.F32[0])) || i.I64[0] != -1<<40 {
		t.Fatalf("AllocUninit holds %v and %v, want NaN and a poison integer", f.F32, i.I64)
	}
	z := d.Download(d.Alloc(backend.F32, 2))
	if z.F32[0] != 0 || z.F32[1] != 0 {
		t.Fatalf("Alloc holds %v, want zeros", z.F32)
	}
}

func TestRegisteredTypesAreCoreOnlyAndFused(t *testing.T) {
	core, err := backend.Open("sim", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := core.(backend.Transfer); !ok {
		t.Fatal(`completed "sim" lost its Transfer`)
	}
	f, err := backend.Open("simfused", 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.(*fused); !ok {
		t.Fatalf(`"simfused" is %T, want the fused device itself`, f)
	}
	if Lookup("simfused", 1).Name() != "simfused:1" {
		t.Fatalf("Lookup returned %s", Lookup("simfused", 1).Name())
	}
}

// TestUnreachableHandlesAreReclaimed: a handle no one references gives its memory back, as a GPU's
// caching allocator gets its blocks back, and the device counts it.
func TestUnreachableHandlesAreReclaimed(t *testing.T) {
	d := New("t")
	d.Alloc(backend.F32, 1000) // dropped at once
	kept := d.Alloc(backend.F32, 10)
	backend.Collect()
	st := d.Stats()
	if st.Reclaimed != 1 || st.Live != 1 || st.LiveBytes != 40 || st.MaxLiveBytes != 4040 {
		t.Fatalf("stats %+v; want the dropped buffer reclaimed and the kept one live", st)
	}
	d.Release(kept)
	if st := d.Stats(); st.Live != 0 || st.LiveBytes != 0 {
		t.Fatalf("stats %+v after releasing the kept buffer", st)
	}
}
