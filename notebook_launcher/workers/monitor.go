package workers

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/goaccel/goaccel/internal/workerinfo"
)

// DefaultStallThreshold is how long a collective may wait before the
// launcher reports the ranks that have not joined it.
const DefaultStallThreshold = time.Minute

// RankStatus is what the launcher knows of one of its ranks.
type RankStatus struct {
	workerinfo.Status
	// SamplesPerSec is the rate of samples over the last few reports.
	SamplesPerSec float64
	// Waited is how long the collective in progress has run, now.
	Waited time.Duration
	// Exited is how the worker ended ("" while it runs).
	Exited string
	// Reported says the worker has sent a status at all.
	Reported bool
}

// Doing says what the rank is doing, as the status table shows it:
// "all-reduce(Sum) #57 for 3.2 s", "loading data", "exited (signal: killed)".
func (r RankStatus) Doing() string {
	switch {
	case r.Exited != "":
		return "exited (" + r.Exited + ")"
	case !r.Reported:
		return "starting"
	case r.Collective != "":
		return fmt.Sprintf("%s #%d for %s", r.Collective, r.Seq, seconds(r.Waited))
	}
	return r.Phase
}

// seconds writes d as "0.4 s", "12 s" or "3 min 5 s".
func seconds(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%.0f s", d.Seconds())
	}
	return fmt.Sprintf("%d min %d s", int(d.Minutes()), int(d.Seconds())%60)
}

// GroupStatus is the launcher's view of its ranks at one moment.
type GroupStatus struct {
	// Restart counts the restarts so far (0 for the first group).
	Restart int
	// Ranks are this launcher's ranks, in rank order.
	Ranks []RankStatus
	// Stopping is the stop requested (workerinfo.NoStop: none): the
	// workers save and leave (StopSave), or end their training pass
	// (StopFinish), at the next step boundary they agree on.
	Stopping StopMode
}

// Stall reports a collective that waited longer than the threshold.
type Stall struct {
	Collective string
	Seq        int64
	Waited     time.Duration
	Threshold  time.Duration
	// Waiting are the ranks in the collective; Missing those of this
	// launcher that are not, each with its goroutine stacks (Stacks) when
	// it answered in time; Elsewhere counts the ranks on other nodes,
	// which their own launchers report.
	Waiting   []int
	Missing   []RankStatus
	Elsewhere int
}

// monitor follows the status pipes of a launch's workers: it keeps each
// rank's last status, hands snapshots to the launcher's display and
// reports collectives that some ranks never joined.
type monitor struct {
	threshold time.Duration
	onStatus  func(GroupStatus)
	onStall   func(Stall)
	world     int // ranks in the job, on every node

	readers sync.WaitGroup // the status pipes' readers of the group running

	mu       sync.Mutex
	restart  int
	ranks    []*rankState // by local index
	changed  bool
	stopping StopMode       // the stop requested, for workers that attach later too
	reported map[int64]bool // stalls already reported, by collective number
	lastCkpt workerinfo.Status
}

type rankState struct {
	rank     int
	st       workerinfo.Status
	reported bool
	at       time.Time // when st came
	exited   string
	control  *controlPipe
	stacks   chan string // answers to a stacks request
	// samples/s: the samples and time of a report about a second old
	rateFrom  int64
	rateAt    time.Time
	rate      float64
	stoppedAt string // the checkpoint it saved on a stop request
}

func newMonitor(c Config) *monitor {
	m := &monitor{threshold: c.StallThreshold, onStatus: c.Status, onStall: c.Stall, world: c.NumProcesses * c.NumNodes}
	if m.threshold == 0 {
		m.threshold = DefaultStallThreshold
	}
	return m
}

// begin starts following a new group (the first, or a restarted one) of n
// local workers whose global ranks rank(i) gives.
func (m *monitor) begin(restart, n int, rank func(int) int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.restart, m.changed = restart, true
	m.reported = map[int64]bool{}
	m.ranks = make([]*rankState, n)
	for i := range m.ranks {
		m.ranks[i] = &rankState{rank: rank(i), stacks: make(chan string, 1)}
	}
}

