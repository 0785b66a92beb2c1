package datasets

import (
	"fmt"
	"slices"

	"github.com/goaccel/goaccel/tensors"
)

// take returns the rows at idx (checked by the caller) with the given fingerprint.
func (d *Dataset) take(idx []int, fingerprint string) *Dataset {
	cols := make([]*column, len(d.cols))
	for i, c := range d.cols {
		cols[i] = c.take(idx)
	}
	return &Dataset{cols: cols, n: len(idx), fingerprint: fingerprint}
}

// rows returns the rows lo..hi-1 (a batch for Map or the collator); its fingerprint is derived.
func (d *Dataset) rows(lo, hi int) *Dataset {
	idx := make([]int, hi-lo)
	for k := range idx {
		idx[k] = lo + k
	}
	return d.take(idx, derive(d.fingerprint, "rows", lo, hi))
}

// Select returns the rows at indices, in that order (an index may repeat).
func (d *Dataset) Select(indices []int) (*Dataset, error) {
	for k, i := range indices {
		if i < 0 || i >= d.n {
			return nil, fmt.Errorf("datasets: Select: index %d (position %d) is out of range for %d rows", i, k, d.n)
		}
	}
	return d.take(indices, derive(d.fingerprint, "select", indices)), nil
}

// Shuffle returns the rows in a random order drawn from seed (the same seed gives the same order).
func (d *Dataset) Shuffle(seed uint64) *Dataset {
	perm := tensors.NewGenerator(seed).Perm(d.n)
	return d.take(perm, derive(d.fingerprint, "shuffle", seed))
}

// Filter returns the rows for which keep returns true, in order. keep gets each row as Row gives
// it; a panic in keep is returned as an error naming the row. The result's fingerprint is derived
// from the rows kept, so a Map after it is cached as after any other transform.
func (d *Dataset) Filter(keep func(row map[string]any) bool) (*Dataset, error) {
	if keep == nil {
		return nil, fmt.Errorf("datasets: Filter: nil function")
	}
	var kept []int
	for i := range d.n {
		ok, err := callKeep(keep, d.Row(i))
		if err != nil {
			return nil, fmt.Errorf("datasets: Filter: row %d: %w", i, err)
		}
		if ok {
			kept = append(kept, i)
		}
	}
	return d.take(kept, derive(d.fingerprint, "filter", kept)), nil
}

func callKeep(keep func(map[string]any) bool, row map[string]any) (ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the function panicked: %v", r)
		}
	}()
	return keep(row), nil
}

// RemoveColumns returns the dataset without the named columns.
func (d *Dataset) RemoveColumns(names ...string) (*Dataset, error) {
	for _, n := range names {
		if d.col(n) == nil {
			return nil, fmt.Errorf("datasets: RemoveColumns: no column %q (the dataset has %v)", n, d.ColumnNames())
		}
	}
	var cols []*column
	for _, c := range d.cols {
		if !slices.Contains(names, c.Name) {
			cols = append(cols, c)
		}
	}
	return &Dataset{cols: cols, n: d.n, fingerprint: derive(d.fingerprint, "remove_columns", names)}, nil
}

// RenameColumn returns the dataset with column from named to.
func (d *Dataset) RenameColumn(from, to string) (*Dataset, error) {
	if d.col(from) == nil {
		return nil, fmt.Errorf("datasets: RenameColumn: no column %q (the dataset has %v)", from, d.ColumnNames())
	}
	if to == "" || (to != from && d.col(to) != nil) {
		return nil, fmt.Errorf("datasets: RenameColumn: cannot rename %q to %q: the name is empty or taken", from, to)
	}
	cols := make([]*column, len(d.cols))
	for i, c := range d.cols {
		cols[i] = c
		if c.Name == from {
			r := *c
			r.Name = to
			cols[i] = &r
		}
	}
	return &Dataset{cols: cols, n: d.n, fingerprint: derive(d.fingerprint, "rename_column", from, to)}, nil
}

// AddColumn returns the dataset with a new column (values as FromColumns takes them, one per
// row), or with the named column replaced.
func (d *Dataset) AddColumn(name string, values any) (*Dataset, error) {
	c, err := columnFromSlice(name, values)
	if err != nil {
		return nil, fmt.Errorf("datasets: AddColumn: %w", err)
	}
	if c.len() != d.n {
		return nil, fmt.Errorf("datasets: AddColumn: %d values for %d rows", c.len(), d.n)
	}
	return d.withColumns([]*column{c}, derive(d.fingerprint, "add_column", name, contentFingerprint([]*column{c}))), nil
}

// withColumns returns d with each of cols added at the end or replacing the column of its name in
// place.
func (d *Dataset) withColumns(cols []*column, fingerprint string) *Dataset {
	out := slices.Clone(d.cols)
	for _, c := range cols {
		if i := slices.IndexFunc(out, func(o *column) bool { return o.Name == c.Name }); i >= 0 {
			out[i] = c
		} else {
			out = append(out, c)
		}
	}
	return &Dataset{cols: out, n: d.n, fingerprint: fingerprint}
}

// Concatenate returns the rows of parts one after another (datasets.concatenate_datasets). The
// parts must have the same columns, in the same order, of the same kinds and label sets.
func Concatenate(parts ...*Dataset) (*Dataset, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("datasets: Concatenate: no datasets")
	}
	names := parts[0].ColumnNames()
	cols := make([]*column, len(names))
	for i, c := range parts[0].cols {
		cols[i] = c.clone()
	}
	fps := []string{parts[0].fingerprint}
	n := parts[0].n
	for p, d := range parts[1:] {
		if !slices.Equal(d.ColumnNames(), names) {
			return nil, fmt.Errorf("datasets: Concatenate: dataset %d has the columns %v, dataset 0 has %v", p+1, d.ColumnNames(), names)
		}
		for i, c := range d.cols {
			if err := appendColumn(cols[i], c); err != nil {
				return nil, fmt.Errorf("datasets: Concatenate: dataset %d: %w", p+1, err)
			}
		}
		fps = append(fps, d.fingerprint)
		n += d.n
	}
	return &Dataset{cols: cols, n: n, fingerprint: derive("", "concatenate", fps)}, nil
}
