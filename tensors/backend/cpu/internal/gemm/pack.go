package gemm

import (
	"unsafe"

	"github.com/goaccel/goaccel/internal/half"
)

// Packing copies a block of op(A) or op(B) into the contiguous micro-panel
// order the kernels stream through, zero-padding partial panels so kernels
// never see a ragged edge. Transposition is absorbed here: no whole-matrix
// transposed copy is ever made.
//
// Panels are measured in k-steps: one step is one k for float32 panels and a
// pair of ks (two bfloat16s per float32 slot) for pair panels.

// packAF32 packs rows [i0, i0+mc) × ks [p0, p0+kc) of op(A) into mr-row panels.
func packAF32(dst []float32, a []float32, lda int, trans bool, mr, i0, mc, p0, kc int) {
	for ip := 0; ip < mc; ip += mr {
		rows := min(mr, mc-ip)
		d := dst[ip*kc : ip*kc+mr*kc]
		if trans {
			for p := 0; p < kc; p++ {
				src := a[(p0+p)*lda+i0+ip:]
				o := d[p*mr : p*mr+mr]
				copy(o, src[:rows])
				clear(o[rows:])
			}
			continue
		}
		interleave(d, mr, a, (i0+ip)*lda+p0, lda, rows, kc)
		for r := rows; r < mr; r++ {
			for p := 0; p < kc; p++ {
				d[p*mr+r] = 0
			}
		}
	}
}

// interleave writes rows [0, rows) of the kc-long rows of x starting at
// x[off] (row stride ld) into d so that d[p*stride+r] = row r's p-th value:
// the transposing half of packing (A not transposed, B transposed). Groups of
// eight rows are unrolled; that keeps eight read streams and one write stream.
func interleave(d []float32, stride int, x []float32, off, ld, rows, kc int) {
	r := 0
	if haveTranspose8 && kc >= 8 {
		// Strips of eight rows, then one of four, with AVX block transposes.
		for _, t := range [...]struct {
			h int
			f func(dst *float32, dstStride int, src *float32, srcStride int, blocks int)
		}{{8, transpose8x8}, {4, transpose4x8}} {
			for ; r+t.h <= rows; r += t.h {
				o := off + r*ld
				_ = x[o+(t.h-1)*ld+kc-1]
				_ = d[r+(kc-1)*stride+t.h-1]
				t.f(&d[r], stride, &x[o], ld, kc/8)
				for p := kc &^ 7; p < kc; p++ {
					for i := 0; i < t.h; i++ {
						d[p*stride+r+i] = x[o+i*ld+p]
					}
				}
			}
		}
	}
	for ; r+8 <= rows; r += 8 {
		o := off + r*ld
		x0, x1, x2, x3 := x[o:][:kc], x[o+ld:][:kc], x[o+2*ld:][:kc], x[o+3*ld:][:kc]
		x4, x5, x6, x7 := x[o+4*ld:][:kc], x[o+5*ld:][:kc], x[o+6*ld:][:kc], x[o+7*ld:][:kc]
		dd := d[r:]
		for p := range x0 {
			q := dd[p*stride : p*stride+8 : p*stride+8]
			q[0], q[1], q[2], q[3] = x0[p], x1[p], x2[p], x3[p]
			q[4], q[5], q[6], q[7] = x4[p], x5[p], x6[p], x7[p]
		}
	}
	for ; r+4 <= rows; r += 4 {
		o := off + r*ld
		x0, x1, x2, x3 := x[o:][:kc], x[o+ld:][:kc], x[o+2*ld:][:kc], x[o+3*ld:][:kc]
		dd := d[r:]
		for p := range x0 {
			q := dd[p*stride : p*stride+4 : p*stride+4]
			q[0], q[1], q[2], q[3] = x0[p], x1[p], x2[p], x3[p]
		}
	}
	for ; r < rows; r++ {
		src := x[off+r*ld:][:kc]
		for p, v := range src {
			d[p*stride+r] = v
		}
	}
}

