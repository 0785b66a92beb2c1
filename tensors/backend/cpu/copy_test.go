package cpu

import "testing"

// TestFillDoublingSetsEveryElement covers rows filled by the loop alone, rows just past the
// doubled head, and lengths that are no power of two.
func TestFillDoublingSetsEveryElement(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 128, 129, 130, 1000, 4097, 1 << 16} {
		row := make([]float32, n+1)
		row[n] = -1 // a sentinel past the row: must stay
		fillDoubling(row[:n], 2.5)
		for i, v := range row[:n] {
			if v != 2.5 {
				t.Fatalf("n=%d: row[%d] = %v, want 2.5", n, i, v)
			}
		}
		if row[n] != -1 {
			t.Fatalf("n=%d: wrote past the row", n)
		}
	}
}
