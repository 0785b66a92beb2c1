package datasets

import (
	"fmt"
	"slices"
)

// Kind is the type of a column's values.
type Kind int

// The kinds of columns. A value may also be null (a JSON null, an empty CSV cell, a Parquet
// null), which Row gives as nil.
const (
	KindString    Kind = iota + 1 // string
	KindInt                       // int64 (class labels are ints with a ClassLabel)
	KindFloat                     // float64
	KindBool                      // bool
	KindIntList                   // []int64 per row (token ids, masks)
	KindFloatList                 // []float64 per row
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case KindString:
		return "string"
	case KindInt:
		return "int64"
	case KindFloat:
		return "float64"
	case KindBool:
		return "bool"
	case KindIntList:
		return "list of int64"
	case KindFloatList:
		return "list of float64"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// column holds one column's values: the slice of its kind is set, the others are nil. Its fields
// are exported for the on-disk cache (gob).
type column struct {
	Name       string
	Kind       Kind
	Strings    []string
	Ints       []int64
	Floats     []float64
	Bools      []bool
	IntLists   [][]int64
	FloatLists [][]float64
	Null       []bool   // true where the value is null; nil when none is
	LabelNames []string // the ClassLabel of a KindInt column of class ids, else nil
}

func (c *column) len() int {
	switch c.Kind {
	case KindString:
		return len(c.Strings)
	case KindInt:
		return len(c.Ints)
	case KindFloat:
		return len(c.Floats)
	case KindBool:
		return len(c.Bools)
	case KindIntList:
		return len(c.IntLists)
	case KindFloatList:
		return len(c.FloatLists)
	}
	return 0
}

func (c *column) isNull(i int) bool { return c.Null != nil && c.Null[i] }

func (c *column) hasNulls() bool { return slices.Contains(c.Null, true) }

// value returns row i's value as Row gives it (lists copied, so callers cannot change the column).
func (c *column) value(i int) any {
	if c.isNull(i) {
		return nil
	}
	switch c.Kind {
	case KindString:
		return c.Strings[i]
	case KindInt:
		return c.Ints[i]
	case KindFloat:
		return c.Floats[i]
	case KindBool:
		return c.Bools[i]
	case KindIntList:
		return slices.Clone(c.IntLists[i])
	case KindFloatList:
		return slices.Clone(c.FloatLists[i])
	}
	return nil
}

// take returns the column's rows at idx, in that order.
func (c *column) take(idx []int) *column {
	out := &column{Name: c.Name, Kind: c.Kind, LabelNames: c.LabelNames}
	switch c.Kind {
	case KindString:
		out.Strings = pick(c.Strings, idx)
	case KindInt:
		out.Ints = pick(c.Ints, idx)
	case KindFloat:
		out.Floats = pick(c.Floats, idx)
	case KindBool:
		out.Bools = pick(c.Bools, idx)
	case KindIntList:
		out.IntLists = pick(c.IntLists, idx)
	case KindFloatList:
		out.FloatLists = pick(c.FloatLists, idx)
	}
	if c.hasNulls() {
		out.Null = pick(c.Null, idx)
	}
	return out
}

func pick[T any](v []T, idx []int) []T {
	out := make([]T, len(idx))
	for k, i := range idx {
		out[k] = v[i]
	}
	return out
}

// appendColumn appends b's rows to a (same name), which must have b's kind and label set.
func appendColumn(a, b *column) error {
	if a.Kind != b.Kind {
		return fmt.Errorf("column %q is %v in one part and %v in another", a.Name, a.Kind, b.Kind)
	}
	if !slices.Equal(a.LabelNames, b.LabelNames) {
		return fmt.Errorf("column %q has the class labels %v in one part and %v in another", a.Name, a.LabelNames, b.LabelNames)
	}
	n := a.len()
	if a.hasNulls() || b.hasNulls() {
		null := make([]bool, n, n+b.len())
		if a.Null != nil {
			copy(null, a.Null)
		}
		if b.Null != nil {
			null = append(null, b.Null...)
		} else {
			null = append(null, make([]bool, b.len())...)
		}
		a.Null = null
	}
	a.Strings = append(a.Strings, b.Strings...)
	a.Ints = append(a.Ints, b.Ints...)
	a.Floats = append(a.Floats, b.Floats...)
	a.Bools = append(a.Bools, b.Bools...)
	a.IntLists = append(a.IntLists, b.IntLists...)
	a.FloatLists = append(a.FloatLists, b.FloatLists...)
	return nil
}

// clone returns a column that shares no slice headers with c (its values may be shared: strings
// and lists are never changed in place).
func (c *column) clone() *column {
	out := *c
	out.Strings = slices.Clone(c.Strings)
	out.Ints = slices.Clone(c.Ints)
	out.Floats = slices.Clone(c.Floats)
	out.Bools = slices.Clone(c.Bools)
	out.IntLists = slices.Clone(c.IntLists)
	out.FloatLists = slices.Clone(c.FloatLists)
	out.Null = slices.Clone(c.Null)
	return &out
}
