package spec

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// pow10 holds 1e0 … 1e308 correctly rounded, as serde_json's POW10 table
// of literals (math.Pow10 multiplies two table entries above 1e31).
var pow10 = func() (t [309]float64) {
	for i := range t {
		t[i], _ = strconv.ParseFloat("1e"+strconv.Itoa(i), 64)
	}
	return t
}()

// ParseFloat parses a JSON number as serde_json does without its
// float_roundtrip feature (what tokenizers reads tokenizer.json with): the
// decimal digits gathered into a u64, converted to float64, then one
// multiplication or division by a power of ten. That is not always the
// nearest float64 to the decimal (strconv's answer): a Unigram score can
// differ in its last bit, and Viterbi's ties then break differently.
func ParseFloat(s string) (float64, error) {
	bad := func() (float64, error) { return 0, fmt.Errorf("invalid number %q", s) }
	s = strings.TrimSpace(s)
	i := 0
	positive := true
	if i < len(s) && s[i] == '-' {
		positive = false
		i++
	}
	if i >= len(s) || s[i] < '0' || s[i] > '9' {
		return bad()
	}
	var sig uint64
	exp := 0
	overflow := func(d uint64) bool {
		return sig >= math.MaxUint64/10 && (sig > math.MaxUint64/10 || d > math.MaxUint64%10)
	}
	if s[i] == '0' {
		i++
	} else {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			d := uint64(s[i] - '0')
			if overflow(d) {
				exp++ // parse_long_integer: further digits only scale
			} else {
				sig = sig*10 + d
			}
			i++
		}
	}
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		dropping := false
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			d := uint64(s[i] - '0')
			if dropping || overflow(d) {
				dropping = true // parse_decimal_overflow: the rest is ignored
			} else {
				sig = sig*10 + d
				exp--
			}
			i++
		}
		if i == start {
			return bad()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		neg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			neg = s[i] == '-'
			i++
		}
		if i >= len(s) {
			return bad()
		}
		e := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if e < 1<<20 {
				e = e*10 + int(s[i]-'0')
			}
			i++
		}
		if neg {
			e = -e
		}
		exp += e
	}
	if i != len(s) {
		return bad()
	}
	f := float64(sig)
	for {
		a := exp
		if a < 0 {
			a = -a
		}
		if a < len(pow10) {
			if exp >= 0 {
				f *= pow10[a]
				if math.IsInf(f, 0) {
					return 0, fmt.Errorf("number %q out of range", s)
				}
			} else {
				f /= pow10[a]
			}
			break
		}
		if f == 0 {
			break
		}
		if exp >= 0 {
			return 0, fmt.Errorf("number %q out of range", s)
		}
		f /= 1e308
		exp += 308
	}
	if !positive {
		f = -f
	}
	return f, nil
}
