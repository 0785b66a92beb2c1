package datasets

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// ReadJSONL reads a JSON Lines file (datasets' load_dataset("json", data_files=…) on a .jsonl
// file): one JSON object per line, blank lines skipped. Columns come in the order their keys
// first appear; a key missing from some rows gives nulls there, as pyarrow fills them. Values are
// strings, numbers (int64 when every value of the column is a whole number, float64 otherwise),
// bools, nulls and lists of numbers. Errors name the file and the 1-based line, where datasets
// (through pyarrow) fails with a parse error that names neither: a line that is not one JSON
// object, a nested object or a list of anything but numbers (leave its column out with
// Options.Columns), a column whose values change type, and the checks of Options (a missing or
// null text or label, an empty text, a label outside Options.Labels, a column of Options.Columns
// absent from the file).
func ReadJSONL(path string, opts Options) (*Dataset, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("datasets: ReadJSONL: %w", err)
	}
	text, _, err := decodeText(b, opts.Encoding)
	if err != nil {
		return nil, fmt.Errorf("datasets: ReadJSONL: %s %w", path, err)
	}
	t := table{source: path}
	var lines []int
	t.where = func(i int) string { return fmt.Sprintf("%s line %d", path, lines[i]) }
	seen := map[string]bool{}
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		row, keys, err := parseJSONObject(line, opts.wanted)
		if err != nil {
			return nil, fmt.Errorf("datasets: ReadJSONL: %s line %d: %w", path, n+1, err)
		}
		for _, k := range keys {
			if !seen[k] {
				seen[k] = true
				t.names = append(t.names, k)
			}
		}
		t.rows = append(t.rows, row)
		lines = append(lines, n+1)
	}
	h := newHasher("jsonl")
	opts.hash(h)
	h.bytes(b)
	d, err := assemble(t, opts, h.sum())
	if err != nil {
		return nil, fmt.Errorf("datasets: ReadJSONL: %w", err)
	}
	return d, nil
}

// parseJSONObject parses one line holding one JSON object and returns its values (canonical) and
// its keys in the order written; the values of keys not wanted are left out unchecked.
func parseJSONObject(line string, wanted func(string) bool) (map[string]any, []string, error) {
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, fmt.Errorf("malformed JSON: %w", err)
	}
	if tok != json.Delim('{') {
		return nil, nil, fmt.Errorf("a JSON %s, not an object: each line must be one object {\"text\": …, \"label\": …}", jsonKind(tok))
	}
	row := map[string]any{}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, fmt.Errorf("malformed JSON: %w", err)
		}
		key := tok.(string) // object keys are strings, or Token fails
		var raw any
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, fmt.Errorf("malformed JSON (the value of %q): %w", key, err)
		}
		if !slices.Contains(keys, key) {
			keys = append(keys, key)
		}
		if !wanted(key) {
			continue
		}
		v, err := jsonValue(raw)
		if err != nil {
			return nil, nil, fmt.Errorf("column %q: %w", key, err)
		}
		row[key] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, fmt.Errorf("malformed JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, nil, fmt.Errorf("malformed JSON: more than one value on the line (JSON Lines holds one object a line)")
	}
	return row, keys, nil
}

func jsonKind(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		return "array"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "bool"
	}
	return "null"
}

// jsonValue converts a decoded JSON value to a canonical one.
func jsonValue(v any) (any, error) {
	switch v := v.(type) {
	case nil, string, bool:
		return v, nil
	case json.Number:
		return jsonNumber(v)
	case []any:
		conv := make([]any, len(v))
		for i, x := range v {
			n, ok := x.(json.Number)
			if !ok {
				return nil, fmt.Errorf("a list holding a %s; lists hold numbers only (leave the column out with Options.Columns)", jsonTypeName(x))
			}
			c, err := jsonNumber(n)
			if err != nil {
				return nil, err
			}
			conv[i] = c
		}
		c, _ := canonicalList(conv)
		return c, nil
	case map[string]any:
		return nil, fmt.Errorf("a nested object, which goaccel's datasets do not hold (leave the column out with Options.Columns)")
	}
	return nil, fmt.Errorf("an unexpected JSON value %T", v)
}

func jsonNumber(n json.Number) (any, error) {
	if i, err := n.Int64(); err == nil {
		return i, nil
	}
	f, err := n.Float64()
	if err != nil {
		return nil, fmt.Errorf("the number %s does not fit a float64", n)
	}
	return f, nil
}

func jsonTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "bool"
	case []any:
		return "list"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}
