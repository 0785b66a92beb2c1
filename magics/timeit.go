package magics

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// timeitMagic is %timeit STMT and %%timeit [SETUP] (IPython's): it runs the
// code in a loop, n times per run, r runs (default 7), and prints the mean
// and standard deviation of one loop's time. Without -n it picks n as
// IPython does: the first of 1, 2, 5, 10, 20, 50, ... whose run takes at
// least 0.2 s.
func timeitMagic(ctx context.Context, c Call, env Env) (Output, error) {
	t, ok := env.(Timer)
	if !ok {
		return Output{}, errors.New("%timeit: this session cannot time code")
	}
	opts, rest, err := timeitOptions(c.Args)
	if err != nil {
		return Output{}, err
	}
	code := TimedCode{Stmt: rest, Line: c.Line, Shown: strings.Repeat("\n", c.Line-1) + "%timeit " + c.Args}
	if c.Cell {
		code = TimedCode{Setup: rest, Stmt: c.Body, Line: c.Line + 1, Shown: strings.Repeat("\n", c.Line-1) + "%%timeit " + c.Args + "\n" + c.Body}
	}
	if strings.TrimSpace(code.Stmt) == "" {
		return Output{}, errors.New("%timeit needs Go code to time, e.g. %timeit strings.Repeat(\"a\", 100)")
	}
	run := func(n int) (time.Duration, any) { return t.TimeGo(ctx, code, n) }
	number := opts.number
	if number == 0 {
		for n := 1; ; {
			d, failure := run(n)
			if failure != nil {
				return Output{Result: failure}, nil
			}
			number = n
			if d >= 200*time.Millisecond || n >= 1e9 {
				break
			}
			n = nextLoopCount(n)
		}
	}
	timings := make([]float64, 0, opts.repeat)
	for range opts.repeat {
		d, failure := run(number)
		if failure != nil {
			return Output{Result: failure}, nil
		}
		timings = append(timings, d.Seconds()/float64(number))
	}
	fmt.Fprintln(env.Stdout(), timeitReport(timings, number))
	return Output{}, nil
}

// nextLoopCount steps through 1, 2, 5, 10, 20, 50, ...
func nextLoopCount(n int) int {
	switch first := n / int(math.Pow10(int(math.Log10(float64(n))))); first {
	case 1:
		return n * 2
	case 2:
		return n / 2 * 5
	}
	return n * 2
}

type timeitOpts struct{ number, repeat int }

// timeitOptions reads -n N and -r R from the front of args.
func timeitOptions(args string) (timeitOpts, string, error) {
	o := timeitOpts{repeat: 7}
	rest := strings.TrimSpace(args)
	for {
		flag, after, _ := strings.Cut(rest, " ")
		if flag != "-n" && flag != "-r" {
			return o, rest, nil
		}
		value, tail, _ := strings.Cut(strings.TrimSpace(after), " ")
		v, err := strconv.Atoi(value)
		if err != nil || v < 1 {
			return o, "", fmt.Errorf("%%timeit: %s needs a positive number, e.g. %%timeit %s 100 f()", flag, flag)
		}
		if flag == "-n" {
			o.number = v
		} else {
			o.repeat = v
		}
		rest = strings.TrimSpace(tail)
	}
}

// timeitReport is IPython's line: "12.3 µs ± 456 ns per loop (mean ± std.
// dev. of 7 runs, 10,000 loops each)", with its warning when the slowest run
// took much longer than the fastest.
func timeitReport(timings []float64, number int) string {
	mean, worst, best := 0.0, timings[0], timings[0]
	for _, t := range timings {
		mean += t
		worst, best = max(worst, t), min(best, t)
	}
	mean /= float64(len(timings))
	variance := 0.0
	for _, t := range timings {
		variance += (t - mean) * (t - mean)
	}
	std := math.Sqrt(variance / float64(len(timings)))
	if std < 1e-15 {
		std = 0 // rounding noise of equal timings, not a femtosecond spread
	}
	runs, loops := "runs", "loops"
	if len(timings) == 1 {
		runs = "run"
	}
	if number == 1 {
		loops = "loop"
	}
	var b strings.Builder
	if worst > 4*best && best > 0 && worst > 1e-6 {
		fmt.Fprintf(&b, "The slowest run took %.2f times longer than the fastest. This could mean that an intermediate result is being cached.\n", worst/best)
	}
	fmt.Fprintf(&b, "%s ± %s per loop (mean ± std. dev. of %d %s, %s %s each)", formatSeconds(mean), formatSeconds(std), len(timings), runs, thousands(number), loops)
	return b.String()
}

// formatSeconds writes a duration with 3 significant digits in s, ms, µs or ns.
func formatSeconds(s float64) string {
	units := []string{"s", "ms", "µs", "ns"}
	order := 3
	if s > 0 {
		order = min(max(-int(math.Floor(math.Floor(math.Log10(s))/3)), 0), 3)
	}
	return fmt.Sprintf("%.3g %s", s*math.Pow(1000, float64(order)), units[order])
}

// thousands writes n with comma separators (10,000).
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
