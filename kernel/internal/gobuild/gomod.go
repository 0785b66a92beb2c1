package gobuild

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
)

// GoMod is the go.mod of a program built against m, requiring reqs too
// (with a replace directive for each that has a Dir).
//
// It builds with plain `go build`, offline, wherever goaccel was built: it
// replaces goaccel with m.Dir, repeats goaccel's own replace directives (its
// patched dependencies, which apply only where goaccel is the main module)
// and those the running binary was built with (a derived executor's local
// modules), and requires every module linked into the running binary at
// the version it was built with, or at the newer one m's go.mod asks for
// now (m's go.mod is part of the program's module graph). Its checksums are
// GoSum's.
func (m Module) GoMod(module, purpose string, reqs []Require) (string, error) {
	bi, _ := debug.ReadBuildInfo()
	return m.goMod(module, purpose, reqs, bi)
}

// goMod is GoMod for a binary built as bi (nil: no build information).
func (m Module) goMod(module, purpose string, reqs []Require, bi *debug.BuildInfo) (string, error) {
	own, err := readGoMod(m.Dir)
	if err != nil {
		return "", err
	}
	replaces, err := m.replaces(own, bi)
	if err != nil {
		return "", err
	}
	versions := buildList(own, bi)
	for _, r := range reqs {
		versions[r.Path] = r.version()
		if r.Dir != "" {
			replaces[r.Path] = r.Dir
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// %s, written by goaccel.\nmodule %s\n\ngo %s\n\n", purpose, module, m.GoVersion)
	fmt.Fprintf(&b, "require %s %s\n\n", modulePath, noVersion)
	b.WriteString("// The modules goaccel was built with, at the versions it was built with, so\n" +
		"// that go build needs nothing the module cache that built goaccel lacks.\n")
	writeBlock(&b, "require", versions, " ")
	b.WriteString("\n// goaccel's source, and the copies of modules it was built with.\n")
	writeBlock(&b, "replace", replaces, " => ")
	return b.String(), nil
}

// writeBlock writes a go.mod block of directives (path, sep, value), in
// the order of their paths.
func writeBlock(b *strings.Builder, verb string, lines map[string]string, sep string) {
	fmt.Fprintf(b, "%s (\n", verb)
	for _, path := range slices.Sorted(maps.Keys(lines)) {
		fmt.Fprintf(b, "\t%s%s%s\n", path, sep, lines[path])
	}
	b.WriteString(")\n")
}

// buildList is the module versions a program built against goaccel
// requires: each module linked into the running binary (bi) at the version
// it was built with, or the newer one goaccel's go.mod (own) requires; all
// of goaccel's requirements when bi lists no modules.
func buildList(own goModFile, bi *debug.BuildInfo) map[string]string {
	if bi == nil || len(bi.Deps) == 0 {
		return maps.Clone(own.requires)
	}
	versions := map[string]string{}
	for _, d := range bi.Deps {
		if d.Path == modulePath {
			continue // replaced below, by the source m names
		}
		v := d.Version
		if want := own.requires[d.Path]; want != "" && Older(v, want) {
			v = want
		}
		versions[d.Path] = v
	}
	return versions
}

// replaces maps module paths to what a program built against m replaces
// them with: goaccel with m.Dir, the replace directives of m's go.mod
// (own) with their folders under m.Dir, and those the running binary (bi)
// was built with.
func (m Module) replaces(own goModFile, bi *debug.BuildInfo) (map[string]string, error) {
	out := map[string]string{modulePath: m.Dir}
	for path, to := range own.replaces {
		if isFolder(to) {
			to = filepath.Join(m.Dir, to)
			if _, err := os.Stat(filepath.Join(to, "go.mod")); err != nil {
				return nil, fmt.Errorf("goaccel's go.mod replaces %s with the folder %s, which %s lacks (a module download leaves such folders out): "+
					"set %s to a goaccel checkout", path, to, m.Dir, EnvSource)
			}
		}
		out[path] = to
	}
	if bi == nil {
		return out, nil
	}
	for _, d := range bi.Deps {
		if d.Replace == nil || out[d.Path] != "" {
			continue
		}
		to := d.Replace.Path // a folder: its version is "(devel)"
		if !isFolder(to) {
			to += " " + d.Replace.Version
		}
		if isFolder(to) && !filepath.IsAbs(to) {
			return nil, fmt.Errorf("this goaccel was built with %s replaced by the folder %s, relative to a module it cannot find: "+
				"set %s to the goaccel checkout it was built from", d.Path, to, EnvSource)
		}
		out[d.Path] = to
	}
	return out, nil
}

// isFolder reports whether a replace directive's right side is a folder
// (a module path with a version is not).
func isFolder(to string) bool {
	return filepath.IsAbs(to) || to == "." || to == ".." ||
		strings.HasPrefix(to, "./") || strings.HasPrefix(to, "../")
}

// GoSum is the go.sum of a program built against m: goaccel's, the one
// the running binary was built with when it is not goaccel's own (a
// derived executor's build folder holds it beside the executable), and
// the checksums of the modules linked into the running binary.
func (m Module) GoSum() []byte {
	bi, _ := debug.ReadBuildInfo()
	exe, _ := os.Executable()
	return m.goSum(bi, filepath.Dir(exe))
}

// goSum is GoSum for a binary built as bi, whose executable is in exeDir.
func (m Module) goSum(bi *debug.BuildInfo, exeDir string) []byte {
	lines := map[string]bool{}
	add := func(text []byte) {
		for _, l := range strings.Split(string(text), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines[l] = true
			}
		}
	}
	own, _ := os.ReadFile(filepath.Join(m.Dir, "go.sum"))
	add(own)
	if bi == nil {
		return joinLines(lines)
	}
	if bi.Main.Path != modulePath && exeDir != "" {
		if f, err := readGoMod(exeDir); err == nil && f.module == bi.Main.Path {
			built, _ := os.ReadFile(filepath.Join(exeDir, "go.sum"))
			add(built)
		}
	}
	for _, d := range bi.Deps {
		if d.Replace != nil {
			d = d.Replace
		}
		if d.Sum != "" {
			lines[d.Path+" "+d.Version+" "+d.Sum] = true
		}
	}
	return joinLines(lines)
}

func joinLines(lines map[string]bool) []byte {
	var b strings.Builder
	for _, l := range slices.Sorted(maps.Keys(lines)) {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// goModFile is what goaccel reads of a go.mod.
type goModFile struct {
	module    string
	goVersion string
	requires  map[string]string // module path → version
	replaces  map[string]string // module path → "folder" or "path version"
}

// readGoMod reads dir's go.mod.
func readGoMod(dir string) (goModFile, error) {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return goModFile{}, fmt.Errorf("%s has no go.mod: %w", dir, err)
	}
	return parseGoMod(string(b)), nil
}

// parseGoMod reads the module, go, require and replace directives of a
// go.mod, single or in blocks. A replace of one version of a module counts
// for the module.
func parseGoMod(text string) goModFile {
	f := goModFile{requires: map[string]string{}, replaces: map[string]string{}}
	block := ""
	for _, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, "//")
		fields := strings.Fields(line)
		switch {
		case len(fields) == 0:
		case block != "" && fields[0] == ")":
			block = ""
		case block != "":
			f.add(block, fields)
		case len(fields) == 2 && fields[1] == "(":
			block = fields[0]
		default:
			f.add(fields[0], fields[1:])
		}
	}
	return f
}

