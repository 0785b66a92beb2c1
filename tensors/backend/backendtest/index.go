package backendtest

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors/backend"
)

// checkIndex: IndexSelect and Gather in every element type (they move elements exactly),
// IndexAdd and ScatterAdd in both float types, accumulating into the destination, with repeated
// indices; an embedding-shaped select of long rows.
func checkIndex(s *suite) {
	type shape struct{ outer, n, m, inner int }
	for _, sh := range []shape{{2, 5, 4, 3}, {1, 50, 30, 64}, {3, 4, 9, 1}} {
		idx := make([]float64, sh.m)
		for j := range idx {
			idx[j] = float64(s.r.IntN(sh.n))
		}
		idx[0], idx[len(idx)-1] = float64(sh.n-1), float64(sh.n-1) // repeated
		gidx := s.ints(sh.outer*sh.m*sh.inner, 0, sh.n)
		ib, gb := s.put(backend.I64, idx), s.put(backend.I64, gidx)
		for _, dt := range every {
			what := fmt.Sprintf("%s [%d %d %d] by %d indices", dt, sh.outer, sh.n, sh.inner, sh.m)
			src, sv := s.rand(dt, sh.outer*sh.n*sh.inner, -50, 50)
			sel, _ := s.poison(dt, sh.outer*sh.m*sh.inner)
			s.be.IndexSelect(sel, src, ib, sh.outer, sh.n, sh.inner)
			want := make([]float64, sel.Len)
			for o := range sh.outer {
				for j := range sh.m {
					for i := range sh.inner {
						want[(o*sh.m+j)*sh.inner+i] = sv[(o*sh.n+int(idx[j]))*sh.inner+i]
					}
				}
			}
			s.expect("IndexSelect "+what, sel, want, 0)
			gat, _ := s.poison(dt, sh.outer*sh.m*sh.inner)
			s.be.Gather(gat, src, gb, sh.outer, sh.n, sh.m, sh.inner)
			for o := range sh.outer {
				for j := range sh.m {
					for i := range sh.inner {
						k := (o*sh.m+j)*sh.inner + i
						want[k] = sv[(o*sh.n+int(gidx[k]))*sh.inner+i]
					}
				}
			}
			s.expect("Gather "+what, gat, want, 0)
			if dt != backend.F32 && dt != backend.F64 {
				continue
			}
			rows, rv := s.rand(dt, sh.outer*sh.m*sh.inner, -5, 5)
			add, av := s.rand(dt, sh.outer*sh.n*sh.inner, -5, 5) // accumulated into
			s.be.IndexAdd(add, rows, ib, sh.outer, sh.n, sh.inner)
			wantAdd := append([]float64(nil), av...)
			for o := range sh.outer {
				for j := range sh.m {
					for i := range sh.inner {
						wantAdd[(o*sh.n+int(idx[j]))*sh.inner+i] += rv[(o*sh.m+j)*sh.inner+i]
					}
				}
			}
			s.expect("IndexAdd "+what, add, wantAdd, tolerance(dt))
			sc, scv := s.rand(dt, sh.outer*sh.n*sh.inner, -5, 5)
			s.be.ScatterAdd(sc, rows, gb, sh.outer, sh.n, sh.m, sh.inner)
			wantSc := append([]float64(nil), scv...)
			for o := range sh.outer {
				for j := range sh.m {
					for i := range sh.inner {
						k := (o*sh.m+j)*sh.inner + i
						wantSc[(o*sh.n+int(gidx[k]))*sh.inner+i] += rv[k]
					}
				}
			}
			s.expect("ScatterAdd "+what, sc, wantSc, tolerance(dt))
		}
	}
}
