package stdgeneric

import (
	"cmp"
	"reflect"
	"slices"
	"sort"
)

// SortOrdered sorts s in place if it is a slice whose elements are of an
// ordered kind (integers, floats, strings), as slices.Sort does, and reports
// whether it did. The interpreter hands a slice of a cell's own named
// element type (type Celsius float64) over as its underlying slice type.
func SortOrdered(s any) bool {
	switch v := s.(type) {
	case []int:
		slices.Sort(v)
	case []int64:
		slices.Sort(v)
	case []int32:
		slices.Sort(v)
	case []float64:
		slices.Sort(v)
	case []float32:
		slices.Sort(v)
	case []string:
		slices.Sort(v)
	case []uint8:
		slices.Sort(v)
	default:
		less, ok := orderedLess(s)
		if !ok {
			return false
		}
		sort.Slice(s, less)
	}
	return true
}

// SortSlice is sort.Slice, for the interpreted sorting functions.
func SortSlice(s any, less func(i, j int) bool) { sort.Slice(s, less) }

// SortSliceStable is sort.SliceStable, for the interpreted sorting functions.
func SortSliceStable(s any, less func(i, j int) bool) { sort.SliceStable(s, less) }

// MinIndex returns the index of the smallest element of a non-empty slice of
// an ordered kind, or of its first NaN (slices.Min propagates NaNs); -1 when
// s is not such a slice.
func MinIndex(s any) int { return extremeIndex(s, -1) }

// MaxIndex is MinIndex for the largest element.
func MaxIndex(s any) int { return extremeIndex(s, +1) }

func extremeIndex(s any, sign int) int {
	switch v := s.(type) {
	case []int:
		return extreme(v, sign)
	case []int64:
		return extreme(v, sign)
	case []float64:
		return extreme(v, sign)
	case []float32:
		return extreme(v, sign)
	case []string:
		return extreme(v, sign)
	}
	rv := reflect.ValueOf(s)
	if rv.Kind() != reflect.Slice || rv.Len() == 0 {
		return -1
	}
	compare, isNaN, ok := orderedCompare(rv)
	if !ok {
		return -1
	}
	best := 0
	for i := 0; i < rv.Len(); i++ {
		if isNaN(i) {
			return i
		}
		if compare(i, best)*sign > 0 {
			best = i
		}
	}
	return best
}

func extreme[E cmp.Ordered](s []E, sign int) int {
	if len(s) == 0 {
		return -1
	}
	best := 0
	for i := 1; i < len(s); i++ {
		if s[i] != s[i] {
			return i
		}
		if c := cmp.Compare(s[i], s[best]); c*sign > 0 {
			best = i
		}
	}
	if s[0] != s[0] {
		return 0
	}
	return best
}

// orderedLess returns a less function over the elements of a slice of an
// ordered kind that SortOrdered's fast cases do not list.
func orderedLess(s any) (func(i, j int) bool, bool) {
	rv := reflect.ValueOf(s)
	if rv.Kind() != reflect.Slice {
		return nil, false
	}
	compare, _, ok := orderedCompare(rv)
	if !ok {
		return nil, false
	}
	return func(i, j int) bool { return compare(i, j) < 0 }, true
}

// orderedCompare returns cmp.Compare of elements i and j of rv (NaNs first),
// and whether element i is a NaN.
func orderedCompare(rv reflect.Value) (compare func(i, j int) int, isNaN func(i int) bool, ok bool) {
	isNaN = func(int) bool { return false }
	switch rv.Type().Elem().Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(i, j int) int { return cmp.Compare(rv.Index(i).Int(), rv.Index(j).Int()) }, isNaN, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(i, j int) int { return cmp.Compare(rv.Index(i).Uint(), rv.Index(j).Uint()) }, isNaN, true
	case reflect.Float32, reflect.Float64:
		isNaN = func(i int) bool { f := rv.Index(i).Float(); return f != f }
		return func(i, j int) int { return cmp.Compare(rv.Index(i).Float(), rv.Index(j).Float()) }, isNaN, true
	case reflect.String:
		return func(i, j int) int { return cmp.Compare(rv.Index(i).String(), rv.Index(j).String()) }, isNaN, true
	}
	return nil, nil, false
}
