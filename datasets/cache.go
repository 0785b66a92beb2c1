package datasets

import (
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
)

// cached is what a cache file holds: a Map result's columns, checked on load against the
// fingerprint that named the file.
type cached struct {
	Version     string
	Fingerprint string
	Rows        int
	Columns     []*column
}

// cacheDir returns dir, or goaccel's folder in the user's cache directory
// ($XDG_CACHE_HOME/goaccel/datasets, ~/.cache/goaccel/datasets).
func cacheDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder (%w); set MapOptions.CacheDir", err)
	}
	return filepath.Join(base, "goaccel", "datasets"), nil
}

func cachePath(dir, fingerprint string) string {
	return filepath.Join(dir, "map-"+fingerprint+".gob")
}

// loadCache returns the dataset cached under fingerprint, or false when there is none or the
// file is unreadable (then Map computes afresh and rewrites it).
func loadCache(file, fingerprint string) (*Dataset, bool) {
	f, err := os.Open(file)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	var c cached
	if err := gob.NewDecoder(f).Decode(&c); err != nil || c.Version != formatVersion || c.Fingerprint != fingerprint {
		return nil, false
	}
	for _, col := range c.Columns {
		if col.len() != c.Rows || (col.Null != nil && len(col.Null) != c.Rows) {
			return nil, false
		}
	}
	d, err := newDataset(c.Columns, fingerprint)
	if err != nil || d.n != c.Rows {
		return nil, false
	}
	d.cacheFile = file
	return d, true
}

// saveCache writes d to file through a temporary file and a rename, so that a reader never sees
// half a file.
func saveCache(file string, d *Dataset) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".map-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	err = gob.NewEncoder(tmp).Encode(cached{Version: formatVersion, Fingerprint: d.fingerprint, Rows: d.n, Columns: d.cols})
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}
