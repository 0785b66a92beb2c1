package stdgeneric

import (
	"os"
	"testing"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/kernel/internal/interpreter/std"
)

func TestZZ(t *testing.T) {
	i := interp.New(interp.Options{Stdout: os.Stdout, Stderr: os.Stderr})
	if err := i.Use(std.Symbols); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("ZZERR") != "" {
		if err := LoadPackage(i, "errors"); err != nil {
			t.Fatal(err)
		}
	}
	_, err := i.Eval(os.Getenv("ZZ"))
	if err != nil {
		t.Fatal(err)
	}
}
