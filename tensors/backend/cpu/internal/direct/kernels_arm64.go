//go:build arm64 && !purego

package direct

import "unsafe"

// available: every arm64 CPU has NEON.
const available = true

// forwardKernels[nv-1][rows-1] computes rows positions × 16·nv filters, as on amd64, with
// forwardNEON kernels of up to maxForwardRows positions × 16 filters.
var forwardKernels = func() (k [2][maxRows]forwardKernel) {
	for nv := 1; nv <= 2; nv++ {
		for rows := 1; rows <= maxRows; rows++ {
			k[nv-1][rows-1] = forwardTile(nv, rows)
		}
	}
	return k
}()

// weightGradKernels[nv-1] sums 8 taps × 16·nv filters, as on amd64, 8 filters a call of
// weightGradNEON.
var weightGradKernels = [2]weightGradKernel{weightGradTile(1), weightGradTile(2)}

// planarForwardKernels[n-1] computes n filters (planarForward).
var planarForwardKernels = [maxPlanarFilters]planarForwardKernel{planarForward1, planarForward2, planarForward3, planarForward4, planarForward5, planarForward6, planarForward7, planarForward8, planarForward9, planarForward10, planarForward11, planarForward12, planarForward13, planarForward14, planarForward15, planarForward16}

// planarWeightGradKernels[n-1] sums for n filters (planarWeightGrad), a filter's row of taps
// a call of planarGradRowNEON.
var planarWeightGradKernels = [maxPlanarGradFilters]planarWeightGradKernel{planarWeightGradTile(1), planarWeightGradTile(2), planarWeightGradTile(3)}

// maxForwardRows is the most positions one forwardNEON kernel computes (gen_neon.go).
const maxForwardRows = 6

var forwardNEON = [maxForwardRows]func(kc int, x unsafe.Pointer, offs *int, b unsafe.Pointer, bStride int, bias *float32, c *float32, ldc int){
	forwardNEON1, forwardNEON2, forwardNEON3, forwardNEON4, forwardNEON5, forwardNEON6,
}

// forwardTile is the forward kernel of rows positions × 16·nv filters: forwardNEON kernels over
// each 16 filters and runs of at most maxForwardRows positions. Each output sums its taps in
// the same order whatever the tile, so the results are the same.
func forwardTile(nv, rows int) forwardKernel {
	return func(kc int, x unsafe.Pointer, offs *int, b unsafe.Pointer, bias *float32, c *float32, ldc int) {
		for v := 0; v < nv; v++ {
			var bv *float32
			if bias != nil {
				bv = (*float32)(unsafe.Add(unsafe.Pointer(bias), 64*v))
			}
			for i := 0; i < rows; i += maxForwardRows {
				r := min(maxForwardRows, rows-i)
				cv := (*float32)(unsafe.Add(unsafe.Pointer(c), 4*(i*ldc+16*v)))
				forwardNEON[r-1](kc, unsafe.Add(x, 4*i), offs, unsafe.Add(b, 64*v), 64*nv, bv, cv, ldc)
			}
		}
	}
}

// weightGradTile is the weight-gradient kernel of 8 taps × 16·nv filters.
func weightGradTile(nv int) weightGradKernel {
	return func(offs *int, x, grad unsafe.Pointer, rows, rowLen, xRowStride int, c *float32, ldc int) {
		for f := 0; f < 16*nv; f += 8 {
			weightGradNEON(offs, x, unsafe.Add(grad, 4*f), rows, rowLen, xRowStride, (*float32)(unsafe.Add(unsafe.Pointer(c), 4*f)), ldc, 64*nv)
		}
	}
}

// planarWeightGradTile is the planar weight-gradient kernel of nf filters: sums[9f + 3dy + dx]
// from planarGradRowNEON for each filter f and row of taps dy.
func planarWeightGradTile(nf int) planarWeightGradKernel {
	return func(x unsafe.Pointer, xRow int, gy unsafe.Pointer, gyPlane, rows, rowLen int, sums *float32) {
		for f := 0; f < nf; f++ {
			for dy := 0; dy < 3; dy++ {
				s := (*float32)(unsafe.Add(unsafe.Pointer(sums), 4*(9*f+3*dy)))
				planarGradRowNEON(unsafe.Add(x, dy*xRow), xRow, unsafe.Add(gy, f*gyPlane), rows, rowLen, s)
			}
		}
	}
}
