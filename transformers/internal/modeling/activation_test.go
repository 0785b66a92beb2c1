package modeling

import (
	"strings"
	"testing"

	"github.com/goaccel/goaccel/transformers/internal/testenv"
)

// TestActivationsMatchTransformers compares every activation goaccel accepts with transformers'
// ACT2FN on 241 points in [-12, 12] (testdata/make_decoder_fixtures.py), and checks that the
// fixture names each of them.
func TestActivationsMatchTransformers(t *testing.T) {
	fx, md := testenv.Fixture(t, "decoders.safetensors")
	names := strings.Split(md["activations"], "\n")
	if len(names) != len(activations) {
		t.Fatalf("the fixture has %d activations, goaccel %d", len(names), len(activations))
	}
	x := fx["act.x"]
	for _, name := range names {
		f, err := Activation("hidden_act", name)
		if err != nil {
			t.Fatal(err)
		}
		testenv.Close(t, name, f(x), fx["act."+name], 1e-6)
	}
}
