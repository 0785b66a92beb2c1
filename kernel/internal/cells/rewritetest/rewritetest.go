package rewritetest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Case is one golden file.
type Case struct {
	Name      string // the file name without .go
	Path      string
	Session   string // the earlier cell ("" when none)
	Cell      string
	Rewritten string
	Output    string
	HasOutput bool
}

const (
	sessionMark   = "// Session:"
	rewrittenMark = "// Rewritten:"
	outputMark    = "// Output:"
)

// Load reads every case in dir, sorted by name.
func Load(dir string) ([]Case, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var out []Case
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		c, err := parse(string(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		c.Name, c.Path = strings.TrimSuffix(filepath.Base(p), ".go"), p
		out = append(out, c)
	}
	return out, nil
}

func parse(text string) (Case, error) {
	var c Case
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	i := 0
	if len(lines) > 0 && lines[0] == sessionMark {
		var session []string
		for i = 1; i < len(lines) && strings.HasPrefix(lines[i], "//\t"); i++ {
			session = append(session, strings.TrimPrefix(lines[i], "//\t"))
		}
		c.Session = strings.Join(session, "\n")
		for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
			i++
		}
	}
	end := i
	for end < len(lines) && lines[end] != rewrittenMark {
		end++
	}
	if end == len(lines) {
		return c, fmt.Errorf("no %q section", rewrittenMark)
	}
	c.Cell = strings.TrimRight(strings.Join(lines[i:end], "\n"), "\n ")
	var rewritten, output []string
	target := &rewritten
	for _, l := range lines[end+1:] {
		if l == outputMark {
			target, c.HasOutput = &output, true
			continue
		}
		l = strings.TrimPrefix(l, "//")
		*target = append(*target, strings.TrimPrefix(l, " "))
	}
	c.Rewritten = strings.Join(rewritten, "\n")
	c.Output = strings.Join(output, "\n")
	return c, nil
}

// Write writes c back to its file with rewritten as the Rewritten section.
func Write(c Case, rewritten string) error {
	var b strings.Builder
	if c.Session != "" {
		b.WriteString(sessionMark + "\n")
		for _, l := range strings.Split(c.Session, "\n") {
			b.WriteString("//\t" + l + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(c.Cell + "\n\n" + rewrittenMark + "\n")
	comment(&b, rewritten)
	if c.HasOutput {
		b.WriteString(outputMark + "\n")
		comment(&b, c.Output)
	}
	return os.WriteFile(c.Path, []byte(b.String()), 0o644)
}

func comment(b *strings.Builder, text string) {
	for _, l := range strings.Split(text, "\n") {
		if l == "" {
			b.WriteString("//\n")
		} else {
			b.WriteString("// " + l + "\n")
		}
	}
}
