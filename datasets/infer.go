package datasets

import (
	"fmt"
	"math"
	"slices"
)

// kindOf returns the kind of a canonical value (string, int64, float64, bool, []int64,
// []float64), or 0 for nil and anything else.
func kindOf(v any) Kind {
	switch v.(type) {
	case string:
		return KindString
	case int64:
		return KindInt
	case float64:
		return KindFloat
	case bool:
		return KindBool
	case []int64:
		return KindIntList
	case []float64:
		return KindFloatList
	}
	return 0
}

// widen returns the kind that holds values of kinds a and b (ints widen to floats, as pyarrow
// infers a JSON column of 1 and 2.5 as double), or 0 when none does.
func widen(a, b Kind) Kind {
	switch {
	case a == 0:
		return b
	case a == b:
		return a
	case (a == KindInt && b == KindFloat) || (a == KindFloat && b == KindInt):
		return KindFloat
	case (a == KindIntList && b == KindFloatList) || (a == KindFloatList && b == KindIntList):
		return KindFloatList
	}
	return 0
}

// buildColumn makes a column of canonical values, nil meaning null. where(i) names row i for
// messages ("train.jsonl line 3"). A column of nulls only is a string column of nulls.
func buildColumn(name string, vals []any, where func(i int) string) (*column, error) {
	kind, first := Kind(0), -1
	for i, v := range vals {
		if v == nil {
			continue
		}
		k := kindOf(v)
		if k == 0 {
			return nil, fmt.Errorf("%s: column %q holds a %T, which a dataset column cannot hold", where(i), name, v)
		}
		w := widen(kind, k)
		if w == 0 {
			return nil, fmt.Errorf("%s: column %q holds a value of type %v, but held %v at %s; a column has one type", where(i), name, k, kind, where(first))
		}
		if kind == 0 {
			first = i
		}
		kind = w
	}
	if kind == 0 {
		kind = KindString
	}
	c := &column{Name: name, Kind: kind}
	n := len(vals)
	for i, v := range vals {
		if v == nil {
			if c.Null == nil {
				c.Null = make([]bool, n)
			}
			c.Null[i] = true
		}
	}
	switch kind {
	case KindString:
		c.Strings = make([]string, n)
		for i, v := range vals {
			c.Strings[i], _ = v.(string)
		}
	case KindInt:
		c.Ints = make([]int64, n)
		for i, v := range vals {
			c.Ints[i], _ = v.(int64)
		}
	case KindFloat:
		c.Floats = make([]float64, n)
		for i, v := range vals {
			switch v := v.(type) {
			case float64:
				c.Floats[i] = v
			case int64:
				c.Floats[i] = float64(v)
			}
		}
	case KindBool:
		c.Bools = make([]bool, n)
		for i, v := range vals {
			c.Bools[i], _ = v.(bool)
		}
	case KindIntList:
		c.IntLists = make([][]int64, n)
		for i, v := range vals {
			c.IntLists[i], _ = v.([]int64)
		}
	case KindFloatList:
		c.FloatLists = make([][]float64, n)
		for i, v := range vals {
			switch v := v.(type) {
			case []float64:
				c.FloatLists[i] = v
			case []int64:
				f := make([]float64, len(v))
				for j, x := range v {
					f[j] = float64(x)
				}
				c.FloatLists[i] = f
			}
		}
	}
	return c, nil
}

// canonical converts a Go value given by a caller (FromColumns, AddColumn, a Map function) or a
// reader to the canonical form: ints of any width to int64, floats to float64, slices of them to
// []int64 or []float64. ok is false for anything else.
func canonical(v any) (out any, ok bool) {
	switch v := v.(type) {
	case nil, string, int64, float64, bool, []int64, []float64:
		return v, true
	case int:
		return int64(v), true
	case int32:
		return int64(v), true
	case int16:
		return int64(v), true
	case int8:
		return int64(v), true
	case uint8:
		return int64(v), true
	case uint16:
		return int64(v), true
	case uint32:
		return int64(v), true
	case uint64:
		if v > math.MaxInt64 {
			return nil, false
		}
		return int64(v), true
	case float32:
		return float64(v), true
	case []int:
		return convertAll(v, func(x int) int64 { return int64(x) }), true
	case []int32:
		return convertAll(v, func(x int32) int64 { return int64(x) }), true
	case []float32:
		return convertAll(v, func(x float32) float64 { return float64(x) }), true
	case []any:
		return canonicalList(v)
	}
	return nil, false
}

