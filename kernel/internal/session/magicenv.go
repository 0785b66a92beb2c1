package session

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
)

// magicEnv is the session as the magics package sees it.
type magicEnv struct{ s *Session }

func (m magicEnv) Stdout() io.Writer { return m.s.opts.Stdout }
func (m magicEnv) Stderr() io.Writer { return m.s.opts.Stderr }

func (m magicEnv) RunGo(ctx context.Context, code string) (any, bool) {
	r := m.s.runCell(ctx, code)
	return r, r.Error != nil
}

func (m magicEnv) Who() []string { return m.s.Who() }

func (m magicEnv) Doc(symbol string) (string, bool) { return m.s.Doc(symbol) }

// Who lists the session's variables as "name type" lines, sorted by name.
func (s *Session) Who() []string {
	var out []string
	for name, v := range s.globals() {
		if hidden(name) {
			continue
		}
		t := ""
		if v.IsValid() {
			t = typeString(v.Type())
		}
		if declared := s.typeText(name); declared != "" {
			t = declared
		}
		out = append(out, strings.TrimSpace(fmt.Sprintf("%s %s", name, t)))
	}
	sort.Strings(out)
	return out
}

// hidden reports names the session makes for itself.
func hidden(name string) bool { return strings.HasPrefix(name, "__goaccel") || name == "_" }
