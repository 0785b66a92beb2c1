package normstr

// Token is one token a model produced for a piece: Start and End are byte
// offsets in the piece's normalized string.
type Token struct {
	ID         int
	Value      string
	Start, End int
}

// Piece is a part of the input being tokenized; Done is set once it has
// tokens (an added token, or after the model ran).
type Piece struct {
	S      *String
	Tokens []Token
	Done   bool
}

// PreTokenized is an input cut into pieces (tokenizers' PreTokenizedString).
type PreTokenized struct {
	Original string
	Pieces   []Piece
}

// NewPreTokenized makes one piece of s.
func NewPreTokenized(s *String) *PreTokenized {
	return &PreTokenized{Original: s.Original, Pieces: []Piece{{S: s}}}
}

// Split replaces every piece that has no tokens yet by what f returns for
// it, dropping empty pieces.
func (p *PreTokenized) Split(f func(i int, s *String) ([]Piece, error)) error {
	out := make([]Piece, 0, len(p.Pieces))
	for i, pc := range p.Pieces {
		if pc.Done {
			out = append(out, pc)
			continue
		}
		parts, err := f(i, pc.S)
		if err != nil {
			return err
		}
		for _, q := range parts {
			if q.S.Normalized != "" {
				out = append(out, q)
			}
		}
	}
	p.Pieces = out
	return nil
}

// SplitStrings is Split for a function that returns plain strings.
func (p *PreTokenized) SplitStrings(f func(i int, s *String) ([]*String, error)) error {
	return p.Split(func(i int, s *String) ([]Piece, error) {
		parts, err := f(i, s)
		if err != nil {
			return nil, err
		}
		out := make([]Piece, len(parts))
		for k, q := range parts {
			out[k] = Piece{S: q}
		}
		return out, nil
	})
}

// Normalize applies f to every piece that has no tokens yet.
func (p *PreTokenized) Normalize(f func(s *String) error) error {
	for _, pc := range p.Pieces {
		if !pc.Done {
			if err := f(pc.S); err != nil {
				return err
			}
		}
	}
	return nil
}
