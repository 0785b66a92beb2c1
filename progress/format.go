package progress

import (
	"fmt"
	"html"
	"math"
	"strings"
	"time"
)

// barWidth is the number of cells of a text bar.
const barWidth = 20

// blocks are the eighths of a text bar's partly filled cell.
var blocks = []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// line is the bar as tqdm writes it:
//
//	train:  45%|█████████           | 210/469 [00:01<00:01, 160.25it/s, loss=0.31]
//	train: 210it [00:01, 160.25it/s, loss=0.31]   (no total)
func (b *Bar) line(now time.Time) string {
	var sb strings.Builder
	if b.opts.Desc != "" {
		sb.WriteString(b.opts.Desc + ": ")
	}
	el := b.elapsed(now)
	stats := b.stats(el)
	if b.opts.Total > 0 {
		frac := math.Min(1, float64(b.n)/float64(b.opts.Total))
		fmt.Fprintf(&sb, "%3d%%|%s| %d/%d %s", int(100*frac), textBar(frac), b.n, b.opts.Total, stats)
	} else {
		fmt.Fprintf(&sb, "%d%s %s", b.n, b.unit(), stats)
	}
	return sb.String()
}

// stats is the bracketed part: elapsed, time left, rate and postfix.
func (b *Bar) stats(el time.Duration) string {
	parts := []string{hms(el)}
	if b.opts.Total > 0 {
		left := "?"
		if b.n > 0 && el > 0 {
			left = hms(time.Duration(float64(el) * float64(max(b.opts.Total-b.n, 0)) / float64(b.n)))
		}
		parts[0] += "<" + left
	}
	parts = append(parts, b.rate(el))
	for _, p := range b.post {
		parts = append(parts, p.String())
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// rate is items per second, or seconds per item when slower than one a second.
func (b *Bar) rate(el time.Duration) string {
	if b.n == 0 || el <= 0 {
		return "?" + b.unit() + "/s"
	}
	r := float64(b.n) / el.Seconds()
	if r < 1 {
		return fmt.Sprintf("%.2fs/%s", 1/r, b.unit())
	}
	return fmt.Sprintf("%.2f%s/s", r, b.unit())
}

// short is how a parent shows beside its nested bar: "epoch 2/3".
func (b *Bar) short() string {
	cur := b.n
	if b.started && !b.closed {
		cur++ // the item in progress
	}
	if b.opts.Total > 0 {
		return fmt.Sprintf("%s %d/%d", b.opts.Desc, min(cur, b.opts.Total), b.opts.Total)
	}
	return fmt.Sprintf("%s %d", b.opts.Desc, cur)
}

// textBar is frac of barWidth cells filled with blocks.
func textBar(frac float64) string {
	eighths := int(frac * barWidth * 8)
	full, part := eighths/8, eighths%8
	s := strings.Repeat("█", full) + blocks[part]
	pad := barWidth - full
	if part > 0 {
		pad--
	}
	return s + strings.Repeat(" ", max(pad, 0))
}

// hms formats a duration as tqdm does: 01:05, or 1:02:03 from an hour.
func hms(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%02d:%02d", s/60, s%60)
}

// htmlBar is the bar under a notebook cell: a <progress> element with the
// label before it and the counts after it. A finished bar turns green; one
// closed before its total, red (tqdm's colours).
func (b *Bar) htmlBar(now time.Time) string {
	colour := "#1f77b4"
	switch {
	case b.closed && (b.opts.Total == 0 || b.n >= b.opts.Total):
		colour = "#2ca02c"
	case b.closed:
		colour = "#d62728"
	}
	value := ""
	if b.opts.Total > 0 {
		value = fmt.Sprintf(` value="%d" max="%d"`, min(b.n, b.opts.Total), b.opts.Total)
	} else if b.closed {
		value = ` value="1" max="1"`
	}
	el := b.elapsed(now)
	counts := fmt.Sprintf("%d%s", b.n, b.unit())
	if b.opts.Total > 0 {
		counts = fmt.Sprintf("%3d%% %d/%d", int(100*math.Min(1, float64(b.n)/float64(b.opts.Total))), b.n, b.opts.Total)
	}
	return fmt.Sprintf(`<div class="goaccel-progress" style="display:flex;align-items:center;gap:0.6em;font-family:monospace;font-size:12px;white-space:pre">`+
		`<span>%s</span><progress%s style="width:24em;height:1.1em;accent-color:%s"></progress><span>%s %s</span></div>`,
		html.EscapeString(b.opts.Desc), value, colour, html.EscapeString(counts), html.EscapeString(b.stats(el)))
}
