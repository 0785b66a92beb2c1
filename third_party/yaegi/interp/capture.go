package interp

import "reflect"

// goaccel: a function literal made at the top level captures what it reads.
// A closure runs in a copy of the frame it was made in (getFunc,
// genFunctionWrapper); a copy of the global frame held every value the frame
// held then, the earlier values of the variables a REPL's input defines
// again included (a cell re-running x := tensor(…); f := func(){…} kept every
// x and every f it ever made, each f holding the one before). A copy of the
// global frame now holds the slots the literal's code reads, and no others.

// capturedSlots returns the slots of the frame a function literal is made
// in that its code reads: the nodes of its body (and of the literals nested
// in it) that reach that frame through their level.
func capturedSlots(lit *node) []int {
	seen := map[int]bool{}
	var walk func(n *node, depth int)
	walk = func(n *node, depth int) {
		if n.level == depth+1 && n.findex >= 0 {
			seen[n.findex] = true
		}
		for i, c := range n.child {
			d := depth
			if n.kind == funcLit && i == 3 { // a nested literal's body runs one frame further
				d++
			}
			walk(c, d)
		}
	}
	if len(lit.child) > 3 {
		walk(lit.child[3], 0)
	}
	slots := make([]int, 0, len(seen))
	for i := range seen {
		slots = append(slots, i)
	}
	return slots
}

// cloneFor is clone for a closure that reads the slots captured of f: when f
// is the global frame, the copy holds those slots only (the others are zero
// values, which no code of the closure reads).
func (f *frame) cloneFor(captured []int) *frame {
	if f.root != f {
		return f.clone()
	}
	nf := f.clone()
	kept := make([]reflect.Value, len(captured))
	for k, i := range captured {
		if i < len(nf.data) {
			kept[k] = nf.data[i]
		}
	}
	clear(nf.data)
	for k, i := range captured {
		if i < len(nf.data) {
			nf.data[i] = kept[k]
		}
	}
	return nf
}
