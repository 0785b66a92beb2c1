package datasets

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ClassLabel is a set of class names and their ids, 0 to NumClasses-1 in the order given
// (datasets.ClassLabel). A column of class labels holds the ids; Dataset.Labels returns its set.
type ClassLabel struct {
	names []string
	ids   map[string]int
}

// NewClassLabel returns the label set of names, in that order. Names must be distinct and not
// empty.
func NewClassLabel(names ...string) (*ClassLabel, error) {
	c := &ClassLabel{names: slices.Clone(names), ids: make(map[string]int, len(names))}
	for i, n := range names {
		if n == "" {
			return nil, fmt.Errorf("datasets: NewClassLabel: name %d is empty", i)
		}
		if j, dup := c.ids[n]; dup {
			return nil, fmt.Errorf("datasets: NewClassLabel: %q is both class %d and class %d", n, j, i)
		}
		c.ids[n] = i
	}
	return c, nil
}

// sortedClassLabel returns the label set of the distinct names, sorted (as datasets does for the
// folders of a folder dataset and for class_encode_column).
func sortedClassLabel(names []string) *ClassLabel {
	s := slices.Clone(names)
	sort.Strings(s)
	s = slices.Compact(s)
	c, _ := NewClassLabel(s...)
	return c
}

// Names returns the class names in id order.
func (c *ClassLabel) Names() []string { return slices.Clone(c.names) }

// NumClasses returns the number of classes.
func (c *ClassLabel) NumClasses() int { return len(c.names) }

// ID returns the id of name (str2int), or an error naming the label set when it has no such
// class.
func (c *ClassLabel) ID(name string) (int, error) {
	if id, ok := c.ids[name]; ok {
		return id, nil
	}
	return 0, fmt.Errorf("label %q is not in the label set %v", name, c.names)
}

// Name returns the name of class id (int2str).
func (c *ClassLabel) Name(id int) (string, error) {
	if id < 0 || id >= len(c.names) {
		return "", fmt.Errorf("class id %d is out of range for the %d classes %v", id, len(c.names), c.names)
	}
	return c.names[id], nil
}

// String lists the names.
func (c *ClassLabel) String() string {
	return "ClassLabel{" + strings.Join(c.names, ", ") + "}"
}

// encode returns the id of a label value as datasets' ClassLabel.encode_example does: a name, a
// name with surrounding space, or an integer (or its decimal text) that is a class id. Unlike
// datasets it rejects -1 ("no label"), which a training loss cannot take.
func (c *ClassLabel) encode(v any) (int64, error) {
	switch v := v.(type) {
	case string:
		if id, ok := c.ids[v]; ok {
			return int64(id), nil
		}
		if id, ok := c.ids[strings.TrimSpace(v)]; ok {
			return int64(id), nil
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && n >= 0 && n < int64(len(c.names)) {
			return n, nil
		}
		return 0, fmt.Errorf("label %q is not in the label set %v", v, c.names)
	case int64:
		if v < 0 || v >= int64(len(c.names)) {
			return 0, fmt.Errorf("label %d is not a class id of the label set %v (ids 0 to %d)", v, c.names, len(c.names)-1)
		}
		return v, nil
	case nil:
		return 0, fmt.Errorf("the label is missing (null)")
	}
	return 0, fmt.Errorf("label %v is a %T; labels are names or class ids", v, v)
}

// ClassEncodeColumn returns the dataset with column turned into class ids of labels
// (datasets' class_encode_column, or cast_column to a ClassLabel): each value must be a name of
// the set or one of its ids. With labels nil the set is the column's distinct string values,
// sorted, as class_encode_column makes it. Give the same labels to every split (the training
// set's Labels) so that ids mean the same classes in each.
func (d *Dataset) ClassEncodeColumn(name string, labels *ClassLabel) (*Dataset, error) {
	c, err := d.column(name, KindString, KindInt)
	if err != nil {
		return nil, fmt.Errorf("datasets: ClassEncodeColumn: %w", err)
	}
	if labels == nil {
		if c.Kind != KindString {
			return nil, fmt.Errorf("datasets: ClassEncodeColumn: column %q holds integers; give the label set whose ids they are", name)
		}
		var present []string
		for i, s := range c.Strings {
			if !c.isNull(i) {
				present = append(present, s)
			}
		}
		labels = sortedClassLabel(present)
	}
	out, err := classIDs(c, labels, func(i int) string { return fmt.Sprintf("row %d", i) })
	if err != nil {
		return nil, fmt.Errorf("datasets: ClassEncodeColumn: %w", err)
	}
	return d.withColumns([]*column{out}, derive(d.fingerprint, "class_encode_column", name, labels.names)), nil
}
