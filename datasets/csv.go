package datasets

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// ReadCSV reads a comma-separated file with a header line (datasets' load_dataset("csv", …),
// which reads through pandas): fields may be quoted and span lines. An empty field is a null.
// The text column stays text; every other column is int64 when all its fields are whole numbers,
// float64 when all are numbers, bool when all are true/false (any case), and text otherwise, as
// pandas infers them. Errors name the file and the 1-based line (a record's first line): a row
// with more fields than the header (pandas fails too), a row with fewer (pandas fills nulls;
// goaccel does not guess which field is missing), a header naming a column twice, and the checks
// of Options.
func ReadCSV(path string, opts Options) (*Dataset, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("datasets: ReadCSV: %w", err)
	}
	text, _, err := decodeText(b, opts.Encoding)
	if err != nil {
		return nil, fmt.Errorf("datasets: ReadCSV: %s %w", path, err)
	}
	r := csv.NewReader(strings.NewReader(text))
	r.LazyQuotes = true // a quote inside an unquoted field is a character, as pandas reads it (12" screen)
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("datasets: ReadCSV: %s is empty; a CSV file starts with a header line naming its columns", path)
	}
	if err != nil {
		return nil, fmt.Errorf("datasets: ReadCSV: %s: %w", path, err)
	}
	header = append([]string(nil), header...)
	for i, h := range header {
		for _, prev := range header[:i] {
			if h == prev {
				return nil, fmt.Errorf("datasets: ReadCSV: %s line 1: the header names the column %q twice", path, h)
			}
		}
	}
	var cells [][]string
	var lines []int
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("datasets: ReadCSV: %s: %w", path, err) // csv.ParseError names the line
		}
		line, _ := r.FieldPos(0)
		cells = append(cells, rec)
		lines = append(lines, line)
	}
	t := table{source: path, names: header, rows: make([]map[string]any, len(cells))}
	t.where = func(i int) string { return fmt.Sprintf("%s line %d", path, lines[i]) }
	for i := range t.rows {
		t.rows[i] = make(map[string]any, len(header))
	}
	for j, name := range header {
		col := make([]string, len(cells))
		for i, rec := range cells {
			col[i] = rec[j]
		}
		vals := csvColumn(col, name == opts.textColumn())
		for i, v := range vals {
			t.rows[i][name] = v
		}
	}
	h := newHasher("csv")
	opts.hash(h)
	h.bytes(b)
	d, err := assemble(t, opts, h.sum())
	if err != nil {
		return nil, fmt.Errorf("datasets: ReadCSV: %w", err)
	}
	return d, nil
}

// csvColumn types a column's fields as pandas would: whole numbers, numbers, booleans, or
// strings; empty fields are nulls. A text column stays strings (its empty fields are "").
func csvColumn(fields []string, isText bool) []any {
	out := make([]any, len(fields))
	if isText {
		for i, f := range fields {
			out[i] = f
		}
		return out
	}
	allInt, allFloat, allBool, nonEmpty := true, true, true, false
	for _, f := range fields {
		if f == "" {
			continue
		}
		nonEmpty = true
		if _, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64); err != nil {
			allInt = false
		}
		if _, err := strconv.ParseFloat(strings.TrimSpace(f), 64); err != nil {
			allFloat = false
		}
		if l := strings.ToLower(f); l != "true" && l != "false" {
			allBool = false
		}
	}
	for i, f := range fields {
		if f == "" {
			continue // null
		}
		switch {
		case !nonEmpty:
		case allInt:
			out[i], _ = strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		case allFloat:
			out[i], _ = strconv.ParseFloat(strings.TrimSpace(f), 64)
		case allBool:
			out[i] = strings.ToLower(f) == "true"
		default:
			out[i] = f
		}
	}
	return out
}
