package baz

func Hello() {
	println("HELLO")
}
