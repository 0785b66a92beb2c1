package backendtest

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/tensors/backend"
)

// softmaxRef is softmax (or log-softmax) over the middle axis of [outer, n, inner].
func softmaxRef(x []float64, outer, n, inner int, log bool) []float64 {
	y := make([]float64, len(x))
	for o := range outer {
		for i := range inner {
			idx := func(j int) int { return (o*n+j)*inner + i }
			m := math.Inf(-1)
			for j := range n {
				m = max(m, x[idx(j)])
			}
			sum := 0.0
			for j := range n {
				sum += math.Exp(x[idx(j)] - m)
			}
			for j := range n {
				if log {
					y[idx(j)] = x[idx(j)] - m - math.Log(sum)
				} else {
					y[idx(j)] = math.Exp(x[idx(j)]-m) / sum
				}
			}
		}
	}
	return y
}

// softmaxGradRef is the input gradient given the output y and upstream gy.
func softmaxGradRef(gy, y []float64, outer, n, inner int, log bool) []float64 {
	dx := make([]float64, len(y))
	for o := range outer {
		for i := range inner {
			idx := func(j int) int { return (o*n+j)*inner + i }
			dot := 0.0
			for j := range n {
				if log {
					dot += gy[idx(j)]
				} else {
					dot += gy[idx(j)] * y[idx(j)]
				}
			}
			for j := range n {
				if log {
					dx[idx(j)] = gy[idx(j)] - math.Exp(y[idx(j)])*dot
				} else {
					dx[idx(j)] = y[idx(j)] * (gy[idx(j)] - dot)
				}
			}
		}
	}
	return dx
}

// checkSoftmax: softmax and log-softmax and their gradients in both float types, over inner
// axes of 1 and more, with logits far from zero (the maximum must be subtracted).
func checkSoftmax(s *suite) {
	for _, dt := range floats {
		for _, sh := range [][3]int{{5, 300, 1}, {3, 7, 4}, {2, 1031, 1}, {4, 1, 3}} {
			outer, n, inner := sh[0], sh[1], sh[2]
			v := s.uniform(outer*n*inner, -8, 8)
			for i := 0; i < inner; i++ {
				v[i] += 500 // a row (column) that overflows exp without the shift
			}
			for i := range v {
				v[i] = round(dt, v[i])
			}
			x := s.put(dt, v)
			gy, gv := s.rand(dt, len(v), -1, 1)
			for _, log := range []bool{false, true} {
				what := fmt.Sprintf("%s [%d %d %d] log %v", dt, outer, n, inner, log)
				y := s.be.AllocUninit(dt, len(v))
				s.be.Softmax(y, x, outer, n, inner, log)
				s.expect("Softmax "+what, y, softmaxRef(v, outer, n, inner, log), tolerance(dt))
				yv := s.get(y)
				dx := s.be.AllocUninit(dt, len(v))
				s.be.SoftmaxGrad(dx, gy, y, outer, n, inner, log)
				s.expect("SoftmaxGrad "+what, dx, softmaxGradRef(gv, yv, outer, n, inner, log), 10*tolerance(dt))
			}
		}
	}
}

// checkLayerNorm: rows normalised with and without weight and bias, the saved mean and
// reciprocal standard deviation, and the gradient accumulating into dw and db.
func checkLayerNorm(s *suite) {
	const eps = 1e-5
	for _, dt := range floats {
		// Rows of a multiple of 16 take the CPU's vector kernels; 64 rows of 512 its gradient
		// in several row chunks.
		for _, sh := range [][2]int{{5, 300}, {3, 7}, {2, 1031}, {3, 128}, {64, 512}} {
			rows, n := sh[0], sh[1]
			for _, affine := range []bool{true, false} {
				what := fmt.Sprintf("%s [%d %d] affine %v", dt, rows, n, affine)
				x, xv := s.rand(dt, rows*n, -3, 5)
				var w, b *backend.Buffer
				wv, bv := constant(n, 1), make([]float64, n)
				if affine {
					w, wv = s.rand(dt, n, 0.5, 1.5)
					b, bv = s.rand(dt, n, -1, 1)
				}
				y := s.be.AllocUninit(dt, rows*n)
				mean, rstd := s.be.AllocUninit(dt, rows), s.be.AllocUninit(dt, rows)
				s.be.LayerNorm(y, mean, rstd, x, w, b, rows, n, eps)
				wantY, wantMean, wantRstd := make([]float64, rows*n), make([]float64, rows), make([]float64, rows)
				xhat := make([]float64, rows*n)
				for r := range rows {
					row := xv[r*n : (r+1)*n]
					mu, ss := 0.0, 0.0
					for _, v := range row {
						mu += v
					}
					mu /= float64(n)
					for _, v := range row {
						ss += (v - mu) * (v - mu)
					}
					rs := 1 / math.Sqrt(ss/float64(n)+eps)
					wantMean[r], wantRstd[r] = mu, rs
					for i, v := range row {
						xhat[r*n+i] = (v - mu) * rs
						wantY[r*n+i] = xhat[r*n+i]*wv[i] + bv[i]
					}
				}
				s.expect("LayerNorm y "+what, y, wantY, 10*tolerance(dt))
				s.expect("LayerNorm mean "+what, mean, wantMean, 10*tolerance(dt))
				s.expect("LayerNorm rstd "+what, rstd, wantRstd, 10*tolerance(dt))

				gy, gv := s.rand(dt, rows*n, -1, 1)
				dx := s.be.AllocUninit(dt, rows*n)
				var dw, db *backend.Buffer
				dwv, dbv := make([]float64, n), make([]float64, n)
				if affine {
					dw, dwv = s.rand(dt, n, -1, 1) // accumulated into
					db, dbv = s.rand(dt, n, -1, 1)
				}
				s.be.LayerNormGrad(dx, dw, db, gy, x, mean, rstd, w, rows, n)
				wantDx := make([]float64, rows*n)
				for r := range rows {
					sg, sgx := 0.0, 0.0
					for i := range n {
						g := gv[r*n+i] * wv[i]
						sg += g
						sgx += g * xhat[r*n+i]
						dwv[i] += gv[r*n+i] * xhat[r*n+i]
						dbv[i] += gv[r*n+i]
					}
					for i := range n {
						g := gv[r*n+i] * wv[i]
						wantDx[r*n+i] = wantRstd[r] * (g - sg/float64(n) - xhat[r*n+i]*sgx/float64(n))
					}
				}
				s.expect("LayerNormGrad dx "+what, dx, wantDx, 100*tolerance(dt))
				if affine {
					s.expect("LayerNormGrad dw (accumulated) "+what, dw, dwv, 100*tolerance(dt))
					s.expect("LayerNormGrad db (accumulated) "+what, db, dbv, 100*tolerance(dt))
				}
			}
		}
	}
}