// attach is GroupSpec.Pipes: it reads worker local's status lines until
// the worker and its children closed the pipe, and writes the messages for
// the worker to its control pipe (a stop requested before it started
// first).
func (m *monitor) attach(local int, status io.ReadCloser, control io.Writer) {
	m.mu.Lock()
	r := m.ranks[local]
	r.control = newControlPipe(control)
	if m.stopping != workerinfo.NoStop {
		r.control.send(stopMessage(m.stopping))
	}
	m.mu.Unlock()
	m.readers.Add(1)
	go func() {
		defer m.readers.Done()
		defer status.Close()
		sc := bufio.NewScanner(status)
		sc.Buffer(make([]byte, 64<<10), 32<<20) // stacks can be long
		for sc.Scan() {
			var st workerinfo.Status
			if json.Unmarshal(sc.Bytes(), &st) != nil {
				continue
			}
			m.update(r, st)
		}
	}()
}

func (m *monitor) update(r *rankState, st workerinfo.Status) {
	now := time.Now()
	if st.Stacks != "" {
		select {
		case r.stacks <- st.Stacks:
		default:
		}
		st.Stacks = ""
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if r.rateAt.IsZero() || st.Samples < r.rateFrom {
		r.rateFrom, r.rateAt = st.Samples, now
	} else if dt := now.Sub(r.rateAt); dt >= time.Second {
		r.rate = float64(st.Samples-r.rateFrom) / dt.Seconds()
		r.rateFrom, r.rateAt = st.Samples, now
	}
	r.st, r.at, r.reported = st, now, true
	if st.Stopped {
		r.stoppedAt = st.Checkpoint
	}
	if st.Checkpoint != "" && (!st.Resumed || m.lastCkpt.Checkpoint == "") {
		m.lastCkpt = st
	}
	m.changed = true
}

// drain waits, at most d, until every status line the workers wrote has
// been read (a process the worker started may hold the pipe open).
func (m *monitor) drain(d time.Duration) {
	read := make(chan struct{})
	go func() {
		m.readers.Wait()
		close(read)
	}()
	select {
	case <-read:
	case <-time.After(d):
	}
}

// exited records how worker local ended.
func (m *monitor) exited(local int, how string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if local < len(m.ranks) {
		r := m.ranks[local]
		r.exited = how
		if r.control != nil {
			r.control.close()
		}
		m.changed = true
	}
}

// snapshot is the group's status now.
func (m *monitor) snapshot() GroupStatus {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.snapshotLocked(time.Now())
}

func (m *monitor) snapshotLocked(now time.Time) GroupStatus {
	g := GroupStatus{Restart: m.restart, Stopping: m.stopping}
	for _, r := range m.ranks {
		rs := RankStatus{Status: r.st, SamplesPerSec: r.rate, Exited: r.exited, Reported: r.reported}
		rs.Rank = r.rank
		if r.st.Collective != "" {
			rs.Waited = time.Duration(r.st.WaitedMS)*time.Millisecond + now.Sub(r.at)
		}
		g.Ranks = append(g.Ranks, rs)
	}
	return g
}

// stoppable reports whether every worker can stop at a step boundary.
func (m *monitor) stoppable() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	running := 0
	for _, r := range m.ranks {
		if r.exited != "" {
			continue
		}
		if !r.st.Stoppable || r.control == nil {
			return false
		}
		running++
	}
	return running > 0 // between a failure and its restart, none runs
}

// requestStop asks every worker to stop in mode at its next step
// boundary, and those that start later (a mode asked before is not
// lessened).
func (m *monitor) requestStop(mode StopMode) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stopping, m.changed = max(m.stopping, mode), true
	m.request(m.ranks, stopMessage(m.stopping))
}

func stopMessage(mode StopMode) []byte {
	return workerinfo.ControlMessage{Type: workerinfo.ControlStop, Mode: mode}.Encode()
}

// request queues payload on the ranks' control pipes (m.mu held: sending
// never blocks, a worker that does not read drops what overflows).
func (m *monitor) request(ranks []*rankState, payload []byte) {
	for _, r := range ranks {
		if r.control != nil {
			r.control.send(payload)
		}
	}
}

