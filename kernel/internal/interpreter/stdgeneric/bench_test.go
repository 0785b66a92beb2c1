package stdgeneric

import (
	"testing"

	"github.com/goaccel/goaccel/kernel/internal/interpreter/std"
	"github.com/traefik/yaegi/interp"
)

// BenchmarkLoad is what Load adds to starting a session.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		i := interp.New(interp.Options{})
		if err := i.Use(std.Symbols); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := Load(i); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSortMillionFloatsFromACell is slices.Sort of 1M float64s called
// from interpreted code (compiled through SortOrdered); compare
// BenchmarkSortMillionFloatsCompiled.
func BenchmarkSortMillionFloatsFromACell(b *testing.B) {
	i := newInterp(b)
	if _, err := i.Eval(`xs := make([]float64, 1<<20); fill := func() { for k := range xs { xs[k] = float64((k * 7919) % 1000003) } }`); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		b.StopTimer()
		if _, err := i.Eval(`fill()`); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := i.Eval(`slices.Sort(xs)`); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSortMillionFloatsCompiled(b *testing.B) {
	xs := make([]float64, 1<<20)
	for b.Loop() {
		b.StopTimer()
		for k := range xs {
			xs[k] = float64((k * 7919) % 1000003)
		}
		b.StartTimer()
		SortOrdered(xs)
	}
}
