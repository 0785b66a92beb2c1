package comm

import (
	"fmt"
)

// SeparateBuffers takes the binary values ([]byte) out of widget state, as
// the widget protocol sends them: each becomes a buffer, and its path (map
// keys and list indexes from the top of state) goes into buffer_paths; in a
// map the key is removed, in a list the item becomes null. state is not
// changed; the state returned shares what held no buffer.
func SeparateBuffers(state map[string]any) (out map[string]any, paths [][]any, buffers [][]byte) {
	v, _ := separate(state, nil, &paths, &buffers)
	out, _ = v.(map[string]any)
	if paths == nil {
		paths = [][]any{}
	}
	return out, paths, buffers
}

// separate returns v without its buffers, and whether it took any (v itself
// is then left as it was: maps and lists on the way are copied).
func separate(v any, path []any, paths *[][]any, buffers *[][]byte) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		var out map[string]any
		for k, item := range v {
			p := append(path[:len(path):len(path)], k)
			if b, ok := item.([]byte); ok {
				out = copyOnce(out, v)
				delete(out, k)
				*paths = append(*paths, p)
				*buffers = append(*buffers, b)
			} else if s, took := separate(item, p, paths, buffers); took {
				out = copyOnce(out, v)
				out[k] = s
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	case []any:
		var out []any
		for i, item := range v {
			p := append(path[:len(path):len(path)], i)
			var s any
			took := false
			if b, ok := item.([]byte); ok {
				*paths = append(*paths, p)
				*buffers = append(*buffers, b)
				took = true
			} else {
				s, took = separate(item, p, paths, buffers)
			}
			if took {
				if out == nil {
					out = append([]any(nil), v...)
				}
				out[i] = s
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	}
	return v, false
}

func copyOnce(out, v map[string]any) map[string]any {
	if out != nil {
		return out
	}
	out = make(map[string]any, len(v))
	for k, x := range v {
		out[k] = x
	}
	return out
}

// PutBuffers puts buffers back into state at paths (a message's
// buffer_paths, as JSON decodes them: strings and numbers), in place. A path
// that does not lead into state is an error.
func PutBuffers(state map[string]any, paths []any, buffers [][]byte) error {
	if len(paths) > len(buffers) {
		return fmt.Errorf("%d buffer paths but %d buffers", len(paths), len(buffers))
	}
	for i, p := range paths {
		path, ok := p.([]any)
		if !ok || len(path) == 0 {
			return fmt.Errorf("buffer path %d is %v, not a list of keys", i, p)
		}
		if err := put(state, path, buffers[i]); err != nil {
			return fmt.Errorf("buffer path %v: %w", path, err)
		}
	}
	return nil
}

func put(state map[string]any, path []any, b []byte) error {
	var cur any = state
	for i, step := range path {
		last := i == len(path)-1
		switch c := cur.(type) {
		case map[string]any:
			k, ok := step.(string)
			if !ok {
				return fmt.Errorf("step %v into a map is not a key", step)
			}
			if last {
				c[k] = b
				return nil
			}
			cur = c[k]
		case []any:
			n, ok := index(step)
			if !ok || n < 0 || n >= len(c) {
				return fmt.Errorf("step %v is not an index of a list of %d", step, len(c))
			}
			if last {
				c[n] = b
				return nil
			}
			cur = c[n]
		default:
			return fmt.Errorf("step %v leads into a %T", step, cur)
		}
	}
	return nil
}

func index(step any) (int, bool) {
	switch n := step.(type) {
	case float64:
		return int(n), n == float64(int(n))
	case int:
		return n, true
	}
	return 0, false
}
