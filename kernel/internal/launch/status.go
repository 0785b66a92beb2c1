package launch

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"html"
	"strings"

	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/kernel/internal/program"
	"github.com/goaccel/goaccel/notebook_launcher/workers"
)

// statusTable is the launch's live table of ranks in the launching cell:
// one display, updated in place (update_display_data of its display_id)
// each time the launcher's status changes, a few times a second at most.
type statusTable struct {
	sink   host.Display
	id     string
	shown  bool
	places workers.Places
}

func newStatusTable(sink host.Display, places workers.Places) *statusTable {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return &statusTable{sink: sink, id: "goaccel-launch-status-" + hex.EncodeToString(b[:]), places: places}
}

// show displays g, replacing what the table showed before.
func (t *statusTable) show(g workers.GroupStatus) {
	if len(g.Ranks) == 0 {
		return
	}
	content := map[string]any{
		"data":      map[string]any{"text/html": t.html(g), "text/plain": g.Text()},
		"metadata":  map[string]any{},
		"transient": map[string]any{"display_id": t.id},
	}
	kind := "update_display_data"
	if !t.shown {
		kind, t.shown = "display_data", true
	}
	t.sink.Send(kind, content)
}

func (t *statusTable) html(g workers.GroupStatus) string {
	var b strings.Builder
	b.WriteString(`<table class="goaccel-launch-status" style="font-size:85%;border-collapse:collapse">`)
	b.WriteString(`<tr style="text-align:left"><th>rank</th><th style="text-align:right">step</th><th style="text-align:right">samples/s</th><th>doing</th><th>where</th><th style="text-align:right">memory</th></tr>`)
	for _, r := range g.Ranks {
		where := ""
		if r.Exited == "" {
			where = t.places.At(r.Line)
		}
		fmt.Fprintf(&b, `<tr><td>%d</td><td style="text-align:right">%d</td><td style="text-align:right">%.0f</td><td>%s</td><td>%s</td><td style="text-align:right">%s</td></tr>`,
			r.Rank, r.Step, r.SamplesPerSec, html.EscapeString(r.Doing()), html.EscapeString(where), workers.Bytes(r.RSS))
	}
	b.WriteString(`</table>`)
	var notes []string
	if g.Restart > 0 {
		notes = append(notes, fmt.Sprintf("restart %d", g.Restart))
	}
	switch {
	case g.Stopping == workers.NoStop:
	case g.Ended():
		notes = append(notes, g.StopNote())
	case g.Stopping == workers.StopSave:
		notes = append(notes, g.StopNote()+" (interrupt again to stop them at once)")
	default:
		notes = append(notes, g.StopNote()+" (interrupt to save and stop instead)")
	}
	if len(notes) > 0 {
		fmt.Fprintf(&b, `<div style="font-size:85%%">%s</div>`, html.EscapeString(strings.Join(notes, " · ")))
	}
	return b.String()
}

// placesOf maps a worker program's lines and stack positions to cells.
func placesOf(p *program.Program) workers.Places {
	return workers.Places{
		Line: func(line int) string {
			o, ok := p.Map.Lookup(line, 0)
			if !ok {
				return ""
			}
			return fmt.Sprintf("%s: %s", o, strings.TrimSpace(p.Line(line)))
		},
		Translate: p.Map.Translate,
	}
}
