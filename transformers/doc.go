// Package transformers starts goaccel models from Hugging Face snapshots: the folder
// from_pretrained reads (config.json and model.safetensors, or shards listed by
// model.safetensors.index.json) becomes a model of a registered family, and SavePretrained
// writes a folder that transformers' from_pretrained loads back.
//
//	model, report, err := transformers.FromPretrained(dir, transformers.Options{
//		Task: transformers.SequenceClassification, NumLabels: 5})
//	out, err := model.Run(transformers.Inputs{InputIDs: ids, AttentionMask: mask, Labels: labels})
//	out, err = model.Run(transformers.BatchInputs(loader.Named())) // model(**batch)
//	out.Loss.Backward()
//	err = transformers.SavePretrained("out/model", model, transformers.SaveOptions{})
//
// Families are packages named as transformers names them (transformers/bert for "bert",
// including MiniLM; transformers/distilbert; transformers/roberta; transformers/gpt2;
// transformers/llama for "llama" and "mistral"), each with its config,
// modules under transformers' parameter names and heads; they register their model_type with
// this package when imported, as database/sql drivers do (a notebook cell links them all). A
// Model is an nn.Module (optimizers, state dicts, nn.SetTraining, accelerate's Prepare take it)
// whose Run takes transformers' keyword arguments as Inputs and returns an Output; a model a
// cell declares can hold or embed one and add its own head.
//
// Loading follows transformers: the checkpoint's names meet the model's with or without the
// base model prefix ("bert." …), tied weights come from whichever name the checkpoint holds,
// non-weight buffers of old checkpoints (embeddings.position_ids) are dropped, parameters the
// checkpoint lacks keep their fresh initialisation and are listed in the LoadReport (printed as
// transformers prints it), the parameters' type is the checkpoint's unless Options.DType says
// otherwise, and the model comes back in evaluation mode. Anything that does not fit is an error
// naming the file, the tensor or the key, never a panic.
//
// A decoder loaded with Task CausalLM (a GenerativeModel) continues prompts with Generate,
// transformers' generate: greedy or sampled (GenerateOptions), a left-padded batch with
// positions from its attention mask, each row until its end-of-sequence token, over a KVCache
// (Inputs.PastKeyValues) that code decoding token by token can also drive itself:
//
//	model, _, err := transformers.FromPretrained(dir, transformers.Options{Task: transformers.CausalLM})
//	out, err := transformers.Generate(model, transformers.Inputs{InputIDs: ids, AttentionMask: mask},
//		transformers.GenerateOptions{MaxNewTokens: 20})
//
// Files:
//   - config.go: Config, BaseConfig (the shared keys, unknown keys kept for writing back),
//     LoadConfig, ParseConfig and MarshalConfig.
//   - registry.go: Task, Architecture, Family, Register and SupportedModelTypes.
//   - model.go: Model, Inputs and Output.
//   - batch.go: BatchInputs, model(**batch) for a data.Loader's named batch.
//   - pretrained.go: Options, FromPretrained, ParseDType, SaveOptions, SavePretrained,
//     SaveWeights and ParseSize.
//   - load.go: LoadWeights and the matching of checkpoint names to parameters.
//   - report.go: LoadReport and Mismatch.
//   - generate.go: GenerativeModel, GenerationConfig, GenerateOptions, GenerateOutput and
//     Generate (the loop, the prompts' mask and positions).
//   - sampling.go: greedy choice, temperature, top-k, top-p and the draw.
//   - kvcache.go: KVCache and NewKVCache.
//   - tokenids.go: TokenIDs, a configuration key of one token id or several (eos_token_id).
//
// Weight files and shards are read and written by internal/snapshot (accelerate's SaveModel
// writes shards through SaveWeights). Plumbing lives under internal/: snapshot, modeling (layers, activations, input checks and losses the families share), decoding (what
// the decoder families share: cached and grouped-query attention, last-token pooling, the causal
// LM loss) and testenv (what the tests need from outside the repository, transformers' Python
// among it).
package transformers
