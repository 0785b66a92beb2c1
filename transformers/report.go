package transformers

import (
	"fmt"
	"strings"
)

// LoadReport says how a checkpoint's tensors met a model's parameters (transformers'
// output_loading_info): the parameters no checkpoint tensor filled (newly initialised), the
// checkpoint tensors no parameter took, and, with Options.IgnoreMismatchedSizes, the parameters
// whose checkpoint tensor had another shape (newly initialised too). Names are the model's
// (after the base model prefix is added or removed), sorted.
type LoadReport struct {
	Model      string // the architecture loaded, e.g. "BertForSequenceClassification"
	Checkpoint string // the snapshot folder
	Missing    []string
	Unexpected []string
	Mismatched []Mismatch
}

// Mismatch is a parameter whose checkpoint tensor had another shape.
type Mismatch struct {
	Name                   string
	Checkpoint, ModelShape []int
}

// Empty reports whether every parameter was loaded from a tensor of its shape and every tensor
// was used.
func (r LoadReport) Empty() bool {
	return len(r.Missing)+len(r.Unexpected)+len(r.Mismatched) == 0
}

// String is the report in transformers' words ("Some weights of … were not initialized from the
// model checkpoint at … and are newly initialized: […]"); empty when there is nothing to say.
func (r LoadReport) String() string {
	var b strings.Builder
	if len(r.Unexpected) > 0 {
		fmt.Fprintf(&b, "Some weights of the model checkpoint at %s were not used when initializing %s: %s\n", r.Checkpoint, r.Model, pyList(r.Unexpected))
		fmt.Fprintf(&b, "- This IS expected if you are initializing %s from the checkpoint of a model trained on another task or with another architecture (e.g. initializing a BertForSequenceClassification model from a BertForPreTraining model).\n", r.Model)
		fmt.Fprintf(&b, "- This IS NOT expected if you are initializing %s from the checkpoint of a model that you expect to be exactly identical (initializing a BertForSequenceClassification model from a BertForSequenceClassification model).\n", r.Model)
	}
	if len(r.Missing) > 0 {
		fmt.Fprintf(&b, "Some weights of %s were not initialized from the model checkpoint at %s and are newly initialized: %s\n", r.Model, r.Checkpoint, pyList(r.Missing))
	}
	if len(r.Mismatched) > 0 {
		fmt.Fprintf(&b, "Some weights of %s were not initialized from the model checkpoint at %s and are newly initialized because the shapes did not match:\n", r.Model, r.Checkpoint)
		for _, m := range r.Mismatched {
			fmt.Fprintf(&b, "- %s: found shape %s in the checkpoint and %s in the model instantiated\n", m.Name, shapeString(m.Checkpoint), shapeString(m.ModelShape))
		}
	}
	if len(r.Missing)+len(r.Mismatched) > 0 {
		b.WriteString("You should probably TRAIN this model on a down-stream task to be able to use it for predictions and inference.\n")
	}
	return b.String()
}

// pyList writes names as Python prints a list of strings.
func pyList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// shapeString writes a shape as torch.Size prints it.
func shapeString(s []int) string {
	p := make([]string, len(s))
	for i, d := range s {
		p[i] = fmt.Sprint(d)
	}
	return "torch.Size([" + strings.Join(p, ", ") + "])"
}
