package magics_test

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/goaccel/goaccel/magics"
)

// session is a minimal Env: a real session runs Go code in its interpreter.
type session struct{}

func (session) Stdout() io.Writer                         { return os.Stdout }
func (session) Stderr() io.Writer                         { return os.Stderr }
func (session) RunGo(context.Context, string) (any, bool) { return nil, false }
func (session) Who() []string                             { return []string{"x int"} }
func (session) Doc(string) (string, bool)                 { return "", false }

func ExampleParse() {
	calls, goCode := magics.Parse("%env MODE=fast\nx := 1")
	fmt.Printf("%s %q, then Go: %q\n", calls[0].Name, calls[0].Args, goCode)
	// Output: env "MODE=fast", then Go: "\nx := 1"
}

// Other packages add their magics to the session's registry.
func ExampleRegistry_Register() {
	reg := magics.NewRegistry()
	err := reg.Register(magics.Magic{
		Name: "hello", Usage: "%hello NAME", Help: "greet",
		Run: func(_ context.Context, c magics.Call, env magics.Env) (magics.Output, error) {
			fmt.Fprintf(env.Stdout(), "hello, %s\n", c.Args)
			return magics.Output{}, nil
		},
	})
	if err != nil {
		fmt.Println(err)
	}
	calls, _ := magics.Parse("%hello notebook")
	if _, err := reg.Run(context.Background(), calls[0], session{}); err != nil {
		fmt.Println(err)
	}
	// Output: hello, notebook
}

func ExampleRegistry_Run_unknown() {
	_, err := magics.NewRegistry().Run(context.Background(), magics.Call{Name: "nope"}, session{})
	fmt.Println(err)
	// Output: unknown magic %nope; known magics: %%bash, %%capture, %%sh, %%time, %%timeit, %%writefile, %accelerate, %cd, %doc, %env, %go, %help, %load, %reset, %time, %timeit, %who (and !command)
}
