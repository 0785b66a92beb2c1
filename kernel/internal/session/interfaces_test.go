package session

import (
	"context"
	"regexp"
	"testing"
)

// The bugs of issue 30 that programs nobody on the project wrote found (A
// Tour of Go's methods section, Go by Example's string-formatting), as a
// user meets them: each cell prints what go run prints.
func TestNamedTypesInInterfacesPrintAsGo(t *testing.T) {
	runSteps(t, []step{
		{code: "type I interface{ M() }\ntype T struct{ S string }\nfunc (t *T) M() { fmt.Println(t.S) }\ntype F float64\nfunc (f F) M() { fmt.Println(f) }\ntype G float64"},
		// %T of a value held in an interface the cell declares.
		{code: "var i I = &T{\"Hello\"}\nfmt.Printf(\"(%v, %T)\\n\", i, i)\ni = F(3.14)\nfmt.Printf(\"(%v, %T)\\n\", i, i)", out: "(&{Hello}, *main.T)\n(3.14, main.F)\n"},
		{code: "var f any = G(3.14)\nfmt.Printf(\"(%v, %T)\\n\", f, f)\nswitch f.(type) {\ncase float64:\n\tfmt.Println(\"float64\")\ncase G:\n\tfmt.Println(\"G\")\n}", out: "(3.14, main.G)\nG\n"},
	})
}

// A composite literal of a type with value-receiver methods assigned to an
// interface the cell declares (A Tour of Go's "interfaces are satisfied
// implicitly").
func TestValueMethodTypeAssignedToACellInterface(t *testing.T) {
	runSteps(t, []step{
		{code: "type I interface{ M() }\ntype V struct{ S string }\nfunc (v V) M() { fmt.Println(v.S) }"},
		{code: "var j I = V{\"hello\"}\nj.M()\nvar k I\nk = V{\"again\"}\nk.M()", out: "hello\nagain\n"},
	})
}

func TestPointerVerbPrintsAnAddress(t *testing.T) {
	s, out := newSession(t)
	r := s.Execute(context.Background(), "type point struct{ x, y int }\np := point{1, 2}\nfmt.Printf(\"pointer: %p %v\\n\", &p, p)")
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	if !regexp.MustCompile(`^pointer: 0x[0-9a-f]+ \{1 2\}\n$`).MatchString(out.String()) {
		t.Errorf("printed %q, want pointer: 0x… {1 2}", out.String())
	}
}

// A type declared in a function with the name of a package-level type,
// embedding a pointer to another package-level type.
func TestLocalTypeShadowsACellType(t *testing.T) {
	runSteps(t, []step{
		{code: "type Point struct{ X, Y int }\ntype Circle struct {\n\tPoint\n\tRadius int\n}"},
		{code: "func local() {\n\ttype Circle struct {\n\t\t*Point\n\t\tRadius int\n\t}\n\tc := Circle{&Point{1, 2}, 3}\n\tfmt.Printf(\"%v %d %T\\n\", c.X, c.Radius, c)\n}\nlocal()", out: "1 3 main.Circle\n"},
		{code: "fmt.Println(Circle{Point{4, 5}, 6})", out: "{{4 5} 6}\n"},
	})
}

// What the interpreter finds it cannot do only when the code runs is an
// UnsupportedError naming it, not the program's panic.
func TestRefusalAtRunTimeIsAnUnsupportedError(t *testing.T) {
	runSteps(t, []step{
		{code: "type Celsius float64\nfunc typeName(x any) string { return reflect.TypeOf(x).Name() }"},
		{code: "typeName(2.5)", text: "float64"},
		{code: "typeName(Celsius(1))", ename: "UnsupportedError", evalue: "reflect.TypeOf of a main.Celsius is not supported"},
	})
}

// A cell's result holding values of a cell's types in interfaces shows
// them as fmt's %v does, not as the interpreter's boxes.
func TestResultsShowValuesOfCellTypesInInterfaces(t *testing.T) {
	runSteps(t, []step{
		{code: "type point struct{ X, Y int }\ntype Celsius float64\nfunc (c Celsius) String() string { return \"C\" }"},
		{code: "var x any = point{1, 2}\nx", text: "{1 2}"},
		{code: "var y any = Celsius(2)\ny", text: "C"},
		{code: "[]any{point{1, 2}, Celsius(3)}", text: "[{1 2} C]"},
		{code: "m := map[any]int{point{1, 2}: 3}\nm", text: "map[{1 2}:3]"},
	})
}
