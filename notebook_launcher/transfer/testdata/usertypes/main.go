// Command usertypes checks that a compiled program's own types (package
// main) cross with their unexported fields, both ways, to the shape yaegi
// gives a cell's struct (unexported field x exported as Xx).
package main

import (
	"fmt"
	"os"
	"reflect"

	"github.com/goaccel/goaccel/notebook_launcher/transfer"
)

type inner struct{ name string }

type config struct {
	lr     float64
	Epochs int
	inner  *inner
}

func main() {
	v := config{lr: 0.5, Epochs: 2, inner: &inner{"x"}}
	b, err := transfer.Marshal([]reflect.Value{reflect.ValueOf(v)}, nil)
	check(err)
	yInner := reflect.StructOf([]reflect.StructField{{Name: "Xname", Type: reflect.TypeOf("")}})
	yaegiShape := reflect.StructOf([]reflect.StructField{
		{Name: "Xlr", Type: reflect.TypeOf(0.0)}, {Name: "Epochs", Type: reflect.TypeOf(0)}, {Name: "Xinner", Type: reflect.PointerTo(yInner)},
	})
	out, err := transfer.Unmarshal(b, []reflect.Type{yaegiShape}, nil)
	check(err)
	b2, err := transfer.Marshal(out, nil)
	check(err)
	back, err := transfer.Unmarshal(b2, []reflect.Type{reflect.TypeOf(config{})}, nil)
	check(err)
	c := back[0].Interface().(config)
	fmt.Printf("%+v | lr=%v Epochs=%d inner=%s\n", out[0].Field(0).Interface(), c.lr, c.Epochs, c.inner.name)
}

func check(err error) {
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
}
