package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/goaccel/goaccel/tokenizers/internal/encoding"
	"github.com/goaccel/goaccel/tokenizers/internal/spec"
)

// Strategy says which sequence of a pair truncation shortens.
type Strategy int

// The truncation strategies of tokenizers.
const (
	LongestFirst Strategy = iota
	OnlyFirst
	OnlySecond
)

// ParseStrategy reads longest_first, only_first or only_second.
func ParseStrategy(s string) (Strategy, error) {
	switch s {
	case "longest_first", "LongestFirst", "":
		return LongestFirst, nil
	case "only_first", "OnlyFirst":
		return OnlyFirst, nil
	case "only_second", "OnlySecond":
		return OnlySecond, nil
	}
	return 0, fmt.Errorf("unknown truncation strategy %q (want longest_first, only_first or only_second)", s)
}

// Truncation is tokenizers' TruncationParams.
type Truncation struct {
	MaxLength, Stride int
	Strategy          Strategy
	Direction         encoding.Direction
}

// Padding is tokenizers' PaddingParams: to Length when Fixed, else to the
// longest of the batch.
type Padding struct {
	Fixed                   bool
	Length, PadToMultipleOf int
	Direction               encoding.Direction
	PadID, PadTypeID        int
	PadToken                string
}

// ErrSecondSequenceNotProvided and ErrSequenceTooShort are tokenizers'
// truncation errors.
var (
	ErrSecondSequenceNotProvided = errors.New("truncation error: second sequence not provided")
	ErrSequenceTooShort          = errors.New("truncation error: sequence to truncate too short to respect the provided max_length")
)

func truncateEncodings(e, pair *encoding.Encoding, p *Truncation) error {
	if p.MaxLength == 0 {
		if err := e.Truncate(0, p.Stride, p.Direction); err != nil {
			return err
		}
		if pair != nil {
			return pair.Truncate(0, p.Stride, p.Direction)
		}
		return nil
	}
	total := e.Len()
	if pair != nil {
		total += pair.Len()
	}
	if total <= p.MaxLength {
		return nil
	}
	remove := total - p.MaxLength
	switch p.Strategy {
	case LongestFirst:
		if pair == nil {
			return e.Truncate(total-remove, p.Stride, p.Direction)
		}
		n1, n2 := e.Len(), pair.Len()
		swap := n1 > n2
		if swap {
			n1, n2 = n2, n1
		}
		if n1 > p.MaxLength {
			n2 = n1
		} else {
			n2 = max(n1, p.MaxLength-n1)
		}
		if n1+n2 > p.MaxLength {
			n1 = p.MaxLength / 2
			n2 = n1 + p.MaxLength%2
		}
		if swap {
			n1, n2 = n2, n1
		}
		if err := e.Truncate(n1, p.Stride, p.Direction); err != nil {
			return err
		}
		return pair.Truncate(n2, p.Stride, p.Direction)
	default:
		target := e
		if p.Strategy == OnlySecond {
			if pair == nil {
				return ErrSecondSequenceNotProvided
			}
			target = pair
		}
		if target.Len() > remove {
			return target.Truncate(target.Len()-remove, p.Stride, p.Direction)
		}
		return ErrSequenceTooShort
	}
}

// PadEncodings pads every encoding to the same length.
func PadEncodings(encs []*encoding.Encoding, p *Padding) error {
	if len(encs) == 0 {
		return nil
	}
	n := p.Length
	if !p.Fixed {
		for _, e := range encs {
			n = max(n, e.Len())
		}
	}
	if m := p.PadToMultipleOf; m > 0 && n%m > 0 {
		n += m - n%m
	}
	for _, e := range encs {
		e.Pad(n, p.PadID, p.PadTypeID, p.PadToken, p.Direction)
	}
	return nil
}

func parseTruncation(raw json.RawMessage) (*Truncation, error) {
	if spec.IsNull(raw) {
		return nil, nil
	}
	var j struct {
		Direction string `json:"direction"`
		MaxLength *int   `json:"max_length"`
		Strategy  string `json:"strategy"`
		Stride    int    `json:"stride"`
	}
	if err := json.Unmarshal(raw, &j); err != nil {
		return nil, fmt.Errorf("truncation: %w", err)
	}
	if j.MaxLength == nil {
		return nil, fmt.Errorf("truncation: missing field \"max_length\"")
	}
	t := &Truncation{MaxLength: *j.MaxLength, Stride: j.Stride}
	var err error
	if t.Strategy, err = ParseStrategy(j.Strategy); err != nil {
		return nil, fmt.Errorf("truncation: %w", err)
	}
	if t.Direction, err = encoding.ParseDirection(j.Direction); err != nil {
		return nil, fmt.Errorf("truncation: %w", err)
	}
	return t, nil
}

func parsePadding(raw json.RawMessage) (*Padding, error) {
	if spec.IsNull(raw) {
		return nil, nil
	}
	var j struct {
		Strategy        json.RawMessage `json:"strategy"`
		Direction       string          `json:"direction"`
		PadToMultipleOf *int            `json:"pad_to_multiple_of"`
		PadID           int             `json:"pad_id"`
		PadTypeID       int             `json:"pad_type_id"`
		PadToken        string          `json:"pad_token"`
	}
	if err := json.Unmarshal(raw, &j); err != nil {
		return nil, fmt.Errorf("padding: %w", err)
	}
	p := &Padding{PadID: j.PadID, PadTypeID: j.PadTypeID, PadToken: j.PadToken}
	if j.PadToMultipleOf != nil {
		p.PadToMultipleOf = *j.PadToMultipleOf
	}
	var name string
	if json.Unmarshal(j.Strategy, &name) == nil {
		if name != "BatchLongest" {
			return nil, fmt.Errorf("padding: unknown strategy %q (want BatchLongest or {\"Fixed\": n})", name)
		}
	} else {
		var fixed struct {
			Fixed *int `json:"Fixed"`
		}
		if err := json.Unmarshal(j.Strategy, &fixed); err != nil || fixed.Fixed == nil {
			return nil, fmt.Errorf("padding: unknown strategy %s (want BatchLongest or {\"Fixed\": n})", string(j.Strategy))
		}
		p.Fixed, p.Length = true, *fixed.Fixed
	}
	var err error
	if p.Direction, err = encoding.ParseDirection(j.Direction); err != nil {
		return nil, fmt.Errorf("padding: %w", err)
	}
	return p, nil
}
