package atomicdir

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ManifestName is the file that makes a folder complete: it lists every
// other file and its size, and is written last.
const ManifestName = "goaccel_manifest.json"

// manifest is ManifestName's content.
type manifest struct {
	Files map[string]int64 `json:"files"`
}

// Folder is one published folder.
type Folder struct {
	// Path is the folder's name, where readers find it.
	Path string
	// Hook, when set, is called before and after every step that changes
	// the file system, with a name for the step; tests kill the process
	// there.
	Hook func(step string)
}

func (f Folder) hook(step string) {
	if f.Hook != nil {
		f.Hook(step)
	}
}

// Staging is the folder a new version is written in before Publish.
func (f Folder) Staging() string { return sibling(f.Path, "."+filepath.Base(f.Path)+".partial") }

// Previous is where Publish moves the previous version while it swaps.
func (f Folder) Previous() string { return f.Path + ".old" }

// deleting is where Remove moves a folder before deleting it.
func deleting(path string) string { return sibling(path, "."+filepath.Base(path)+".deleting") }

func sibling(path, name string) string { return filepath.Join(filepath.Dir(path), name) }

// Stage creates an empty staging folder (and the parent folders) and
// returns it. Run Recover first: Stage discards what a staging folder held.
func (f Folder) Stage() (string, error) {
	tmp := f.Staging()
	if err := f.removeAll(tmp); err != nil {
		return "", err
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return "", err
	}
	return tmp, Sync(filepath.Dir(tmp))
}

// Publish seals the staging folder and makes it the folder's new version.
func (f Folder) Publish() error {
	tmp := f.Staging()
	f.hook("seal")
	if err := Seal(tmp); err != nil {
		return err
	}
	f.hook("sealed")
	if _, err := os.Lstat(f.Path); err == nil {
		// A leftover previous version is stale only while the folder
		// itself exists; Recover handles the other case.
		if err := f.remove(f.Previous()); err != nil {
			return err
		}
		if err := f.rename(f.Path, f.Previous()); err != nil {
			return err
		}
	}
	if err := f.rename(tmp, f.Path); err != nil {
		return err
	}
	return f.remove(f.Previous())
}

// rename renames from to to and fsyncs the folder holding them.
func (f Folder) rename(from, to string) error {
	step := "rename " + filepath.Base(from) + " " + filepath.Base(to)
	f.hook(step)
	if err := os.Rename(from, to); err != nil {
		return err
	}
	f.hook(step + " done")
	if err := Sync(filepath.Dir(to)); err != nil {
		return err
	}
	f.hook(step + " synced")
	return nil
}

// remove deletes the folder at path, if there is one, renaming it aside
// first so that no half-deleted folder is left under its name.
func (f Folder) remove(path string) error {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	aside := deleting(path)
	if err := f.removeAll(aside); err != nil {
		return err
	}
	if err := f.rename(path, aside); err != nil {
		return err
	}
	return f.removeAll(aside)
}

func (f Folder) removeAll(path string) error {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	f.hook("remove " + filepath.Base(path))
	if err := os.RemoveAll(path); err != nil {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	f.hook("remove " + filepath.Base(path) + " done")
	return nil
}

// Remove deletes the folder and what an interrupted Publish or Remove left
// of it, each under a name that is never loaded while it goes.
func (f Folder) Remove() error {
	for _, p := range []string{f.Path, f.Previous()} {
		if err := f.remove(p); err != nil {
			return err
		}
	}
	for _, p := range []string{f.Staging(), deleting(f.Path), deleting(f.Previous())} {
		if err := f.removeAll(p); err != nil {
			return err
		}
	}
	return nil
}

// Recover completes or undoes a Publish that a crash interrupted, and
// deletes leftovers: afterwards the folder is the newest complete version
// there was (unchanged if it is complete itself), and no staging, previous
// or half-deleted folder remains. A folder without a manifest (written
// before this package, or by hand) is kept when nothing complete replaces it.
func (f Folder) Recover() error {
	switch {
	case Complete(f.Path):
	case Complete(f.Staging()):
		// The crash came after the previous version was moved aside:
		// the new one was complete, so finish publishing it.
		if err := f.remove(f.Path); err != nil {
			return err
		}
		if err := f.rename(f.Staging(), f.Path); err != nil {
			return err
		}
	case Complete(f.Previous()):
		if err := f.remove(f.Path); err != nil {
			return err
		}
		if err := f.rename(f.Previous(), f.Path); err != nil {
			return err
		}
	}
	if err := f.remove(f.Previous()); err != nil {
		return err
	}
	for _, p := range []string{f.Staging(), deleting(f.Path), deleting(f.Previous())} {
		if err := f.removeAll(p); err != nil {
			return err
		}
	}
	return nil
}

// Resolve returns the folder that holds the newest complete version without
// changing anything: Path, or after an interrupted Publish its staging or
// previous folder. Without a complete version it returns Path and false.
func (f Folder) Resolve() (string, bool) {
	for _, p := range []string{f.Path, f.Staging(), f.Previous()} {
		if Complete(p) {
			return p, true
		}
	}
	return f.Path, false
}

// Complete reports whether dir holds a manifest and every file it lists,
// at its size.
func Complete(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return false
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil || m.Files == nil {
		return false
	}
	for name, size := range m.Files {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil || st.Size() != size {
			return false
		}
	}
	return true
}

// Damaged reports whether dir holds a manifest but not every file it lists
// at its size: a sealed folder that lost files (a deletion cut short).
func Damaged(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, ManifestName))
	return err == nil && !Complete(dir)
}

// Seal fsyncs every file in dir, writes the manifest listing them and
// fsyncs it and dir: from then on Complete(dir) holds.
func Seal(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	m := manifest{Files: map[string]int64{}}
	for _, e := range entries {
		if e.Name() == ManifestName || !e.Type().IsRegular() {
			continue
		}
		st, err := e.Info()
		if err != nil {
			return err
		}
		if err := Sync(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
		m.Files[e.Name()] = st.Size()
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := WriteFile(filepath.Join(dir, ManifestName), b, 0o644); err != nil {
		return err
	}
	return Sync(dir)
}

// WriteFile writes data to path and fsyncs it.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return f.Close()
}

// Sync fsyncs the file or folder at path: a file's data, or a folder's
// entries (what was created, renamed or removed in it).
func Sync(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return nil
}
