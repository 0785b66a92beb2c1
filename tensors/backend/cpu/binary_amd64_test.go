//go:build amd64 && !purego

package cpu

import (
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
)

// TestAddStreamingMatchesScalar checks the non-temporal add on outputs that start at every
// float offset from a 32-byte boundary and end with a tail the vector loop leaves over.
func TestAddStreamingMatchesScalar(t *testing.T) {
	if !haveAVX2FMA {
		t.Skip("skipping: the CPU has no AVX2/FMA, so the vector kernels are not used")
	}
	const n = streamBytes/4 + 45
	x, y := make([]float32, n+8), make([]float32, n+8)
	for i := range x {
		x[i], y[i] = float32(i%1000)*0.5, float32(i%77)-3
	}
	for off := range 8 {
		d := make([]float32, n+8)[off : off+n]
		done := vecF32(backend.Add, d, x[off:off+n], y[off:off+n], 0)
		if done < n-39 || done > n {
			t.Fatalf("offset %d: the vector kernel handled %d of %d elements", off, done, n)
		}
		for i := range done {
			if want := x[off+i] + y[off+i]; d[i] != want {
				t.Fatalf("offset %d: d[%d] = %v, want %v", off, i, d[i], want)
			}
		}
	}
}
