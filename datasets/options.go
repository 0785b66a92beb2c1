package datasets

import (
	"fmt"
	"slices"
	"strings"
)

// NoColumn, as Options.TextColumn or Options.LabelColumn, says the data has no such column
// (unlabelled texts to classify, or a table without text).
const NoColumn = "-"

// Options configure the readers (ReadJSONL, ReadCSV, ReadParquet, ReadFolder). The zero value
// reads a column "text" of non-empty strings and a column "label", with every other column of
// the file, decoding text that is not UTF-8 as Windows-1252.
type Options struct {
	// TextColumn names the column of texts ("" means "text"): every row must have one, a
	// string, not empty unless AllowEmptyText. ReadFolder names its text column so.
	TextColumn string
	// LabelColumn names the column of class labels ("" means "label"; NoColumn for unlabelled
	// data): every row must have one. ReadFolder names its label column so.
	LabelColumn string
	// Labels is the label set: each label must be one of its names (or ids), and the column
	// becomes class ids. Without it labels stay as the file has them (strings or integers), as
	// datasets keeps them; ClassEncodeColumn turns strings into ids. ReadFolder uses the sorted
	// folder names when it is nil.
	Labels *ClassLabel
	// Columns, when set, are the only other columns read (each must be in the file, its values
	// may be null); nil reads them all. Leave out a column of a type goaccel's datasets cannot
	// hold (nested records, Parquet INT96 timestamps) by listing the ones wanted.
	Columns []string
	// AllowEmptyText keeps texts that are empty or white space only. datasets keeps them; goaccel
	// rejects them by default, naming the file and row, since a tokenizer makes such a text
	// [CLS] [SEP] and a classifier learns nothing from it.
	AllowEmptyText bool
	// Encoding says what to do with text that is not UTF-8 (UTF8OrWindows1252 by default).
	Encoding Encoding
	// Extension is the extension of ReadFolder's text files (".txt" when empty).
	Extension string
}

func (o Options) textColumn() string  { return nameOr(o.TextColumn, "text") }
func (o Options) labelColumn() string { return nameOr(o.LabelColumn, "label") }

func (o Options) extension() string {
	if o.Extension == "" {
		return ".txt"
	}
	return o.Extension
}

func nameOr(name, def string) string {
	switch name {
	case "":
		return def
	case NoColumn:
		return ""
	}
	return name
}

// wanted reports whether a reader keeps the column name.
func (o Options) wanted(name string) bool {
	return o.Columns == nil || name == o.textColumn() || name == o.labelColumn() || slices.Contains(o.Columns, name)
}

// required returns the columns the file must have.
func (o Options) required() []string {
	var out []string
	for _, n := range append([]string{o.textColumn(), o.labelColumn()}, o.Columns...) {
		if n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// hash writes the options that change what a reader returns.
func (o Options) hash(h *hasher) {
	h.str(o.textColumn())
	h.str(o.labelColumn())
	if o.Labels != nil {
		h.strs(o.Labels.names)
	} else {
		h.int(-1)
	}
	h.strs(o.Columns)
	h.bool(o.Columns == nil)
	h.bool(o.AllowEmptyText)
	h.int(int64(o.Encoding))
	h.str(o.extension())
}

// table is what a reader found before checks: rows of canonical values by column name, an
// absent key meaning the row lacks the column (a JSON object without the key).
type table struct {
	source string   // the file, for messages
	names  []string // the columns in order of first appearance
	rows   []map[string]any
	where  func(i int) string // names row i: "train.jsonl line 3"
}

// assemble checks a table against the options (required columns, texts, labels) and makes the
// dataset.
func assemble(t table, opts Options, fingerprint string) (*Dataset, error) {
	for _, name := range opts.required() {
		if !slices.Contains(t.names, name) {
			return nil, fmt.Errorf("%s: no column %q (the file has %v)%s", t.source, name, t.names, missingHint(opts, name))
		}
	}
	text, label := opts.textColumn(), opts.labelColumn()
	for i, r := range t.rows {
		for _, name := range []string{text, label} {
			if name == "" {
				continue
			}
			v, ok := r[name]
			switch {
			case !ok:
				return nil, fmt.Errorf("%s: no %q%s", t.where(i), name, missingHint(opts, name))
			case v == nil:
				return nil, fmt.Errorf("%s: %q is null%s", t.where(i), name, missingHint(opts, name))
			}
		}
		if text != "" {
			s, ok := r[text].(string)
			if !ok {
				return nil, fmt.Errorf("%s: the text %q is a %v, not a string", t.where(i), text, kindOf(r[text]))
			}
			if strings.TrimSpace(s) == "" && !opts.AllowEmptyText {
				return nil, fmt.Errorf("%s: the text %q is empty; drop the row, or set Options.AllowEmptyText to keep it as datasets does", t.where(i), text)
			}
		}
		if label != "" {
			if k := kindOf(r[label]); k != KindString && k != KindInt {
				return nil, fmt.Errorf("%s: the label %q is a %v; labels are names or class ids", t.where(i), label, k)
			}
		}
	}
	var cols []*column
	for _, name := range t.names {
		if !opts.wanted(name) {
			continue
		}
		vals := make([]any, len(t.rows))
		for i, r := range t.rows {
			vals[i] = r[name]
		}
		if name == label && opts.Labels != nil {
			c, err := encodeLabels(name, vals, opts.Labels, t.where) // names and ids may mix
			if err != nil {
				return nil, err
			}
			cols = append(cols, c)
			continue
		}
		c, err := buildColumn(name, vals, t.where)
		if err != nil {
			return nil, err
		}
		cols = append(cols, c)
	}
	d, err := newDataset(cols, fingerprint)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.source, err)
	}
	return d, nil
}

func missingHint(opts Options, name string) string {
	switch name {
	case opts.textColumn():
		return " (Options.TextColumn names the text column)"
	case opts.labelColumn():
		return " (Options.LabelColumn names the label column; datasets.NoColumn reads unlabelled data)"
	}
	return ""
}

// classIDs turns a column of label names or ids into class ids of labels.
func classIDs(c *column, labels *ClassLabel, where func(i int) string) (*column, error) {
	vals := make([]any, c.len())
	for i := range vals {
		vals[i] = c.value(i)
	}
	return encodeLabels(c.Name, vals, labels, where)
}

// encodeLabels makes a column of the class ids of label values (names or ids).
func encodeLabels(name string, vals []any, labels *ClassLabel, where func(i int) string) (*column, error) {
	out := &column{Name: name, Kind: KindInt, Ints: make([]int64, len(vals)), LabelNames: labels.Names()}
	for i, v := range vals {
		id, err := labels.encode(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where(i), err)
		}
		out.Ints[i] = id
	}
	return out, nil
}
