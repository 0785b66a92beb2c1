// A //go:embed line gives a string or []byte variable the file's contents,
// read relative to the notebook's directory when the cell runs.
import _ "embed"

//go:embed testdata/embedded.txt
var greeting string

fmt.Print(greeting)

// Rewritten:
// -- import, line 1 --
// import (_ "embed"; "fmt")
// -- stmt, line 6 --
// __goaccel_line = 6; var greeting string = string(__goaccel.Embed("testdata/embedded.txt"))
// -- expr, line 8 --
// fmt.Print(greeting)
// Output:
// hello from a file
