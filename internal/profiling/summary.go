package profiling

import (
	"sort"
	"time"
)

// Row is one name's events summed (torch.profiler's key_averages).
type Row struct {
	Name, Cat string
	Calls     int
	Total     time.Duration // their durations, nested events included
	Self      time.Duration // less the events nested in them
}

// Summary sums the finished events by category and name, largest self time first.
func (r *Recorder) Summary() []Row {
	events, _ := r.Events()
	byName := map[[2]string]*Row{}
	var rows []*Row
	for _, e := range events {
		k := [2]string{e.Cat, e.Name}
		row := byName[k]
		if row == nil {
			row = &Row{Name: e.Name, Cat: e.Cat}
			byName[k] = row
			rows = append(rows, row)
		}
		row.Calls++
		row.Total += e.Dur
		row.Self += e.Self
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Self > rows[j].Self })
	out := make([]Row, len(rows))
	for i, r := range rows {
		out[i] = *r
	}
	return out
}
