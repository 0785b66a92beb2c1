package magics

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// loadMagic is %load [-r RANGES] FILE: like IPython's, it replaces the cell
// with "// %load FILE" and the file's text, to be edited and run; nothing
// runs now. RANGES picks lines: "5-10 12" (1-based, inclusive), "5-" or "-3".
func loadMagic(_ context.Context, c Call, _ Env) (Output, error) {
	args := strings.Fields(c.Args)
	var ranges string
	if len(args) >= 2 && args[0] == "-r" {
		ranges, args = args[1], args[2:]
		for len(args) > 1 && isLineRange(args[0]) { // "-r 1-3 7 FILE"
			ranges, args = ranges+" "+args[0], args[1:]
		}
	}
	if len(args) != 1 {
		return Output{}, errors.New("%load needs one file: %load [-r 5-10] FILE")
	}
	b, err := os.ReadFile(args[0])
	if err != nil {
		return Output{}, fmt.Errorf("%%load: %w", err)
	}
	text := string(b)
	if ranges != "" {
		if text, err = pickLines(text, ranges); err != nil {
			return Output{}, fmt.Errorf("%%load: %w", err)
		}
	}
	return Output{NextInput: "// %load " + c.Args + "\n" + strings.TrimRight(text, "\n") + "\n"}, nil
}

func isLineRange(s string) bool {
	return s != "" && strings.Trim(s, "0123456789-") == "" && s != "-"
}

// pickLines returns the lines of text that ranges names, in the order named.
func pickLines(text, ranges string) (string, error) {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	var out []string
	for _, r := range strings.Fields(strings.ReplaceAll(ranges, ",", " ")) {
		from, to, isRange := strings.Cut(r, "-")
		first, last := 1, len(lines)
		var err error
		if from != "" {
			if first, err = strconv.Atoi(from); err != nil {
				return "", fmt.Errorf("bad line range %q: want N, N-M, N- or -M", r)
			}
		}
		if !isRange {
			last = first
		} else if to != "" {
			if last, err = strconv.Atoi(to); err != nil {
				return "", fmt.Errorf("bad line range %q: want N, N-M, N- or -M", r)
			}
		}
		if first < 1 || last > len(lines) || first > last {
			return "", fmt.Errorf("line range %q is outside the file's %d lines", r, len(lines))
		}
		out = append(out, lines[first-1:last]...)
	}
	return strings.Join(out, "\n"), nil
}