func convertAll[A, B any](v []A, f func(A) B) []B {
	out := make([]B, len(v))
	for i, x := range v {
		out[i] = f(x)
	}
	return out
}

// canonicalList converts a list of numbers (a JSON array, a Parquet LIST) to []int64 when every
// element is an integer, else []float64; ok is false for a list holding anything else (strings,
// nulls, nested lists).
func canonicalList(v []any) (any, bool) {
	ints := make([]int64, len(v))
	allInts := true
	for i, x := range v {
		c, ok := canonical(x)
		if !ok {
			return nil, false
		}
		switch c := c.(type) {
		case int64:
			ints[i] = c
		case float64:
			allInts = false
		default:
			return nil, false
		}
	}
	if allInts {
		return ints, true
	}
	floats := make([]float64, len(v))
	for i, x := range v {
		c, _ := canonical(x)
		switch c := c.(type) {
		case int64:
			floats[i] = float64(c)
		case float64:
			floats[i] = c
		}
	}
	return floats, true
}

// columnFromSlice makes a column from a typed Go slice ([]string, []int, [][]int64…) or a []any
// of such values.
func columnFromSlice(name string, values any) (*column, error) {
	var vals []any
	switch v := values.(type) {
	case []string:
		return &column{Name: name, Kind: KindString, Strings: slices.Clone(v)}, nil
	case []int64:
		return &column{Name: name, Kind: KindInt, Ints: slices.Clone(v)}, nil
	case []float64:
		return &column{Name: name, Kind: KindFloat, Floats: slices.Clone(v)}, nil
	case []bool:
		return &column{Name: name, Kind: KindBool, Bools: slices.Clone(v)}, nil
	case [][]int64:
		return &column{Name: name, Kind: KindIntList, IntLists: convertAll(v, slices.Clone[[]int64])}, nil
	case [][]float64:
		return &column{Name: name, Kind: KindFloatList, FloatLists: convertAll(v, slices.Clone[[]float64])}, nil
	case []int:
		return &column{Name: name, Kind: KindInt, Ints: convertAll(v, func(x int) int64 { return int64(x) })}, nil
	case []int32:
		return &column{Name: name, Kind: KindInt, Ints: convertAll(v, func(x int32) int64 { return int64(x) })}, nil
	case []float32:
		return &column{Name: name, Kind: KindFloat, Floats: convertAll(v, func(x float32) float64 { return float64(x) })}, nil
	case [][]int:
		return &column{Name: name, Kind: KindIntList, IntLists: convertAll(v, func(x []int) []int64 {
			return convertAll(x, func(y int) int64 { return int64(y) })
		})}, nil
	case [][]int32:
		return &column{Name: name, Kind: KindIntList, IntLists: convertAll(v, func(x []int32) []int64 {
			return convertAll(x, func(y int32) int64 { return int64(y) })
		})}, nil
	case [][]float32:
		return &column{Name: name, Kind: KindFloatList, FloatLists: convertAll(v, func(x []float32) []float64 {
			return convertAll(x, func(y float32) float64 { return float64(y) })
		})}, nil
	case []any:
		vals = make([]any, len(v))
		for i, x := range v {
			c, ok := canonical(x)
			if !ok {
				return nil, fmt.Errorf("column %q: row %d holds a %T; columns hold strings, integers, floats, bools and lists of numbers", name, i, x)
			}
			vals[i] = c
		}
		return buildColumn(name, vals, func(i int) string { return fmt.Sprintf("row %d", i) })
	}
	return nil, fmt.Errorf("column %q: a %T cannot be a column; give a []string, []int64, []int, []float64, []bool, [][]int64, [][]int, [][]float64 or []any", name, values)
}
