package interp

// goaccel: the verbs of a printing function's format that fmt handles before
// it looks at an operand's methods, so that a printable (printer.go) cannot
// print them itself: %T writes the reflect type's name and %p the operand's
// address, or %!p(type=value) for a value that is no pointer. printArgs
// gives such a verb another operand (the type's name, the pointer, the text
// fmt would write) and rewrites its directive; parseFormat reads a format
// as fmt's doPrintf does.

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// formatVerb is one directive of a format, as fmt's doPrintf reads it.
type formatVerb struct {
	start, end int    // format[start:end] is the directive, from % to the verb
	flags      string // the flags (#0+- and space)
	width      string // the width's digits ("": none, or a * operand)
	widthArg   int    // the operand a * width takes (-1: none)
	hasPrec    bool
	prec       string // the precision's digits ("": none, or a * operand)
	precArg    int    // the operand a * precision takes (-1: none)
	verb       rune
	arg        int  // the operand the verb prints, 0-based (-1: %%)
	indexed    bool // the directive names an operand with [n]
}

// parseFormat returns the directives of format, following fmt's doPrintf:
// flags, [n] argument indexes, * widths and precisions taking an operand.
func parseFormat(format string) []formatVerb {
	var verbs []formatVerb
	argNum := 0
	end := len(format)
	for i := 0; i < end; {
		for i < end && format[i] != '%' {
			i++
		}
		if i >= end {
			break
		}
		v := formatVerb{start: i, widthArg: -1, precArg: -1}
		i++ // the %
		flagsStart := i
		for ; i < end; i++ {
			if c := format[i]; c != '#' && c != '0' && c != '+' && c != '-' && c != ' ' {
				break
			}
		}
		v.flags = format[flagsStart:i]
		argIndex := func() {
			if i < end && format[i] == '[' {
				j := i + 1
				for j < end && format[j] != ']' {
					j++
				}
				if j < end {
					if n, err := strconv.Atoi(format[i+1 : j]); err == nil && n >= 1 {
						argNum = n - 1
					}
					v.indexed = true
					i = j + 1
				}
			}
		}
		digits := func() string {
			s := i
			for i < end && format[i] >= '0' && format[i] <= '9' {
				i++
			}
			return format[s:i]
		}
		argIndex()
		if i < end && format[i] == '*' {
			i++
			v.widthArg = argNum
			argNum++
		} else {
			v.width = digits()
		}
		if i < end && format[i] == '.' {
			i++
			v.hasPrec = true
			argIndex()
			if i < end && format[i] == '*' {
				i++
				v.precArg = argNum
				argNum++
			} else {
				v.prec = digits()
			}
		}
		argIndex()
		if i >= end {
			break // no verb: fmt writes %!(NOVERB)
		}
		verb, size := utf8.DecodeRuneInString(format[i:])
		i += size
		v.end, v.verb = i, verb
		if verb == '%' {
			v.arg = -1
		} else {
			v.arg = argNum
			argNum++
		}
		verbs = append(verbs, v)
	}
	return verbs
}

// verbRewrite is what a directive prints instead: its operand's
// replacement, printed with verb; plain drops the flags, width and
// precision (fmt writes a %!verb(...) as it is).
type verbRewrite struct {
	operand interface{}
	verb    rune
	plain   bool
}

// rewriteVerbs rewrites the directives of format that rewrite gives another
// operand to print, for nargs operands. It returns the new format, the
// replacement of each operand that one directive alone printed (by index),
// and operands to append, which the new format names by index when an
// operand printed by a rewritten directive is also printed by another one
// ([n] indexes).
func rewriteVerbs(format string, nargs int, rewrite func(arg int, verb rune) (verbRewrite, bool)) (string, map[int]interface{}, []interface{}) {
	verbs := parseFormat(format)
	rewrites := make([]*verbRewrite, len(verbs))
	uses := map[int]int{}
	any := false
	for i, v := range verbs {
		if v.arg < 0 || v.arg >= nargs {
			continue
		}
		uses[v.arg]++
		if r, ok := rewrite(v.arg, v.verb); ok {
			rewrites[i] = &r
			any = true
		}
	}
	if !any {
		return format, nil, nil
	}
	shared := false
	for i, r := range rewrites {
		if r != nil && uses[verbs[i].arg] > 1 {
			shared = true
		}
	}
	var b strings.Builder
	replaced := map[int]interface{}{}
	var extra []interface{}
	last := 0
	for i, v := range verbs {
		r := rewrites[i]
		if r == nil && !shared {
			continue
		}
		b.WriteString(format[last:v.start])
		last = v.end
		switch {
		case r == nil:
			b.WriteString(v.directive(v.verb, v.arg, true, false))
		case shared:
			extra = append(extra, r.operand)
			b.WriteString(v.directive(r.verb, nargs+len(extra)-1, true, r.plain))
		default:
			replaced[v.arg] = r.operand
			b.WriteString(v.directive(r.verb, v.arg, v.indexed, r.plain))
		}
	}
	b.WriteString(format[last:])
	return b.String(), replaced, extra
}

// directive writes v again with verb for operand arg, naming the operands
// by index if indexed; plain leaves out the flags, width and precision (but
// a * operand, which fmt consumes either way).
func (v formatVerb) directive(verb rune, arg int, indexed, plain bool) string {
	if v.verb == '%' {
		return "%%"
	}
	index := func(n int) string { return "[" + strconv.Itoa(n+1) + "]" }
	b := []byte{'%'}
	if !plain {
		b = append(b, v.flags...)
	}
	switch {
	case v.widthArg >= 0 && indexed:
		b = append(b, index(v.widthArg)+"*"...)
	case v.widthArg >= 0:
		b = append(b, '*')
	case !plain:
		b = append(b, v.width...)
	}
	if v.hasPrec && (!plain || v.precArg >= 0) {
		b = append(b, '.')
		switch {
		case v.precArg >= 0 && indexed:
			b = append(b, index(v.precArg)+"*"...)
		case v.precArg >= 0:
			b = append(b, '*')
		default:
			b = append(b, v.prec...)
		}
	}
	if indexed {
		b = append(b, index(arg)...)
	}
	return string(utf8.AppendRune(b, verb))
}
