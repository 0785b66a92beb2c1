// Package datasets holds text data for fine-tuning, modelled on Hugging Face datasets: tables
// read from JSON Lines, CSV, Parquet or a folder of text files per label, with typed columns and
// class labels, transforms (Map with an on-disk cache, Filter, Shuffle, Select, splits, dropping
// duplicates), and transformers' DataCollatorWithPadding to batch token ids for a data.Loader:
//
//	ds, err := datasets.ReadFolder(root, datasets.Options{})  // root/<label>/*.txt: text, label, path
//	ds, err = ds.DropDuplicates(datasets.DedupeOptions{})
//	train, test, err := ds.SplitEvery(5, "label")             // every 5th text of each label held out
//	tokenized, err := train.Map(tokenize, datasets.MapOptions{Batched: true, CacheKey: "minilm max128"})
//	collator, err := datasets.NewDataCollatorWithPadding(tok, 8) // tok: a tokenizers.Tokenizer
//	batches, err := datasets.WithCollator(tokenized, collator)
//	loader := data.NewLoader(batches, data.LoaderConfig{BatchSize: 16, Shuffle: true})
//	for loader.Next() {
//		b := loader.Named() // input_ids, token_type_ids, attention_mask [16 T] int64, labels [16] int64
//	}
//
// where tokenize is a function of a batch of rows (Map's example shows one around tok.Batch).
//
// The readers check what a training run needs and name the file and the 1-based line (or row,
// or file of a folder) of what is wrong: a missing or null text or label, an empty text, a label
// outside the label set, a malformed JSON line, a CSV row with the wrong number of fields, a
// column missing from the file, a column whose values change type, binary data. Text that is not
// UTF-8 is read as Windows-1252, line by line (Options.Encoding; StrictUTF8 makes it an error).
// Each function's comment says where it departs from datasets.
//
// Nothing here is generic or needs range-over-func, so cells use it as compiled code does.
//
// Files:
//   - dataset.go: Dataset, FromColumns, column access (Row, Strings, Ints, IntLists…), Labels.
//   - column.go: Kind and the typed column store; infer.go: the types of values read or given.
//   - labels.go: ClassLabel and ClassEncodeColumn.
//   - options.go: the readers' Options and the checks they share; textdecode.go: UTF-8 and
//     Windows-1252.
//   - jsonl.go, csv.go, parquet.go, folder.go: ReadJSONL, ReadCSV, ReadParquet
//     (github.com/parquet-go/parquet-go), ReadFolder.
//   - transform.go: Select, Shuffle, Filter, RemoveColumns, RenameColumn, AddColumn, Concatenate.
//   - split.go: TrainTestSplit and SplitEvery; dedupe.go: DropDuplicates.
//   - mapfn.go: Map and MapOptions (batches, goroutines); cache.go: Map's cache files;
//     fingerprint.go: the fingerprints that key them.
//   - collator.go: DataCollatorWithPadding and NewDataCollatorWithPadding (from a tokenizer);
//     collated.go: WithCollator, a dataset of padded batches for data.Loader.
//   - testdata/make_collator_fixture.py: transformers' collator outputs the tests compare with.
package datasets
