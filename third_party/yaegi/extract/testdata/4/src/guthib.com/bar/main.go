package main

import (
	"guthib.com/baz"
)

func main() {
	baz.Hello()
}
