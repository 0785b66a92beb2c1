// An embed.FS, which only the compiler can make, is refused by name
// (yaegi ignored the line: an empty file system).
import "embed"

//go:embed testdata
var files embed.FS

// Rewritten:
// error: line 5:1: //go:embed of an embed.FS is not supported by the interpreter; only the Go compiler can make an embed.FS; read the files with os.ReadFile, or use os.DirFS(dir), an fs.FS
// Output:
// UnsupportedError: line 5:1: //go:embed of an embed.FS is not supported by the interpreter; only the Go compiler can make an embed.FS; read the files with os.ReadFile, or use os.DirFS(dir), an fs.FS
