package history

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Entry is one executed input. Session is the session number (1 for the
// current session; this store keeps only the current one).
type Entry struct {
	Session int
	Line    int
	Input   string
	Output  string
}

// Store is an in-memory history of one kernel session, safe for concurrent use.
type Store struct {
	id      string
	mu      sync.Mutex
	entries []Entry
}

// New returns an empty Store for the session with the given id.
func New(id string) *Store { return &Store{id: id} }

// Add records input (and its text output, "" when not kept) as execution line.
func (s *Store) Add(line int, input, output string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries = append(s.entries, Entry{Session: 1, Line: line, Input: input, Output: output})
}

// SetOutput records the text output of execution line (shown when a
// history_request asks for output).
func (s *Store) SetOutput(line int, output string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.entries) - 1; i >= 0; i-- {
		if s.entries[i].Line == line {
			s.entries[i].Output = output
			return
		}
	}
}

func (s *Store) snapshot() []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Entry(nil), s.entries...)
}

// Tail returns the last n entries (all when n <= 0), oldest first.
func (s *Store) Tail(n int) []Entry {
	e := s.snapshot()
	if n > 0 && len(e) > n {
		e = e[len(e)-n:]
	}
	return e
}

// Range returns entries of session with start <= line < stop; stop <= 0 means
// to the end. Session 0 or 1 is this session (relative or absolute numbering
// as IPython uses); other sessions are not stored and yield nothing.
func (s *Store) Range(session, start, stop int) []Entry {
	if session < 0 || session > 1 {
		return nil
	}
	var out []Entry
	for _, e := range s.snapshot() {
		if e.Line >= start && (stop <= 0 || e.Line < stop) {
			out = append(out, e)
		}
	}
	return out
}

// Search returns the entries whose input matches the glob pattern (path.Match
// syntax: *, ?, [...]; "" matches everything), the last n of them (all when
// n <= 0), with repeated inputs dropped when unique is true.
func (s *Store) Search(pattern string, n int, unique bool) ([]Entry, error) {
	if pattern == "" {
		pattern = "*"
	}
	re, err := compileGlob(pattern)
	if err != nil {
		return nil, fmt.Errorf("history search pattern %q: %w", pattern, err)
	}
	var out []Entry
	seen := map[string]bool{}
	all := s.snapshot()
	for i := len(all) - 1; i >= 0 && (n <= 0 || len(out) < n); i-- {
		e := all[i]
		if !re.MatchString(e.Input) || (unique && seen[e.Input]) {
			continue
		}
		seen[e.Input] = true
		out = append(out, e)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// compileGlob turns a SQLite GLOB pattern (what IPython's history search
// uses: * and ? match any character including "/" and newlines, [...] and
// [^...] are classes) into an anchored regular expression.
func compileGlob(pattern string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString(`(?s)\A`)
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			end := strings.IndexByte(pattern[i+1:], ']')
			if end < 0 {
				return nil, fmt.Errorf("unclosed [ at offset %d", i)
			}
			class := pattern[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`\z`)
	return regexp.Compile(b.String())
}

// Tuples returns entries in the history_reply shape: [session, line, input]
// or, with output, [session, line, [input, output]].
func Tuples(entries []Entry, output bool) [][]any {
	out := make([][]any, 0, len(entries))
	for _, e := range entries {
		if output {
			out = append(out, []any{e.Session, e.Line, []any{e.Input, e.Output}})
		} else {
			out = append(out, []any{e.Session, e.Line, e.Input})
		}
	}
	return out
}
