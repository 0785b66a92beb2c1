package datasets

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/parquet-go/parquet-go"
)

// ReadParquet reads a Parquet file (datasets' load_dataset("parquet", …)) through
// github.com/parquet-go/parquet-go: its top-level columns of strings (BYTE_ARRAY, STRING),
// integers (INT32, INT64, unsigned included, as int64), floats (FLOAT, DOUBLE, as float64),
// booleans and lists of numbers, with nulls. A column of another type (a nested record, a map,
// an INT96 timestamp) is an error naming it unless Options.Columns leaves it out; a required
// column missing from the schema is an error naming the file, and the checks of Options errors
// naming the 1-based row. Strings that are not valid UTF-8 are decoded as Options.Encoding says.
func ReadParquet(path string, opts Options) (*Dataset, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("datasets: ReadParquet: %w", err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, fmt.Errorf("datasets: ReadParquet: %s: not a readable Parquet file: %w", path, err)
	}
	t := table{source: path}
	t.where = func(i int) string { return fmt.Sprintf("%s row %d", path, i+1) }
	types := map[string]string{}
	for _, field := range f.Schema().Fields() {
		t.names = append(t.names, field.Name())
		types[field.Name()] = fieldType(field)
	}
	r := parquet.NewReader(f)
	defer r.Close()
	for i := 0; ; i++ {
		raw := map[string]any{}
		if err := r.Read(&raw); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("datasets: ReadParquet: %s row %d: %w", path, i+1, err)
		}
		row := make(map[string]any, len(raw))
		for name, v := range raw {
			if !opts.wanted(name) {
				continue
			}
			c, err := parquetValue(v, opts.Encoding)
			if err != nil {
				return nil, fmt.Errorf("datasets: ReadParquet: %s row %d: column %q (%s): %w", path, i+1, name, types[name], err)
			}
			row[name] = c
		}
		t.rows = append(t.rows, row)
	}
	h := newHasher("parquet")
	opts.hash(h)
	h.bytes(b)
	d, err := assemble(t, opts, h.sum())
	if err != nil {
		return nil, fmt.Errorf("datasets: ReadParquet: %w", err)
	}
	return d, nil
}

func fieldType(f parquet.Field) string {
	if f.Leaf() {
		return f.Type().String()
	}
	if lt := f.Type().LogicalType(); lt != nil {
		return lt.String()
	}
	return "group"
}

// parquetValue converts a value parquet-go reconstructed into a map to a canonical one.
func parquetValue(v any, enc Encoding) (any, error) {
	switch v := v.(type) {
	case string:
		return decodeValue(v, enc)
	case []byte:
		return decodeValue(string(v), enc)
	}
	if c, ok := canonical(v); ok {
		return c, nil
	}
	switch v.(type) {
	case []any:
		return nil, fmt.Errorf("a list holding something other than numbers (strings, nulls, records); leave the column out with Options.Columns")
	}
	return nil, fmt.Errorf("values of Go type %T, which goaccel's datasets do not hold; leave the column out with Options.Columns", v)
}
