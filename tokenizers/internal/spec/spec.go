// Package spec reads the JSON objects of a tokenizer.json: each component
// is an object with a "type" and its own fields, read here with errors that
// name the component and the field.
package spec

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/goaccel/goaccel/tokenizers/internal/normstr"
	"github.com/goaccel/goaccel/tokenizers/internal/regex"
)

// Object is one component's JSON object.
type Object struct {
	Kind   string // "normalizer", "pre_tokenizer", …: for error messages
	Type   string
	fields map[string]json.RawMessage
}

// IsNull reports whether raw is absent or JSON null.
func IsNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// Parse reads a component object of the given kind.
func Parse(kind string, raw json.RawMessage) (*Object, error) {
	o := &Object{Kind: kind}
	if err := json.Unmarshal(raw, &o.fields); err != nil {
		return nil, fmt.Errorf("%s: not a JSON object: %w", kind, err)
	}
	if t, ok := o.fields["type"]; ok {
		if err := json.Unmarshal(t, &o.Type); err != nil {
			return nil, fmt.Errorf("%s: \"type\" is not a string: %w", kind, err)
		}
	}
	return o, nil
}

// Has reports whether the field is present and not null.
func (o *Object) Has(name string) bool {
	raw, ok := o.fields[name]
	return ok && !IsNull(raw)
}

// Raw returns a field's JSON.
func (o *Object) Raw(name string) json.RawMessage { return o.fields[name] }

// Unsupported is the error for a component type goaccel does not implement.
func (o *Object) Unsupported() error {
	return fmt.Errorf("unsupported %s type %q: goaccel's tokenizers does not implement it, so it refuses the file rather than encode differently", o.Kind, o.Type)
}

// Get decodes a field into v. A missing or null field leaves v unchanged
// unless required.
func (o *Object) Get(name string, v any, required bool) error {
	raw, ok := o.fields[name]
	if !ok || IsNull(raw) {
		if required {
			return fmt.Errorf("%s %s: missing field %q", o.Kind, o.Type, name)
		}
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%s %s: field %q: %w", o.Kind, o.Type, name, err)
	}
	return nil
}

// Errorf returns an error naming the component.
func (o *Object) Errorf(format string, args ...any) error {
	return fmt.Errorf("%s %s: %s", o.Kind, o.Type, fmt.Sprintf(format, args...))
}

// Pattern reads a {"String": …} or {"Regex": …} pattern field, as Split and
// Replace take it.
func (o *Object) Pattern(name string) (normstr.Pattern, error) {
	var p struct {
		String *string `json:"String"`
		Regex  *string `json:"Regex"`
	}
	if err := o.Get(name, &p, true); err != nil {
		return nil, err
	}
	switch {
	case p.String != nil && *p.String != "":
		return normstr.LiteralPattern(*p.String), nil
	case p.String != nil:
		re, err := regex.Compile("")
		if err != nil {
			return nil, o.Errorf("%v", err)
		}
		return re, nil
	case p.Regex != nil:
		re, err := regex.Compile(*p.Regex)
		if err != nil {
			return nil, o.Errorf("%v", err)
		}
		return re, nil
	}
	return nil, o.Errorf("field %q has neither \"String\" nor \"Regex\"", name)
}
