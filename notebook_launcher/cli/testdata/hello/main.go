// Command hello prints the launch environment it was given.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Printf("rank=%s world=%s mp=%s cpu=%s args=%v\n", os.Getenv("RANK"), os.Getenv("WORLD_SIZE"),
		os.Getenv("ACCELERATE_MIXED_PRECISION"), os.Getenv("ACCELERATE_USE_CPU"), os.Args[1:])
	if k := os.Getenv("HELLO_PRINT_ENV"); k != "" {
		fmt.Printf("%s=%s\n", k, os.Getenv(k))
	}
	if os.Getenv("HELLO_FAIL_RANK") == os.Getenv("RANK") {
		fmt.Fprintln(os.Stderr, "hello: failing on purpose")
		os.Exit(5)
	}
}
