package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

func main() {
	i := interp.New(interp.Options{})
	i.Use(stdlib.Symbols)
	data, _ := os.ReadFile(os.Args[1])
	for n, chunk := range strings.Split(string(data), "\n----\n") {
		func() {
			defer func() {
				if r := recover(); r != nil {
					fmt.Printf("[%d] PANIC: %v\n", n, r)
				}
			}()
			v, err := i.Eval(chunk)
			if err != nil {
				fmt.Printf("[%d] ERR %v\n", n, err)
				return
			}
			if v.IsValid() && v.CanInterface() {
				fmt.Printf("[%d] VAL %v\n", n, v.Interface())
			}
		}()
	}
}
