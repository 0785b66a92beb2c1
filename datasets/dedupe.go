package datasets

import (
	"fmt"
	"strings"
)

// DedupeOptions say what makes two rows duplicates for DropDuplicates.
type DedupeOptions struct {
	// Columns are compared; nil means the column "text".
	Columns []string
	// CollapseSpace compares string values with every run of white space (spaces, newlines,
	// tabs) as one space and none at either end, so that texts differing only in line breaks
	// count as duplicates.
	CollapseSpace bool
}

// DropDuplicates returns the dataset without the rows whose compared columns equal an earlier
// row's (the first occurrence stays, in order), like pandas' drop_duplicates (Hugging Face
// datasets has no such method). On BBC News, 98 articles repeat an earlier one byte for byte and
// two more differ from an earlier one only in line breaks.
func (d *Dataset) DropDuplicates(opts DedupeOptions) (*Dataset, error) {
	names := opts.Columns
	if names == nil {
		names = []string{"text"}
	}
	cols := make([]*column, len(names))
	for i, n := range names {
		c, err := d.column(n)
		if err != nil {
			return nil, fmt.Errorf("datasets: DropDuplicates: %w", err)
		}
		cols[i] = c
	}
	seen := map[string]bool{}
	var kept []int
	var key strings.Builder
	for i := range d.n {
		key.Reset()
		for _, c := range cols {
			v := c.value(i)
			if s, ok := v.(string); ok && opts.CollapseSpace {
				v = strings.Join(strings.Fields(s), " ")
			}
			s := fmt.Sprint(v)
			fmt.Fprintf(&key, "%T %d %s", v, len(s), s) // lengths keep the keys of several columns apart
		}
		if k := key.String(); !seen[k] {
			seen[k] = true
			kept = append(kept, i)
		}
	}
	return d.take(kept, derive(d.fingerprint, "drop_duplicates", names, opts.CollapseSpace)), nil
}
