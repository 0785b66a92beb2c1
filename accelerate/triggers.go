package accelerate

// SetTrigger raises this process's trigger, for a later CheckTrigger on every process to see
// (Accelerate's set_trigger): one process that finds a NaN loss, say, stops them all. It
// needs no WaitForEveryone.
func (a *Accelerator) SetTrigger() { a.trigger = true }

// CheckTrigger reports whether any process raised its trigger since the last CheckTrigger,
// and lowers every trigger when one was (Accelerate's check_trigger). It is a collective:
// every process calls it at the same point of the loop.
//
//	if math.IsNaN(loss.Item()) {
//		acc.SetTrigger()
//	}
//	if acc.CheckTrigger() {
//		break
//	}
func (a *Accelerator) CheckTrigger() bool {
	flag := []float32{0}
	if a.trigger {
		flag[0] = 1
	}
	if a.c.Size() > 1 {
		must(a.c.AllReduce(flag, "max"), "CheckTrigger")
	}
	if flag[0] >= 1 {
		a.trigger = false
		return true
	}
	return false
}
