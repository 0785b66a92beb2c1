package accelerate

import (
	"fmt"
	"reflect"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/internal/workerinfo"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/transformers"
)

// Prepare readies each training object for this process group, replacing it
// in place (Go's form of `model, opt, loader, sched = accelerator.prepare(...)`),
// in any order and number:
//
//	var model nn.Module = nn.NewSequential(...)
//	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-3})
//	loader := data.NewLoader(ds, data.LoaderConfig{BatchSize: 8, Shuffle: true})
//	acc.Prepare(&model, &opt, &loader)
//
// Models (*nn.Module, or *transformers.Model for a pretrained model, which
// keeps its Run) get rank 0's parameters and gradient synchronisation;
// optimizers (*optim.Optimizer) and schedulers (*optim.Scheduler) get the
// accumulation and skip rules; loaders (*data.Loader or **data.Loader) are
// sharded. Each argument must point to a variable of the interface type, so
// Prepare can store the wrapper there; Prepare panics with an explanation
// otherwise.
//
// In a restarted group, or a launch with --resume, Prepare then loads the
// latest automatic checkpoint (ProjectDir/checkpoints, the working
// directory's without a ProjectDir) into everything prepared so far, and
// the loaders continue mid-epoch where it was saved (see Resumed).
func (a *Accelerator) Prepare(objs ...any) {
	for i, o := range objs {
		switch v := o.(type) {
		case *transformers.Model:
			if *v == nil {
				panic(fmt.Sprintf("accelerate: Prepare: argument %d points to a nil transformers.Model", i))
			}
			*v = a.preparePretrained(*v)
		case *nn.Module:
			if *v == nil {
				panic(fmt.Sprintf("accelerate: Prepare: argument %d points to a nil nn.Module", i))
			}
			*v = a.prepareModel(*v)
		case *optim.Optimizer:
			if *v == nil {
				panic(fmt.Sprintf("accelerate: Prepare: argument %d points to a nil optim.Optimizer", i))
			}
			*v = a.prepareOptimizer(*v)
		case *optim.Scheduler:
			if *v == nil {
				panic(fmt.Sprintf("accelerate: Prepare: argument %d points to a nil optim.Scheduler", i))
			}
			*v = a.prepareScheduler(*v)
		case **data.Loader:
			if *v == nil {
				panic(fmt.Sprintf("accelerate: Prepare: argument %d points to a nil *data.Loader", i))
			}
			a.prepareLoader(*v)
		case *data.Loader:
			a.prepareLoader(v)
		default:
			panic(prepareHint(i, o))
		}
	}
	a.resumeOnPrepare()
	a.worker.SetPhase(workerinfo.PhaseComputing)
}

// prepareHint explains what to pass instead of o.
func prepareHint(i int, o any) string {
	t := reflect.TypeOf(o)
	pre := reflect.TypeOf((*transformers.Model)(nil)).Elem()
	mod := reflect.TypeOf((*nn.Module)(nil)).Elem()
	opt := reflect.TypeOf((*optim.Optimizer)(nil)).Elem()
	sch := reflect.TypeOf((*optim.Scheduler)(nil)).Elem()
	kinds := []struct {
		iface reflect.Type
		decl  string
	}{{pre, "var model transformers.Model = …"}, {mod, "var model nn.Module = …"}, {opt, "var opt optim.Optimizer = …"}, {sch, "var sched optim.Scheduler = …"}}
	for _, c := range kinds {
		if t != nil && t.Implements(c.iface) {
			return fmt.Sprintf("accelerate: Prepare: argument %d is a %v value; pass a pointer to the variable holding it, declared with the interface type (%s; acc.Prepare(&model, …))", i, t, c.decl)
		}
	}
	if t == nil || t.Kind() != reflect.Pointer {
		return fmt.Sprintf("accelerate: Prepare: argument %d is %v; pass a pointer to the variable (&model, &opt, &loader, &sched)", i, t)
	}
	e := t.Elem()
	for _, c := range kinds {
		if e.Implements(c.iface) {
			return fmt.Sprintf("accelerate: Prepare: argument %d points to a %v, a concrete type, so Prepare cannot store the prepared %v in it; declare the variable with the interface type (%s) and pass its address", i, e, c.iface, c.decl)
		}
	}
	if e.Kind() == reflect.Pointer && e.Elem().Kind() == reflect.Struct {
		// A notebook cell's `m := &MyNet{}` arrives as **struct{…}: the
		// interpreter's type has no methods the compiled side can see.
		return fmt.Sprintf("accelerate: Prepare: argument %d points to a %v variable, a concrete type, so Prepare cannot store the prepared object in it; declare the variable with the interface type (var model nn.Module = &MyNet{…}, var opt optim.Optimizer = …) and pass its address", i, e)
	}
	return fmt.Sprintf("accelerate: Prepare: argument %d has type %v; Prepare takes pointers to nn.Module, transformers.Model, optim.Optimizer, optim.Scheduler or *data.Loader variables", i, t)
}

func (a *Accelerator) prepareOptimizer(o optim.Optimizer) optim.Optimizer {
	if w, ok := o.(*optimizer); ok {
		return w
	}
	w := &optimizer{inner: o, acc: a}
	a.optimizers = append(a.optimizers, w)
	return w
}

func (a *Accelerator) prepareScheduler(s optim.Scheduler) optim.Scheduler {
	if w, ok := s.(*scheduler); ok {
		return w
	}
	w := &scheduler{inner: s, acc: a}
	a.schedulers = append(a.schedulers, w)
	return w
}
