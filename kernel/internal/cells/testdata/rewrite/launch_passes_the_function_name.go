// Session:
//	import nl "github.com/goaccel/goaccel/notebook_launcher"
//	func train(n int) int { return n }

// Workers rebuild a launched function from its declaration, so Launch gets its name.
func run() (any, error) { return nl.Launch(train, nl.Options{}, 3) }

// Rewritten:
// -- decl, line 2 --
// func run() (any, error) { return nl.Launch(__goaccel.Named("train", train), nl.Options{}, 3) }
// Output:
//
