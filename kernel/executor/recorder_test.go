package executor

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/goaccel/goaccel/internal/comm"
)

// recorder collects what the supervisor hands on, in order.
type recorder struct {
	mu     sync.Mutex
	events []string
	times  []time.Time
}

func (r *recorder) output(stream, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, stream+":"+text)
	r.times = append(r.times, time.Now())
}

func (r *recorder) display(msgType string, content map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "display:"+msgType)
	r.times = append(r.times, time.Now())
}

func (r *recorder) comm(m comm.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, fmt.Sprintf("comm:%s:%v:parent=%s", m.Type, m.Data, m.Parent))
	r.times = append(r.times, time.Now())
}

// stream returns everything emitted on one stream, concatenated.
func (r *recorder) stream(name string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, e := range r.events {
		if t, ok := strings.CutPrefix(e, name+":"); ok {
			b.WriteString(t)
		}
	}
	return b.String()
}

func (r *recorder) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.events...)
}

func (r *recorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events, r.times = nil, nil
}
