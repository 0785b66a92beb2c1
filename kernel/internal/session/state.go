package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/goaccel/goaccel/kernel/internal/cells/celltypes"
	"github.com/goaccel/goaccel/kernel/internal/gobuild"
	"github.com/goaccel/goaccel/kernel/internal/program"
	"github.com/goaccel/goaccel/notebook_launcher/transfer"
)

// sessionState is what the state file holds for the executor that replaces
// this one (after a crash, or a switch to a derived executor): the session's
// declarations and imports, its variables' names and types, and on a switch
// the values that can cross a process (in the file beside it, valuesFile).
type sessionState struct {
	Modules []gobuild.Require `json:"modules,omitempty"`
	Imports [][2]string       `json:"imports,omitempty"`
	Decls   []program.Decl    `json:"decls,omitempty"`
	Vars    []stateVar        `json:"vars,omitempty"`
	// Carried are the variables whose values valuesFile holds, in order.
	Carried []string `json:"carried,omitempty"`
}

// stateVar is one session variable: its name and its type as a cell
// writes it ("" when the session does not know it).
type stateVar struct {
	Name string `json:"name"`
	Type string `json:"type,omitempty"`
}

// valuesFile holds the values a switch carries, beside the state file.
func valuesFile(state string) string { return state + ".values" }

// state is what the state file should hold now.
func (s *Session) state() sessionState {
	s.mu.Lock()
	st := sessionState{Modules: slices.Clone(s.modules), Imports: s.declared.Imports()}
	var names []string
	for _, d := range s.declared.Decls() {
		if d.Kind == "var" {
			names = append(names, d.Names...)
			continue
		}
		st.Decls = append(st.Decls, d)
	}
	names = append(names, s.declared.StatementVars()...)
	s.mu.Unlock()
	slices.Sort(names)
	for _, n := range slices.Compact(names) {
		if n != "_" {
			st.Vars = append(st.Vars, stateVar{Name: n, Type: s.declarableType(n, st.Imports)})
		}
	}
	return st
}

// declarableType is the type of session variable name as a declaration in a
// cell importing imports (name, path) writes it: packages by the names the
// cells import them under. It is "" when a cell cannot write it (it names a
// package the session does not import, or a type with no source form), or
// is unknown.
func (s *Session) declarableType(name string, imports [][2]string) string {
	namer := celltypes.NewNamer(s.types.Package(), imports, nil)
	text, ok := namer.Source(s.typeOf(name))
	if !ok || len(namer.Added()) > 0 {
		return ""
	}
	return text
}

// crossable keeps the values (and their names) that can cross a process.
func crossable(vals []reflect.Value, names []string) ([]reflect.Value, []string) {
	var keptVals []reflect.Value
	var keptNames []string
	for i, v := range vals {
		if transfer.Encode(io.Discard, []reflect.Value{v}, []string{names[i]}) == nil {
			keptVals, keptNames = append(keptVals, v), append(keptNames, names[i])
		}
	}
	return keptVals, keptNames
}

// stateSource is what the state file is made from: the session's record at
// a version, and its modules.
type stateSource struct {
	record  *program.Record
	version uint64
	modules []gobuild.Require
}

// stateSource is what the state file would be made from now.
func (s *Session) stateSource() stateSource {
	s.mu.Lock()
	defer s.mu.Unlock()
	return stateSource{record: s.declared, version: s.declared.Version(), modules: slices.Clone(s.modules)}
}

func (a stateSource) equal(b stateSource) bool {
	return a.record == b.record && a.version == b.version && slices.Equal(a.modules, b.modules)
}

// saveState writes the state file when the session's declarations changed
// (a cell that changes none costs a comparison of versions). With carry,
// the variables whose values can cross a process are written beside it.
func (s *Session) saveState(carry bool) error {
	if s.opts.StateFile == "" {
		return nil
	}
	from := s.stateSource()
	if !carry && from.equal(s.savedFrom) {
		return nil
	}
	st := s.state()
	var values bytes.Buffer
	if carry {
		var vals []reflect.Value
		globals := s.globals()
		for _, v := range st.Vars {
			if val, ok := globals[v.Name]; ok && val.IsValid() && v.Type != "" {
				vals = append(vals, val)
				st.Carried = append(st.Carried, v.Name)
			}
		}
		if transfer.Encode(&values, vals, st.Carried) != nil {
			// Some cannot cross (the note names them): keep the others.
			values.Reset()
			vals, st.Carried = crossable(vals, st.Carried)
			if err := transfer.Encode(&values, vals, st.Carried); err != nil {
				return fmt.Errorf("save the session's variables: %w", err)
			}
		}
	}
	b, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("save the session: %w", err)
	}
	if !carry && bytes.Equal(b, s.savedState) {
		s.savedFrom = from
		return nil
	}
	if carry {
		if err := os.WriteFile(valuesFile(s.opts.StateFile), values.Bytes(), 0o600); err != nil {
			return fmt.Errorf("save the session's variables: %w", err)
		}
	}
	if err := os.WriteFile(s.opts.StateFile, b, 0o600); err != nil {
		return fmt.Errorf("save the session: %w", err)
	}
	s.savedState, s.savedFrom = b, from
	return nil
}

