package interp

import (
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
)

// adot produces an AST dot(1) directed acyclic graph for the given node. For debugging only.
// func (n *node) adot() { n.astDot(dotWriter(n.interp.dotCmd), n.ident) }

// genAST returns a new AST where generic types are replaced by instantiated types.
func genAST(sc *scope, root *node, types []*itype) (*node, bool, error) {
	typeParam := map[string]*node{}
	pindex := 0
	tname := ""
	rtname := ""
	recvrPtr := false
	fixNodes := []*node{}
	var gtree func(*node, *node) (*node, error)
	sname := root.child[0].ident + "["
	if root.kind == funcDecl {
		sname = root.child[1].ident + "["
	}

	// Input type parameters must be resolved prior AST generation, as compilation
	// of generated AST may occur in a different scope.
	for _, t := range types {
		sname += t.id() + ","
	}
	sname = strings.TrimSuffix(sname, ",") + "]"

	gtree = func(n, anc *node) (*node, error) {
		nod := copyNode(n, anc, false)
		switch n.kind {
		case funcDecl, funcType:
			nod.val = nod

		case identExpr:
			// Replace generic type by instantiated one.
			nt, ok := typeParam[n.ident]
			if !ok {
				break
			}
			if n.anc != nil && n.anc.kind == selectorExpr && childPos(n) == 1 {
				break // a selected name (hash.Hash for a parameter Hash) is no parameter (goaccel)
			}
			nod = copyNode(nt, anc, true)
			nod.typ = nt.typ
			nod.typeArg = true // a type even where its name is unknown (goaccel)

		case indexExpr:
			// Catch a possible recursive generic type definition
			if root.kind != typeSpec {
				break
			}
			if root.child[0].ident != n.child[0].ident {
				break
			}
			nod := copyNode(n.child[0], anc, false)
			fixNodes = append(fixNodes, nod)
			return nod, nil

		case fieldList:
			//  Node is the type parameters list of a generic function.
			if root.kind == funcDecl && n.anc == root.child[2] && childPos(n) == 0 {
				// Fill the types lookup table used for type substitution.
				for _, c := range n.child {
					l := len(c.child) - 1
					for _, cc := range c.child[:l] {
						if pindex >= len(types) {
							return nil, cc.cfgErrorf("undefined type for %s", cc.ident)
						}
						// The constraint names what the declaration sees
						// (goaccel: a generic function of another package).
						csc := sc
						if root.scope != nil {
							csc = root.scope
						}
						t, err := nodeType(c.interp, csc, c.child[l])
						if err != nil {
							return nil, err
						}
						if err := checkConstraint(types[pindex], t); err != nil {
							return nil, err
						}
						typeParam[cc.ident] = copyNode(cc, cc.anc, false)
						typeParam[cc.ident].ident = types[pindex].id()
						typeParam[cc.ident].typ = types[pindex]
						pindex++
					}
				}
				// Skip type parameters specification, so generated func doesn't look generic.
				return nod, nil
			}

			// Node is the receiver of a generic method.
			if root.kind == funcDecl && n.anc == root && childPos(n) == 0 && len(n.child) > 0 {
				rtn := n.child[0].child[1]
				// Method receiver is a generic type if it takes some type parameters.
				if rtn.kind == indexExpr || rtn.kind == indexListExpr || (rtn.kind == starExpr && (rtn.child[0].kind == indexExpr || rtn.child[0].kind == indexListExpr)) {
					if rtn.kind == starExpr {
						// Method receiver is a pointer on a generic type.
						rtn = rtn.child[0]
						recvrPtr = true
					}
					rtname = rtn.child[0].ident + "["
					for _, cc := range rtn.child[1:] {
						if pindex >= len(types) {
							return nil, cc.cfgErrorf("undefined type for %s", cc.ident)
						}
						it := types[pindex]
						typeParam[cc.ident] = copyNode(cc, cc.anc, false)
						typeParam[cc.ident].ident = it.id()
						typeParam[cc.ident].typ = it
						rtname += it.id() + ","
						pindex++
					}
					rtname = strings.TrimSuffix(rtname, ",") + "]"
				}
			}

			// Node is the type parameters list of a generic type.
			if root.kind == typeSpec && n.anc == root && childPos(n) == 1 {
				// Fill the types lookup table used for type substitution.
				tname = n.anc.child[0].ident + "["
				for _, c := range n.child {
					l := len(c.child) - 1
					for _, cc := range c.child[:l] {
						if pindex >= len(types) {
							return nil, cc.cfgErrorf("undefined type for %s", cc.ident)
						}
						it := types[pindex]
						t, err := nodeType(c.interp, sc, c.child[l])
						if err != nil {
							return nil, err
						}
						if err := checkConstraint(types[pindex], t); err != nil {
							return nil, err
						}
						typeParam[cc.ident] = copyNode(cc, cc.anc, false)
						typeParam[cc.ident].ident = it.id()
						typeParam[cc.ident].typ = it
						tname += it.id() + ","
						pindex++
					}
				}
				tname = strings.TrimSuffix(tname, ",") + "]"
				return nod, nil
			}
		}

		for _, c := range n.child {
			gn, err := gtree(c, nod)
			if err != nil {
				return nil, err
			}
			nod.child = append(nod.child, gn)
		}
		return nod, nil
	}

	// Instances are of a declaration (goaccel: by name only, crypto/hkdf's
	// Key[hash.Hash] was crypto/pbkdf2's, and a generic function a later
	// cell redefines kept its first instances).
	key := fmt.Sprintf("%p %s", root, sname)
	if nod, found := root.interp.generic[key]; found {
		return nod, true, nil
	}

	r, err := gtree(root, root.anc)
	if err != nil {
		return nil, false, err
	}
	root.interp.generic[key] = r
	r.param = append(r.param, types...)
	if tname != "" {
		for _, nod := range fixNodes {
			nod.ident = tname
		}
		r.child[0].ident = tname
	}
	if rtname != "" {
		// Replace method receiver type by synthetized ident.
		nod := r.child[0].child[0].child[1]
		if recvrPtr {
			nod = nod.child[0]
		}
		nod.kind = identExpr
		nod.ident = rtname
		nod.child = nil
	}
	// r.adot() // Used for debugging only.
	return r, false, nil
}

