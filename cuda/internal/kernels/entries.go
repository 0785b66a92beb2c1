package kernels

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Param is one kernel parameter as the PTX declares it: its type (u32, u64, f32, f64, or b8
// for a struct passed by value), its size in bytes and its alignment.
type Param struct {
	Type  string
	Size  int
	Align int
}

// Entry is one kernel of the module: its entry name and parameters in order.
type Entry struct {
	Name   string
	Params []Param
}

var (
	entryRE = regexp.MustCompile(`\.entry\s+(\w+)\s*\(([^)]*)\)`)
	paramRE = regexp.MustCompile(`^\.param\s+(?:\.align\s+(\d+)\s+)?\.(\w+)(?:\s+\.ptr(?:\s+\.\w+)*(?:\s+\.align\s+\d+)?)?\s+\w+(?:\[(\d+)\])?$`)
)

// Entries returns the kernels of the embedded PTX.
func Entries() ([]Entry, error) { return ParseEntries(string(PTX)) }

// ParseEntries reads the .entry declarations of a PTX module and their .param lists.
func ParseEntries(ptx string) ([]Entry, error) {
	var out []Entry
	for _, m := range entryRE.FindAllStringSubmatch(ptx, -1) {
		e := Entry{Name: m[1]}
		for _, p := range strings.Split(m[2], ",") {
			p = strings.Join(strings.Fields(p), " ")
			if p == "" {
				continue
			}
			pm := paramRE.FindStringSubmatch(p)
			if pm == nil {
				return nil, fmt.Errorf("kernel %s: cannot read parameter %q", e.Name, p)
			}
			size, err := typeSize(pm[2])
			if err != nil {
				return nil, fmt.Errorf("kernel %s: %w", e.Name, err)
			}
			align := size
			if pm[1] != "" {
				align, _ = strconv.Atoi(pm[1])
			}
			if pm[3] != "" {
				n, _ := strconv.Atoi(pm[3])
				size *= n
			}
			e.Params = append(e.Params, Param{Type: pm[2], Size: size, Align: align})
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no .entry in the PTX")
	}
	return out, nil
}

// typeSize is the width of a PTX fundamental type (u64, f32, b8, …).
func typeSize(t string) (int, error) {
	if len(t) >= 2 && strings.ContainsRune("busf", rune(t[0])) {
		switch t[1:] {
		case "8":
			return 1, nil
		case "16":
			return 2, nil
		case "32":
			return 4, nil
		case "64":
			return 8, nil
		}
	}
	return 0, fmt.Errorf("unknown PTX type .%s", t)
}