// packBF32 packs ks [p0, p0+kc) × columns [j0, j0+nc) of op(B) into nr-column panels.
func packBF32(dst []float32, b []float32, ldb int, trans bool, nr, p0, kc, j0, nc int) {
	for jp := 0; jp < nc; jp += nr {
		cols := min(nr, nc-jp)
		d := dst[jp*kc : jp*kc+nr*kc]
		if !trans && cols == nr && nr%8 == 0 && haveCopyRows8 && kc > 0 {
			// A full panel: one vector copy per row, where a copy call per row costs more
			// than the bytes it moves.
			src := b[p0*ldb+j0+jp:]
			_ = src[(kc-1)*ldb+nr-1]
			copyRows8(&d[0], &src[0], ldb, kc, nr/8)
			continue
		}
		if !trans {
			for p := 0; p < kc; p++ {
				o := d[p*nr : p*nr+nr]
				copy(o, b[(p0+p)*ldb+j0+jp:][:cols])
				clear(o[cols:])
			}
			continue
		}
		interleave(d, nr, b, (j0+jp)*ldb+p0, ldb, cols, kc)
		for c := cols; c < nr; c++ {
			for p := 0; p < kc; p++ {
				d[p*nr+c] = 0
			}
		}
	}
}

// packABF16 is packAF32 for bfloat16 input: widened to float32 panels
// (pairs false) or kept as bf16 with k interleaved in pairs (pairs true).
func packABF16(dst []float32, a []uint16, lda int, trans, pairs bool, mr, i0, mc, p0, kc int) {
	if !pairs {
		widen(dst, a, lda, trans, mr, i0, mc, p0, kc)
		return
	}
	if trans {
		zipPanels(dst, mr, a, p0*lda+i0, lda, mc, kc)
		return
	}
	ks := steps(kc, pairs)
	for ip := 0; ip < mc; ip += mr {
		rows := min(mr, mc-ip)
		pairRows(dst[ip*ks:ip*ks+mr*ks], mr, a, (i0+ip)*lda+p0, lda, rows, kc)
	}
}

// packBBF16 is packBF32 for bfloat16 input; see packABF16 for pairs.
func packBBF16(dst []float32, b []uint16, ldb int, trans, pairs bool, nr, p0, kc, j0, nc int) {
	if !pairs {
		widen(dst, b, ldb, !trans, nr, j0, nc, p0, kc)
		return
	}
	ks := steps(kc, pairs)
	for jp := 0; jp < nc; jp += nr {
		cols := min(nr, nc-jp)
		d := dst[jp*ks : jp*ks+nr*ks]
		if trans {
			pairRows(d, nr, b, (j0+jp)*ldb+p0, ldb, cols, kc)
		} else {
			zipPairs(d, nr, b, p0*ldb+j0+jp, ldb, cols, kc)
		}
	}
}

// pairRows packs one pair panel (width w) from `rows` k-contiguous rows of x
// starting at x[off]: each (k, k+1) pair is one 32-bit word already, so this
// is the float32 interleave on words when the rows start on even offsets.
func pairRows(d []float32, w int, x []uint16, off, ld, rows, kc int) {
	h := unsafe.Slice((*uint16)(unsafe.Pointer(&d[0])), 2*len(d))
	if off%2 == 0 && ld%2 == 0 && kc >= 2 && uintptr(unsafe.Pointer(&x[0]))%4 == 0 {
		x32 := unsafe.Slice((*float32)(unsafe.Pointer(&x[0])), len(x)/2)
		interleave(d, w, x32, off/2, ld/2, rows, kc/2)
		if kc%2 == 1 {
			o := h[(kc/2)*2*w:]
			for r := 0; r < rows; r++ {
				o[2*r], o[2*r+1] = x[off+r*ld+kc-1], 0
			}
		}
	} else {
		for r := 0; r < rows; r++ {
			src := x[off+r*ld:][:kc]
			for p, v := range src {
				h[(p>>1)*2*w+2*r+p&1] = v
			}
			if kc%2 == 1 {
				h[(kc>>1)*2*w+2*r+1] = 0
			}
		}
	}
	for q := 0; q < (kc+1)/2; q++ {
		clear(h[q*2*w+2*rows : q*2*w+2*w])
	}
}

