package session

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/kernel/internal/cells"
)

// renderMethods map a method that cell-defined types may declare to the MIME
// type of its result. yaegi cannot pass an interpreted value's methods to
// compiled code, so the session calls them in the interpreter instead.
var renderMethods = []struct{ method, mime string }{
	{"HTML", "text/html"}, {"Markdown", "text/markdown"}, {"SVG", "image/svg+xml"}, {"PNG", "image/png"}, {"String", "text/plain"},
}

// declaredRenderMethods returns the render methods some cell type declares.
func (s *Session) declaredRenderMethods() map[string]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	var found map[string]bool
	for _, d := range s.declared.Decls() {
		if d.Kind != "method" || len(d.Names) != 1 {
			continue
		}
		for _, r := range renderMethods {
			if strings.HasSuffix(d.Names[0], "."+r.method) {
				if found == nil {
					found = map[string]bool{}
				}
				found[r.method] = true
			}
		}
	}
	return found
}

// evalRich evaluates the final expression into a hidden variable, then calls
// each of the render methods cell types declare on it; one that does not
// apply fails to compile and is skipped.
func (s *Session) evalRich(ctx context.Context, run int, u cells.Unit, methods map[string]bool) Result {
	su := u.Wrap("__goaccel_out := ", "")
	su.Kind = cells.KindStmt
	if _, err := s.run(ctx, run, su); err != nil {
		var p interp.Panic
		if errors.As(err, &p) || ctx.Err() != nil {
			return s.failure(ctx, err, run) // it ran and failed: running it again would repeat its effects
		}
		// Not a single value (e.g. a call with no result): run it as it is.
		v, err := s.run(ctx, run, u)
		if err != nil {
			return s.failure(ctx, err, run)
		}
		return s.show(v)
	}
	v := s.globals()["__goaccel_out"]
	res := s.show(v)
	if res.Data == nil {
		return res
	}
	for _, r := range renderMethods {
		if !methods[r.method] {
			continue
		}
		mu := u.Replace("__goaccel_out." + r.method + "()")
		mu.Kind = cells.KindExpr
		out, err := s.run(ctx, run, mu)
		if err != nil || !out.IsValid() {
			continue
		}
		switch x := out.Interface().(type) {
		case string:
			res.Data[r.mime] = x
		case []byte:
			res.Data[r.mime] = base64.StdEncoding.EncodeToString(x)
		}
	}
	return res
}
