package datasets

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/tensors"
)

// TrainTestSplit splits the rows at random into a train and a test part
// (datasets.Dataset.train_test_split with shuffle=True and a seed): testSize below 1 is the
// fraction of rows held out (rounded up, as datasets does), 1 or more their number. Both parts
// come in the random order, test rows first drawn; the same seed gives the same split. The
// permutation comes from goaccel's generator, not NumPy's, so the rows chosen differ from
// datasets' for the same seed.
func (d *Dataset) TrainTestSplit(testSize float64, seed uint64) (train, test *Dataset, err error) {
	var nTest int
	switch {
	case testSize > 0 && testSize < 1:
		nTest = int(math.Ceil(testSize * float64(d.n)))
	case testSize >= 1 && testSize == math.Trunc(testSize):
		nTest = int(testSize)
	default:
		return nil, nil, fmt.Errorf("datasets: TrainTestSplit: testSize %v must be a fraction in (0, 1) or a whole number of rows", testSize)
	}
	if nTest >= d.n {
		return nil, nil, fmt.Errorf("datasets: TrainTestSplit: a test part of %d rows leaves no training rows out of %d", nTest, d.n)
	}
	perm := tensors.NewGenerator(seed).Perm(d.n)
	fp := derive(d.fingerprint, "train_test_split", testSize, seed)
	return d.take(perm[nTest:], derive(fp, "train")), d.take(perm[:nTest], derive(fp, "test")), nil
}

// SplitEvery holds out every k-th row of each group of rows sharing a value of column (each
// class of a label column), starting with the group's first: rows 0, k, 2k… of every group, in
// dataset order, go to test, the others to train. Both parts keep the dataset's order. It is
// the deterministic split of a benchmark ("every 5th article per topic held out": k = 5).
func (d *Dataset) SplitEvery(k int, column string) (train, test *Dataset, err error) {
	if k < 2 {
		return nil, nil, fmt.Errorf("datasets: SplitEvery: k = %d; hold out every k-th row with k ≥ 2", k)
	}
	c, err := d.column(column)
	if err != nil {
		return nil, nil, fmt.Errorf("datasets: SplitEvery: %w", err)
	}
	seen := map[any]int{}
	var trainIdx, testIdx []int
	for i := range d.n {
		key := c.value(i)
		if c.Kind == KindIntList || c.Kind == KindFloatList {
			key = fmt.Sprint(key)
		}
		if seen[key]%k == 0 {
			testIdx = append(testIdx, i)
		} else {
			trainIdx = append(trainIdx, i)
		}
		seen[key]++
	}
	fp := derive(d.fingerprint, "split_every", k, column)
	return d.take(trainIdx, derive(fp, "train")), d.take(testIdx, derive(fp, "test")), nil
}
