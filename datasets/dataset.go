package datasets

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Dataset is a table of rows with named, typed columns (a Hugging Face datasets.Dataset): text,
// labels and any other fields read from files, and the token ids a Map adds. It is immutable:
// Select, Filter, Map and the others return new datasets. Each has a fingerprint that names its
// content and history, which keys Map's on-disk cache.
type Dataset struct {
	cols        []*column
	n           int
	fingerprint string
	cacheFile   string
}

// newDataset checks that the columns have n rows each and distinct names.
func newDataset(cols []*column, fingerprint string) (*Dataset, error) {
	d := &Dataset{cols: cols, fingerprint: fingerprint}
	seen := map[string]bool{}
	for i, c := range cols {
		if c.Name == "" {
			return nil, fmt.Errorf("datasets: column %d has no name", i)
		}
		if seen[c.Name] {
			return nil, fmt.Errorf("datasets: two columns are named %q", c.Name)
		}
		seen[c.Name] = true
		if i == 0 {
			d.n = c.len()
		} else if c.len() != d.n {
			return nil, fmt.Errorf("datasets: column %q has %d rows but column %q has %d", c.Name, c.len(), cols[0].Name, d.n)
		}
	}
	if fingerprint == "" {
		d.fingerprint = contentFingerprint(cols)
	}
	return d, nil
}

// FromColumns makes a dataset from columns given by name (datasets.Dataset.from_dict). Each
// value is a slice with one element per row: []string, []int64 (or []int, []int32), []float64
// (or []float32), []bool, [][]int64 (or [][]int, [][]int32) for token ids, [][]float64, or an
// []any of such elements with nil for nulls. Columns are ordered by name; the slices are copied.
func FromColumns(columns map[string]any) (*Dataset, error) {
	names := make([]string, 0, len(columns))
	for name := range columns {
		names = append(names, name)
	}
	sort.Strings(names)
	cols := make([]*column, len(names))
	for i, name := range names {
		c, err := columnFromSlice(name, columns[name])
		if err != nil {
			return nil, fmt.Errorf("datasets: FromColumns: %w", err)
		}
		cols[i] = c
	}
	d, err := newDataset(cols, "")
	if err != nil {
		return nil, fmt.Errorf("datasets: FromColumns: %w", err)
	}
	return d, nil
}

// Len returns the number of rows.
func (d *Dataset) Len() int { return d.n }

// ColumnNames returns the names of the columns in order.
func (d *Dataset) ColumnNames() []string {
	out := make([]string, len(d.cols))
	for i, c := range d.cols {
		out[i] = c.Name
	}
	return out
}

// ColumnKind returns the kind of the named column, or 0 when there is no such column.
func (d *Dataset) ColumnKind(name string) Kind {
	if c := d.col(name); c != nil {
		return c.Kind
	}
	return 0
}

// Fingerprint returns the hash that names the dataset's content and history: the files it was
// read from (their bytes and the reader's options), then each transform and its arguments. Map
// keys its cache on it.
func (d *Dataset) Fingerprint() string { return d.fingerprint }

// CacheFile returns the cache file a Map result was loaded from or written to, or "" for a
// dataset that has none.
func (d *Dataset) CacheFile() string { return d.cacheFile }

// String describes the dataset as datasets prints one: its columns with their kinds and the
// number of rows.
func (d *Dataset) String() string {
	parts := make([]string, len(d.cols))
	for i, c := range d.cols {
		k := c.Kind.String()
		if c.LabelNames != nil {
			k = "ClassLabel" + fmt.Sprint(c.LabelNames)
		}
		parts[i] = c.Name + ": " + k
	}
	return fmt.Sprintf("Dataset({features: [%s], num_rows: %d})", strings.Join(parts, ", "), d.n)
}

func (d *Dataset) col(name string) *column {
	for _, c := range d.cols {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// column returns the named column or an error naming the columns there are.
func (d *Dataset) column(name string, want ...Kind) (*column, error) {
	c := d.col(name)
	if c == nil {
		return nil, fmt.Errorf("datasets: no column %q (the dataset has %v)", name, d.ColumnNames())
	}
	if len(want) > 0 && !slices.Contains(want, c.Kind) {
		return nil, fmt.Errorf("datasets: column %q holds %v values, not %v", name, c.Kind, want[0])
	}
	return c, nil
}

// Row returns row i as a map from column name to value: string, int64, float64, bool, []int64,
// []float64, or nil for a null. It panics when i is out of range, as indexing a slice does.
func (d *Dataset) Row(i int) map[string]any {
	if i < 0 || i >= d.n {
		panic(fmt.Sprintf("datasets: Row(%d) out of range for %d rows", i, d.n))
	}
	r := make(map[string]any, len(d.cols))
	for _, c := range d.cols {
		r[c.Name] = c.value(i)
	}
	return r
}

// Strings returns a copy of a string column (nulls as "").
func (d *Dataset) Strings(name string) ([]string, error) {
	c, err := d.column(name, KindString)
	if err != nil {
		return nil, err
	}
	return slices.Clone(c.Strings), nil
}

// Ints returns a copy of an int64 column (class ids for a label column; nulls as 0).
func (d *Dataset) Ints(name string) ([]int64, error) {
	c, err := d.column(name, KindInt)
	if err != nil {
		return nil, err
	}
	return slices.Clone(c.Ints), nil
}

// Floats returns a copy of a float64 column, or of an int64 one converted (nulls as 0).
func (d *Dataset) Floats(name string) ([]float64, error) {
	c, err := d.column(name, KindFloat, KindInt)
	if err != nil {
		return nil, err
	}
	if c.Kind == KindInt {
		return convertAll(c.Ints, func(x int64) float64 { return float64(x) }), nil
	}
	return slices.Clone(c.Floats), nil
}

// Bools returns a copy of a bool column (nulls as false).
func (d *Dataset) Bools(name string) ([]bool, error) {
	c, err := d.column(name, KindBool)
	if err != nil {
		return nil, err
	}
	return slices.Clone(c.Bools), nil
}

// IntLists returns a copy of a column of int64 lists (token ids; nulls as nil).
func (d *Dataset) IntLists(name string) ([][]int64, error) {
	c, err := d.column(name, KindIntList)
	if err != nil {
		return nil, err
	}
	return convertAll(c.IntLists, slices.Clone[[]int64]), nil
}

// FloatLists returns a copy of a column of float64 lists (nulls as nil).
func (d *Dataset) FloatLists(name string) ([][]float64, error) {
	c, err := d.column(name, KindFloatList)
	if err != nil {
		return nil, err
	}
	return convertAll(c.FloatLists, slices.Clone[[]float64]), nil
}

// Labels returns the label set of a column of class labels, or nil when the column holds none.
func (d *Dataset) Labels(name string) *ClassLabel {
	c := d.col(name)
	if c == nil || c.LabelNames == nil {
		return nil
	}
	l, _ := NewClassLabel(c.LabelNames...)
	return l
}
