package transformers

import (
	"encoding/json"
	"fmt"
)

// TokenIDs is a configuration key that holds one token id or a list of them, as config.json's
// eos_token_id does (Llama 3 lists several end-of-sequence ids); null or absent is empty. It is
// written back as a number when it holds one id.
type TokenIDs []int

// UnmarshalJSON reads a number, a list of numbers or null.
func (ids *TokenIDs) UnmarshalJSON(b []byte) error {
	var one *int
	if err := json.Unmarshal(b, &one); err == nil {
		*ids = nil
		if one != nil {
			*ids = TokenIDs{*one}
		}
		return nil
	}
	var many []int
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("a token id or a list of token ids, have %s", b)
	}
	*ids = many
	return nil
}

// MarshalJSON writes null, a number for one id, else a list.
func (ids TokenIDs) MarshalJSON() ([]byte, error) {
	switch len(ids) {
	case 0:
		return []byte("null"), nil
	case 1:
		return json.Marshal(ids[0])
	}
	return json.Marshal([]int(ids))
}
