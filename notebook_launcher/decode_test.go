package notebook_launcher_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	nl "github.com/goaccel/goaccel/notebook_launcher"
	"github.com/goaccel/goaccel/notebook_launcher/transfer"
	"github.com/goaccel/goaccel/tensors"
)

// exported is what `%accelerate export` embeds: args marshalled by value.
func exported(t testing.TB, args ...any) []byte {
	t.Helper()
	vals := make([]reflect.Value, len(args))
	for i, a := range args {
		vals[i] = reflect.ValueOf(a)
	}
	b, err := transfer.Marshal(vals, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeArgsGivesTheFunctionsParameterTypes(t *testing.T) {
	train := func(c launchConfig, x *tensors.Tensor, n float32, rest ...int) {}
	tests := []struct {
		name    string
		fn      any
		data    []byte
		want    string // fmt of the decoded arguments
		wantErr string
	}{
		{"every parameter", train, exported(t, launchConfig{Scale: 2, Tags: []string{"a"}}, tensors.New([]float32{1, 2}, 2), 3, 4, 5),
			"[{2 [a]} tensor([1., 2.]) 3 4 5]", ""},
		{"no variadic arguments", train, exported(t, launchConfig{}, tensors.New([]float32{1}, 1), 1.5), "[{0 []} tensor([1.]) 1.5]", ""},
		{"too few", train, exported(t, launchConfig{}), "", "the function takes at least 3 arguments"},
		{"a number that does not fit", func(b int8) {}, exported(t, 300), "", "300"},
		{"not a function", 3, exported(t, 1), "", "needs the function"},
		{"not a message", train, []byte("hello"), "", "decode the arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := nl.DecodeArgs(tt.fn, tt.data)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("DecodeArgs = %v, %v; want an error saying %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s := fmt.Sprint(got); s != tt.want {
				t.Errorf("DecodeArgs = %q; want %q", s, tt.want)
			}
		})
	}
}

// BenchmarkDecodeArgs decodes the arguments of an exported program that
// carries a 4 MiB tensor.
func BenchmarkDecodeArgs(b *testing.B) {
	train := func(c launchConfig, x *tensors.Tensor) {}
	data := exported(b, launchConfig{Scale: 2}, tensors.Zeros(1<<20))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := nl.DecodeArgs(train, data); err != nil {
			b.Fatal(err)
		}
	}
}