// zipPairs packs one pair panel (width w) when k runs down the rows of x:
// rows p and p+1 (from x[off], stride ld) are zipped into (k, k+1) pairs.
func zipPairs(d []float32, w int, x []uint16, off, ld, cols, kc int) {
	d32 := unsafe.Slice((*uint32)(unsafe.Pointer(&d[0])), len(d))
	for q := 0; q < (kc+1)/2; q++ {
		o := d32[q*w : q*w+w]
		zipRow(o, x, off+2*q*ld, ld, cols, 2*q+1 < kc)
		clear(o[cols:])
	}
}

// zipPanels packs the pair panels (width w) of cols columns when k runs down the rows of x,
// as zipPairs does panel by panel: each pair of rows is zipped once across every panel (16
// columns a vector) and the zipped row is then cut into the panels. A's panels are 12 wide,
// which zipPairs alone would zip in scalar code: a third of a transposed-A product's time.
func zipPanels(dst []float32, w int, x []uint16, off, ld, cols, kc int) {
	ks := steps(kc, true)
	var stack [2 * mcRows]uint32
	row := stack[:]
	if cols > len(row) {
		row = make([]uint32, cols)
	}
	row = row[:cols]
	d32 := unsafe.Slice((*uint32)(unsafe.Pointer(&dst[0])), len(dst))
	for q := 0; q < ks; q++ {
		zipRow(row, x, off+2*q*ld, ld, cols, 2*q+1 < kc)
		for ip := 0; ip < cols; ip += w {
			o := d32[ip*ks+q*w : ip*ks+q*w+w]
			n := copy(o, row[ip:min(ip+w, cols)])
			clear(o[n:])
		}
	}
}

// zipRow zips cols elements of the row of x at off with the row below it (ld further):
// o[c] = x[off+c] | x[off+ld+c]<<16, k in the low half (pair panels exist only with the amd64
// bf16 kernels, little-endian); without the row below (both false: an odd k's last step) the
// high halves are 0.
func zipRow(o []uint32, x []uint16, off, ld, cols int, both bool) {
	r0 := x[off:][:cols]
	if !both {
		for c, v := range r0 {
			o[c] = uint32(v)
		}
		return
	}
	r1 := x[off+ld:][:cols]
	c0 := 0
	if n16 := cols / 16; n16 > 0 && haveZip16 {
		zipRows16(&o[0], &r0[0], &r1[0], n16)
		c0 = 16 * n16
	}
	for c := c0; c < cols; c++ {
		o[c] = uint32(r0[c]) | uint32(r1[c])<<16
	}
}

// widen packs bf16 into float32 panels of width w for the fp32 kernels on CPUs
// without AVX512_BF16. kMajor says k runs down x's rows (A transposed, B not):
// element (i, p) is x[p*ld+i], else x[i*ld+p].
func widen(dst []float32, x []uint16, ld int, kMajor bool, w, i0, mc, p0, kc int) {
	for ip := 0; ip < mc; ip += w {
		rows := min(w, mc-ip)
		d := dst[ip*kc : ip*kc+w*kc]
		for p := 0; p < kc; p++ {
			o := d[p*w : p*w+w]
			for r := 0; r < rows; r++ {
				idx := (i0+ip+r)*ld + p0 + p
				if kMajor {
					idx = (p0+p)*ld + i0 + ip + r
				}
				o[r] = half.BF16ToF32(x[idx])
			}
			clear(o[rows:])
		}
	}
}

// steps is the number of packed k-steps holding kc values of k.
func steps(kc int, pairs bool) int {
	if pairs {
		return (kc + 1) / 2
	}
	return kc
}

// Transpose writes the transpose of the rows×cols matrix src (row stride lds) into dst (row
// stride ldd): dst[j*ldd+i] = src[i*lds+j]. Strips of 8 and 4 rows go through AVX block
// transposes where the CPU has them.
func Transpose(dst []float32, ldd int, src []float32, lds, rows, cols int) {
	if rows <= 0 || cols <= 0 {
		return
	}
	_ = src[(rows-1)*lds+cols-1]
	_ = dst[(cols-1)*ldd+rows-1]
	interleave(dst, ldd, src, 0, lds, rows, cols)
}