// checkCrossEntropy: per-row losses with ignored rows and label smoothing, the kept softmax,
// the count of rows not ignored, and the gradient with per-row and shared upstream gradients.
func checkCrossEntropy(s *suite) {
	const ignore = -100
	for _, dt := range floats {
		for _, sh := range [][2]int{{6, 10}, {4, 1031}} {
			rows, classes := sh[0], sh[1]
			for _, smoothing := range []float64{0, 0.1} {
				what := fmt.Sprintf("%s [%d %d] smoothing %g", dt, rows, classes, smoothing)
				logits, lv := s.rand(dt, rows*classes, -4, 4)
				tv := make([]float64, rows)
				for r := range tv {
					tv[r] = float64(s.r.IntN(classes))
				}
				tv[1] = ignore
				target := s.put(backend.I64, tv)
				loss, prob := s.be.AllocUninit(dt, rows), s.be.AllocUninit(dt, rows*classes)
				count, _ := s.poison(dt, 1)
				s.be.CrossEntropy(loss, prob, count, logits, target, rows, classes, ignore, smoothing)
				p := softmaxRef(lv, rows, classes, 1, false)
				wantLoss := make([]float64, rows)
				for r := range rows {
					if tv[r] == ignore {
						continue
					}
					row := lv[r*classes : (r+1)*classes]
					m := math.Inf(-1)
					for _, v := range row {
						m = max(m, v)
					}
					sum, mean := 0.0, 0.0
					for _, v := range row {
						sum += math.Exp(v - m)
					}
					lse := m + math.Log(sum)
					for _, v := range row {
						mean += (lse - v) / float64(classes)
					}
					wantLoss[r] = (1-smoothing)*(lse-row[int(tv[r])]) + smoothing*mean
				}
				s.expect("CrossEntropy loss "+what, loss, wantLoss, 10*tolerance(dt))
				s.expect("CrossEntropy softmax "+what, prob, p, 10*tolerance(dt))
				s.expect("CrossEntropy count "+what, count, []float64{float64(rows - 1)}, 0)
				// Without a count.
				loss2 := s.be.AllocUninit(dt, rows)
				s.be.CrossEntropy(loss2, prob, nil, logits, target, rows, classes, ignore, smoothing)
				s.expect("CrossEntropy loss without a count "+what, loss2, wantLoss, 10*tolerance(dt))

				pv := s.get(prob)
				for _, shared := range []bool{false, true} {
					glLen := rows
					if shared {
						glLen = 1
					}
					gl, glv := s.rand(dt, glLen, 0.1, 2)
					dl := s.be.AllocUninit(dt, rows*classes)
					s.be.CrossEntropyGrad(dl, gl, prob, target, rows, classes, ignore, smoothing)
					want := make([]float64, rows*classes)
					for r := range rows {
						if tv[r] == ignore {
							continue
						}
						g := glv[0]
						if !shared {
							g = glv[r]
						}
						for j := range classes {
							onehot := 0.0
							if j == int(tv[r]) {
								onehot = 1
							}
							want[r*classes+j] = g * (pv[r*classes+j] - (1-smoothing)*onehot - smoothing/float64(classes))
						}
					}
					s.expect(fmt.Sprintf("CrossEntropyGrad %s, one upstream gradient for all rows %v", what, shared), dl, want, 10*tolerance(dt))
				}
			}
		}
	}
}