// Restore brings back the session an earlier executor saved in the state
// file (executor.Restorer): its imports, functions, types, methods and
// constants, its variables' values where a switch carried them, and
// declares the other variables with their zero values. It returns a note
// for the user naming what was kept and what was lost ("" when the session
// had nothing to restore).
func (s *Session) Restore(ctx context.Context) string {
	if s.opts.StateFile == "" {
		return "variables were lost"
	}
	b, err := os.ReadFile(s.opts.StateFile)
	if err != nil || len(b) == 0 {
		return ""
	}
	var st sessionState
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Sprintf("the session could not be restored (a bad state file: %v)", err)
	}
	values, _ := os.ReadFile(valuesFile(s.opts.StateFile))
	os.Remove(valuesFile(s.opts.StateFile)) // carried once: a crash later must not bring back old values
	s.modules = st.Modules
	if len(st.Decls) == 0 && len(st.Vars) == 0 && len(st.Imports) == 0 {
		return ""
	}
	var failed []string
	if r := s.runCell(ctx, replayCode(st, st.Decls, st.Vars)); r.Error != nil {
		// One at a time, so that one declaration that no longer compiles
		// loses only itself: declarations, the variables (whose types may
		// be the cells'), then again the declarations that failed (which
		// may use the variables).
		var retry []program.Decl
		for _, d := range st.Decls {
			if r := s.runCell(ctx, replayCode(st, []program.Decl{d}, nil)); r.Error != nil {
				retry = append(retry, d)
			}
		}
		for _, v := range st.Vars {
			s.runCell(ctx, replayCode(st, nil, []stateVar{v})) // one that fails is lost
		}
		for _, d := range retry {
			if r := s.runCell(ctx, replayCode(st, []program.Decl{d}, nil)); r.Error != nil {
				failed = append(failed, strings.Join(d.Names, ", "))
			}
		}
	}
	s.mu.Lock()
	for _, d := range st.Decls { // where each came from, for errors and launches
		if !slices.Contains(failed, strings.Join(d.Names, ", ")) {
			s.declared.Define(d)
		}
	}
	s.mu.Unlock()
	kept := s.restoreValues(values, st.Carried)
	var lost []string
	for _, v := range st.Vars {
		if !slices.Contains(kept, v.Name) {
			lost = append(lost, v.Name)
		}
	}
	var note []string
	note = append(note, fmt.Sprintf("the session's %d declarations were restored", len(st.Decls)-len(failed)))
	if len(failed) > 0 {
		note = append(note, "these no longer compile and were dropped: "+strings.Join(failed, "; "))
	}
	if len(kept) > 0 {
		note = append(note, "variables kept: "+strings.Join(kept, ", "))
	}
	if len(lost) > 0 {
		note = append(note, "variables lost (now zero values; run their cells again): "+strings.Join(lost, ", "))
	}
	_ = s.saveState(false)
	return strings.Join(note, "; ")
}

// replayCode is a cell that declares decls and vars (with their zero
// values), importing what the session imported.
func replayCode(st sessionState, decls []program.Decl, vars []stateVar) string {
	var b strings.Builder
	for _, im := range st.Imports {
		fmt.Fprintf(&b, "import %s %s\n", im[0], strconv.Quote(im[1]))
	}
	for _, d := range decls {
		b.WriteString(d.Text + "\n")
	}
	for _, v := range vars {
		if v.Type != "" {
			fmt.Fprintf(&b, "var %s %s\n", v.Name, v.Type)
		}
	}
	return b.String()
}

// restoreValues sets the carried variables from the values a switch wrote,
// returning the names it set.
func (s *Session) restoreValues(data []byte, names []string) []string {
	if len(data) == 0 || len(names) == 0 {
		return nil
	}
	globals := s.globals()
	var types []reflect.Type
	for _, n := range names {
		v, ok := globals[n]
		if !ok || !v.CanSet() {
			return nil
		}
		types = append(types, v.Type())
	}
	vals, err := transfer.Decode(bytes.NewReader(data), types, names)
	if err != nil {
		fmt.Fprintf(s.opts.Stderr, "the session's variables could not be carried over: %v\n", err)
		return nil
	}
	for i, n := range names {
		globals[n].Set(vals[i])
	}
	return names
}
