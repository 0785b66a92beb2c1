package magics

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// modulesEnv is a fakeEnv whose session imports modules.
type modulesEnv struct {
	fakeEnv
	calls []string
}

func (m *modulesEnv) GoGet(_ context.Context, arg string) (any, error) {
	m.calls = append(m.calls, "get "+arg)
	if strings.Contains(arg, "nosuch") {
		return nil, errors.New("module cannot be fetched")
	}
	return "switched", nil
}
func (m *modulesEnv) GoModUse(_ context.Context, dir string) (any, error) {
	m.calls = append(m.calls, "use "+dir)
	return nil, nil
}
func (m *modulesEnv) GoList() []string { return []string{"package a/b (module a v1.0.0)"} }

func TestGoMagic(t *testing.T) {
	tests := []struct {
		line, call, out, err string
		result               any
	}{
		{line: "%go get github.com/google/uuid@v1.6.0", call: "get github.com/google/uuid@v1.6.0", result: "switched"},
		{line: "%go get example.com/nosuch@v1.0.0", call: "get example.com/nosuch@v1.0.0", err: "%go get example.com/nosuch@v1.0.0: module cannot be fetched"},
		{line: "%go mod use ../mylib", call: "use ../mylib"},
		{line: "%go list", out: "package a/b (module a v1.0.0)\n"},
		{line: "%go build", err: "want `%go get MODULE@VERSION`, `%go mod use DIR` or `%go list`"},
		{line: "%go get", err: "want `%go get MODULE@VERSION`"},
	}
	for _, tt := range tests {
		env := &modulesEnv{}
		calls, _ := Parse(tt.line)
		out, err := NewRegistry().Run(context.Background(), calls[0], env)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v; want %q", tt.line, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.line, err)
			continue
		}
		if tt.call != "" && (len(env.calls) != 1 || env.calls[0] != tt.call) {
			t.Errorf("%s: calls %v; want %q", tt.line, env.calls, tt.call)
		}
		if got := env.out.String(); got != tt.out {
			t.Errorf("%s: printed %q; want %q", tt.line, got, tt.out)
		}
		if out.Result != tt.result {
			t.Errorf("%s: result %v; want %v", tt.line, out.Result, tt.result)
		}
	}
	calls, _ := Parse("%go list")
	if _, err := NewRegistry().Run(context.Background(), calls[0], &fakeEnv{}); err == nil || !strings.Contains(err.Error(), "cannot import modules") {
		t.Errorf("%%go in a session without modules: %v", err)
	}
}
