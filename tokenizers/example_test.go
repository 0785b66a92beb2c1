package tokenizers_test

import (
	"fmt"
	"os"

	"github.com/goaccel/goaccel/tokenizers"
)

func ExampleFromFile() {
	tok, err := tokenizers.FromFile("testdata/minilm/tokenizer.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	enc, err := tok.Encode("Héllo, [MASK] world!")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(enc.Tokens[:8])
	fmt.Println(enc.IDs[:8])
	fmt.Println(enc.Offsets[1], enc.Offsets[4])
	// Output:
	// [[CLS] hello , [MASK] world ! [SEP] [PAD]]
	// [101 7592 1010 103 2088 999 102 0]
	// {0 5} {14 19}
}

// The bert_cased fixture is a WordPiece vocabulary of 2,500 pieces trained
// for the tests: most words are cut into letters.
func ExampleFromPretrained() {
	tok, err := tokenizers.FromPretrained("testdata/bert_cased")
	if err != nil {
		fmt.Println(err)
		return
	}
	enc, err := tok.EncodePair("Where is it?", "It is here.")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(enc.Tokens)
	fmt.Println(enc.TypeIDs)
	text, _ := tok.Decode(enc.IDs, true)
	fmt.Println(text)
	// Output:
	// [[CLS] W ##h ##e ##r ##e i ##s i ##t ? [SEP] I ##t i ##s h ##e ##r ##e . [SEP]]
	// [0 0 0 0 0 0 0 0 0 0 0 0 1 1 1 1 1 1 1 1 1 1]
	// Where is it? It is here.
}

func ExampleTokenizer_Batch() {
	tok, err := tokenizers.FromPretrained("testdata/gpt2")
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := tok.Batch([]string{"Hello world", "A longer sentence to pad against"},
		tokenizers.Options{Padding: tokenizers.PadLongest, PadToMultipleOf: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b.AttentionMask)
	ids, err := b.InputIDsTensor()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ids.Shape(), ids.DType())
	// Output:
	// [[1 1 1 1 1 1 1 0 0 0 0 0 0 0 0 0] [1 1 1 1 1 1 1 1 1 1 1 1 1 1 0 0]]
	// [2 16] int64
}

// A tokenizer saved beside a fine-tuned model (transformers' tokenizer.save_pretrained), with a
// setting changed, loads back with it.
func ExampleTokenizer_SavePretrained() {
	tok, err := tokenizers.FromPretrained("testdata/minilm")
	if err != nil {
		fmt.Println(err)
		return
	}
	tok.PaddingSide = "left"
	dir, err := os.MkdirTemp("", "tokenizer-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	if err := tok.SavePretrained(dir); err != nil {
		fmt.Println(err)
		return
	}
	back, err := tokenizers.FromPretrained(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := back.Batch([]string{"Hello world", "Hi"}, tokenizers.Options{Padding: tokenizers.PadLongest})
	fmt.Println(back.PaddingSide, back.PadToken, back.ModelMaxLength, b.InputIDs[1])
	// Output:
	// left [PAD] 512 [0 101 7632 102]
}
