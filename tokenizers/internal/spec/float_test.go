package spec

import (
	"strconv"
	"testing"
)

// TestParseFloatIsSerdeJSONs pins serde_json's parsing without
// float_roundtrip: a 17-digit significand is rounded to float64 and then
// divided, which can differ from the correctly rounded value by one bit.
func TestParseFloatIsSerdeJSONs(t *testing.T) {
	for _, c := range []struct {
		s    string
		want float64
	}{
		{"-11.523859461971627", -(float64(11523859461971627) / 1e15)},
		{"-8.603541463839601", -8.603541463839601},
		{"0", 0},
		{"-3", -3},
		{"1e3", 1000},
		{"2.5E-3", 25 / 1e4},
	} {
		got, err := ParseFloat(c.s)
		if err != nil || got != c.want {
			t.Errorf("ParseFloat(%q) = %v, %v; want %v", c.s, got, err, c.want)
		}
	}
	exact, _ := strconv.ParseFloat("-11.523859461971627", 64)
	if serde, _ := ParseFloat("-11.523859461971627"); serde == exact {
		t.Log("this value parses the same both ways; the rule above still holds")
	}
	for _, bad := range []string{"", "-", "1.", ".5", "1e", "0x10", "1.2.3"} {
		if _, err := ParseFloat(bad); err == nil {
			t.Errorf("ParseFloat(%q): no error", bad)
		}
	}
}
