package accelerate

// shardSpec describes how one process takes its share of a loader's batches,
// as Accelerate's BatchSamplerShard does.
type shardSpec struct {
	numProcs, rank int
	batchSize      int // the loader's batch size (global when split)
	dropLast       bool
	split          bool
	even           bool
}

// batchesOf cuts indices into batches of size b (the last one shorter unless dropLast).
func batchesOf(indices []int, b int, dropLast bool) [][]int {
	var out [][]int
	for i := 0; i < len(indices); i += b {
		end := min(i+b, len(indices))
		if end-i < b && dropLast {
			break
		}
		out = append(out, indices[i:end])
	}
	return out
}

// shard returns this process's batches of one epoch, given the epoch's batches
// of the unsharded loader.
func (s shardSpec) shard(batches [][]int) [][]int {
	if s.numProcs == 1 {
		return batches // one process sees the loader as it is (Accelerate does not shard then)
	}
	if s.split {
		return s.shardSplit(batches)
	}
	return s.shardRoundRobin(batches)
}

// shardRoundRobin gives global batch i to process i % n. Only whole rounds are
// yielded as they come; the last, incomplete round is dropped (dropLast),
// yielded as is (!even), or completed from the start of the epoch (even).
func (s shardSpec) shardRoundRobin(batches [][]int) [][]int {
	n, b := s.numProcs, s.batchSize
	var out [][]int
	var initial []int
	var toYield []int
	idx := -1
	var batch []int
	for i, bt := range batches {
		idx, batch = i, bt
		if !s.dropLast && i < n {
			initial = append(initial, bt...)
		}
		if i%n == s.rank {
			toYield = bt
		}
		if i%n == n-1 && len(bt) == b {
			out = append(out, toYield)
			toYield = nil
		}
	}
	if s.dropLast || len(initial) == 0 {
		return out
	}
	if !s.even {
		if len(toYield) > 0 {
			out = append(out, toYield)
		}
		return out
	}
	if len(toYield) == b {
		out = append(out, toYield)
	}
	for len(initial) < n*b { // fewer samples than one round
		initial = append(initial, initial...)
	}
	if len(batch) == b {
		batch = nil
		idx++
	}
	cycle := 0
	for idx%n != 0 || len(batch) > 0 {
		end := cycle + b - len(batch)
		filled := append(append([]int(nil), batch...), initial[cycle:end]...)
		if idx%n == s.rank {
			out = append(out, filled)
		}
		cycle = end
		batch = nil
		idx++
	}
	return out
}

// shardSplit gives each process its slice of every global batch.
func (s shardSpec) shardSplit(batches [][]int) [][]int {
	per := s.batchSize / s.numProcs
	lo, hi := per*s.rank, per*(s.rank+1)
	var out [][]int
	var initial, last []int
	for i, bt := range batches {
		if i == 0 {
			initial = bt
		}
		last = bt
		if len(bt) == s.batchSize {
			out = append(out, bt[lo:hi])
		}
	}
	if s.dropLast || len(initial) == 0 || len(last) == s.batchSize {
		return out
	}
	if !s.even {
		if len(last) > lo {
			out = append(out, last[lo:min(hi, len(last))])
		}
		return out
	}
	for len(initial) < s.batchSize {
		initial = append(append([]int(nil), initial...), initial...)
	}
	filled := append(append([]int(nil), last...), initial...)
	return append(out, filled[lo:hi])
}

// remainder is the number of real samples in the last gathered round, as
// Accelerate's GradientState.remainder: -1 when nothing is padded (dropLast).
func (s shardSpec) remainder(datasetLen int) int {
	if s.dropLast {
		return -1
	}
	total := s.batchSize * s.numProcs
	if s.split {
		total = s.batchSize
	}
	return datasetLen % total
}