func (f *goModFile) add(verb string, args []string) {
	unquote := func(s string) string {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
		return s
	}
	switch verb {
	case "module":
		if len(args) == 1 {
			f.module = unquote(args[0])
		}
	case "go":
		if len(args) == 1 {
			f.goVersion = args[0]
		}
	case "require":
		if len(args) == 2 {
			f.requires[unquote(args[0])] = args[1]
		}
	case "replace":
		if i := slices.Index(args, "=>"); i > 0 && i < len(args)-1 {
			f.replaces[unquote(args[0])] = strings.Join(args[i+1:], " ")
		}
	}
}

// Older reports whether semantic version a is below b (vMAJOR.MINOR.PATCH;
// a pre-release or pseudo-version compares by its release part, then as
// text).
func Older(a, b string) bool {
	pa, pb := release(a), release(b)
	for i := range pa {
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	preA, preB := strings.Contains(a, "-"), strings.Contains(b, "-")
	if preA != preB {
		return preA // v1.2.3-pre < v1.2.3
	}
	return a < b
}

// release is the numbers of vMAJOR.MINOR.PATCH[-…].
func release(v string) [3]int {
	var out [3]int
	v, _, _ = strings.Cut(strings.TrimPrefix(v, "v"), "-")
	for i, f := range strings.SplitN(v, ".", 3) {
		out[i], _ = strconv.Atoi(f)
	}
	return out
}