func copyNode(n, anc *node, recursive bool) *node {
	var i interface{}
	nindex := atomic.AddInt64(&n.interp.nindex, 1)
	nod := &node{
		debug:  n.debug,
		anc:    anc,
		interp: n.interp,
		index:  nindex,
		level:  n.level,
		nleft:  n.nleft,
		nright: n.nright,
		kind:   n.kind,
		pos:    n.pos,
		action: n.action,
		gen:    n.gen,
		val:    &i,
		rval:   n.rval,
		ident:  n.ident,
		meta:   n.meta,
	}
	nod.start = nod
	if recursive {
		for _, c := range n.child {
			nod.child = append(nod.child, copyNode(c, nod, true))
		}
	}
	return nod
}

func inferTypesFromCall(sc *scope, fun *node, args []*node) ([]*itype, error) {
	if fun.scope != nil {
		// The declaration's types name what it sees (goaccel: a generic
		// function of another package has its own imports).
		sc = fun.scope
	}
	ftn := fun.typ.node
	// Fill the map of parameter types, indexed by type param ident.
	paramTypes := map[string]*itype{}
	var names []string // type params, in declaration order
	for _, c := range ftn.child[0].child {
		typ, err := nodeType(fun.interp, sc, c.lastChild())
		if err != nil {
			return nil, err
		}
		for _, cc := range c.child[:len(c.child)-1] {
			paramTypes[cc.ident] = typ
			names = append(names, cc.ident)
		}
	}

	// Type params are inferred by name: the same param may occur several
	// times in the arguments (func Map[T, U any](s []T, f func(T) U)), and a
	// param may be known only through another one's core type constraint
	// (func Max[S ~[]E, E cmp.Ordered](x S) E).
	inferred := map[string]*itype{}
	var inferTypes func(*itype, *itype)
	inferTypes = func(param, input *itype) {
		if param == nil || input == nil {
			return
		}
		if input.untyped {
			// An untyped constant's default type (goaccel: untyped int
			// was no type to instantiate with).
			input = input.defaultType(input.node.rval, sc)
		}
		named := input
		// The structure of a defined type is its underlying type's; a type
		// parameter is inferred as the type itself (goaccel: E of
		// As[E any](err error, target *E) was int for a *Errno).
		input = coreType(input)
		switch param.cat {
		case chanT, ptrT, sliceT, arrayT:
			inferTypes(param.val, elemType(input))

		case mapT:
			if input.cat == mapT {
				inferTypes(param.key, input.key)
				inferTypes(param.val, input.val)
			} else if input.cat == valueT && input.rtype.Kind() == reflect.Map {
				inferTypes(param.key, valueTOf(input.rtype.Key()))
				inferTypes(param.val, valueTOf(input.rtype.Elem()))
			}

		case structT:
			if input.cat != structT {
				return
			}
			for i, f := range param.field {
				if i < len(input.field) {
					inferTypes(f.typ, input.field[i].typ)
				}
			}

		case funcT:
			if input.cat == valueT && input.rtype.Kind() == reflect.Func {
				// A compiled function (goaccel: sha256.New for func() H).
				ft := input.rtype
				for i, t := range param.arg {
					if i < ft.NumIn() {
						inferTypes(t, valueTOf(ft.In(i)))
					}
				}
				for i, t := range param.ret {
					if i < ft.NumOut() {
						inferTypes(t, valueTOf(ft.Out(i)))
					}
				}
				return
			}
			if input.cat != funcT {
				return
			}
			for i, t := range param.arg {
				if i < len(input.arg) {
					inferTypes(t, input.arg[i])
				}
			}
			for i, t := range param.ret {
				if i < len(input.ret) {
					inferTypes(t, input.ret[i])
				}
			}

		case nilT, genericT:
			constraint, isParam := paramTypes[param.name]
			if param.cat == nilT && !isParam || inferred[param.name] != nil {
				return
			}
			inferred[param.name] = named
			if constraint != nil {
				switch constraint.cat {
				case chanT, ptrT, sliceT, arrayT, mapT, funcT, structT:
					inferTypes(constraint, input)
				}
			}
		}
	}

	arg := 0
	for _, c := range ftn.child[1].child {
		typ, err := nodeType(fun.interp, sc, c.lastChild())
		if err != nil {
			return nil, err
		}
		if typ.cat == variadicT {
			for ; arg < len(args); arg++ {
				inferTypes(typ.val, args[arg].typ)
			}
			break
		}
		// Each name of a parameter group takes one argument.
		for k := 0; k < max(len(c.child)-1, 1) && arg < len(args); k++ {
			inferTypes(typ, args[arg].typ)
			arg++
		}
	}

	types := []*itype{}
	for _, name := range names {
		t := inferred[name]
		if t == nil {
			break // genAST reports the first type param it lacks
		}
		types = append(types, t)
	}
	return types, nil
}

// coreType returns the underlying type of a defined type, for inference.
func coreType(t *itype) *itype {
	for t.cat == linkedT && t.val != nil {
		t = t.val
	}
	return t
}

// elemType returns the element type of a slice, array, pointer or channel
// type, interpreted or binary; nil if t is none of them.
func elemType(t *itype) *itype {
	switch t.cat {
	case chanT, ptrT, sliceT, arrayT, variadicT:
		return t.val
	case valueT:
		switch t.rtype.Kind() {
		case reflect.Slice, reflect.Array, reflect.Ptr, reflect.Chan:
			return valueTOf(t.rtype.Elem())
		}
	}
	return nil
}

func checkConstraint(it, ct *itype) error {
	if len(ct.constraint) == 0 && len(ct.ulconstraint) == 0 {
		return nil
	}
	for _, c := range ct.constraint {
		if it.equals(c) || it.matchDefault(c) {
			return nil
		}
	}
	for _, c := range ct.ulconstraint {
		if it.underlying().equals(c) || it.matchDefault(c) {
			return nil
		}
	}
	return it.node.cfgErrorf("%s does not implement %s", it.id(), ct.id())
}