// send queues payload for the worker of global rank; false when none of
// this launcher's workers has that rank or it cannot take it.
func (m *monitor) send(rank int, payload []byte) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.ranks {
		if r.rank == rank && r.control != nil && r.exited == "" {
			return r.control.send(payload)
		}
	}
	return false
}

// stoppedAt returns the checkpoint the workers saved on a stop request, or
// "" when none stopped so.
func (m *monitor) stoppedAt() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.ranks {
		if r.stoppedAt != "" {
			return r.stoppedAt
		}
	}
	return ""
}

// lastCheckpoint is the status that named the latest checkpoint a worker
// saved (or resumed from, when none was saved since).
func (m *monitor) lastCheckpoint() (dir string, step int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.lastCkpt.Checkpoint, m.lastCkpt.CheckpointStep
}

// watch hands a snapshot to onStatus whenever something changed, a few
// times a second at most, and looks for stalls, until done closes.
func (m *monitor) watch(done <-chan struct{}) {
	t := time.NewTicker(workerinfo.ReportEvery)
	defer t.Stop()
	for {
		select {
		case <-done:
			if m.onStatus != nil {
				m.onStatus(m.snapshot())
			}
			return
		case <-t.C:
		}
		m.mu.Lock()
		now := time.Now()
		var g GroupStatus
		send := m.onStatus != nil && (m.changed || m.inCollective())
		if send {
			g = m.snapshotLocked(now)
			m.changed = false
		}
		stall, ask := m.findStall(now)
		m.mu.Unlock()
		if send {
			m.onStatus(g)
		}
		if stall != nil {
			go m.report(*stall, ask)
		}
	}
}

// inCollective reports whether a rank waits in a collective (its table
// row changes as the wait grows).
func (m *monitor) inCollective() bool {
	for _, r := range m.ranks {
		if r.exited == "" && r.st.Collective != "" {
			return true
		}
	}
	return false
}

// findStall returns the oldest collective that has waited longer than the
// threshold and was not reported yet, with the ranks to ask for stacks.
func (m *monitor) findStall(now time.Time) (*Stall, []*rankState) {
	if m.threshold < 0 {
		return nil, nil
	}
	var s *Stall
	for _, r := range m.ranks {
		if r.exited != "" || r.st.Collective == "" || m.reported[r.st.Seq] {
			continue
		}
		waited := time.Duration(r.st.WaitedMS)*time.Millisecond + now.Sub(r.at)
		if waited < m.threshold || s != nil && r.st.Seq >= s.Seq {
			continue
		}
		s = &Stall{Collective: r.st.Collective, Seq: r.st.Seq, Waited: waited, Threshold: m.threshold}
	}
	if s == nil {
		return nil, nil
	}
	m.reported[s.Seq] = true
	var ask []*rankState
	for _, r := range m.ranks {
		if r.exited == "" && r.st.Collective == s.Collective && r.st.Seq == s.Seq {
			s.Waiting = append(s.Waiting, r.rank)
			s.Waited = max(s.Waited, time.Duration(r.st.WaitedMS)*time.Millisecond+now.Sub(r.at))
			continue
		}
		ask = append(ask, r)
	}
	s.Elsewhere = m.world - len(m.ranks)
	return s, ask
}

// report asks the missing ranks for their stacks, waits a moment for the
// answers, and hands the stall to onStall.
func (m *monitor) report(s Stall, missing []*rankState) {
	for _, r := range missing {
		select {
		case <-r.stacks: // an answer to an earlier request
		default:
		}
	}
	m.mu.Lock()
	m.request(missing, workerinfo.ControlMessage{Type: workerinfo.ControlStacks}.Encode())
	m.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	for _, r := range missing {
		var stacks string
		select {
		case stacks = <-r.stacks:
		case <-ctx.Done():
		}
		m.mu.Lock()
		rs := RankStatus{Status: r.st, SamplesPerSec: r.rate, Exited: r.exited, Reported: r.reported}
		rs.Rank = r.rank
		m.mu.Unlock()
		rs.Stacks = stacks
		s.Missing = append(s.Missing, rs)
	}
	slices.SortFunc(s.Missing, func(a, b RankStatus) int { return a.Rank - b.Rank })
	if m.onStall != nil {
		m.onStall(s)
	}
}
