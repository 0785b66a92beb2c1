package direct

// panels are the 32-wide panels (the last 16 wide) of outPad filters.
func panels(outPad int) []panel {
	var ps []panel
	for col0 := 0; col0 < outPad; col0 += 32 {
		ps = append(ps, panel{col0: col0, nv: min(2, (outPad-col0)/16)})
	}
	return ps
}

// toEights repeats the last of offs until there is a multiple of 8: the weight-gradient
// kernel takes 8 taps at a time and the extra ones only fill accumulator rows nobody reads.
func toEights(offs []int) []int {
	for len(offs)%8 != 0 {
		offs = append(offs, offs[len(offs)-1])
	}
	return offs
}

// runs returns near-equal runs of at most most that add up to n.
func runs(n, most int) []int {
	k := (n + most - 1) / most
	runs := make([]int, k)
	for i := range runs {
		runs[i] = n / k
		if i < n%k {
			runs[i]++
		}
	}
	return runs
}

// padImage writes the c planes h×w of x into dst's planes hp×wp, top rows and left columns
// down and right of the corner, and zeroes the rest of each plane.
func padImage(dst, x []float32, c, h, w, top, left, hp, wp int) {
	hw, plane := h*w, hp*wp
	_ = x[c*hw-1]
	for ch := 0; ch < c; ch++ {
		d, src := dst[ch*plane:][:plane], x[ch*hw:][:hw]
		clear(d[:top*wp+left])
		for y := 0; y < h; y++ {
			row := d[(top+y)*wp+left:]
			copy(row[:w], src[y*w:][:w])
			if y < h-1 {
				clear(row[w:wp]) // this row's right border and the next one's left
			}
		}
		clear(d[(top+h-1)*wp+left+w:])
	}
}
