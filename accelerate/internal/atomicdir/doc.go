// Package atomicdir publishes a folder of files so that, whatever instant
// the process dies at, the folder's name holds either its previous complete
// version or its new complete version, never a mix and never nothing.
//
// A new version is written into a staging folder beside the target
// (.NAME.partial), every file fsynced; Seal then lists the files and their
// sizes in a manifest (goaccel_manifest.json), written last and fsynced with
// the folder, which makes the version complete. Publish renames the previous
// version aside (NAME.old), the staging folder into place and removes the
// previous version, fsyncing the parent after each rename. A crash between
// two steps leaves a state that Recover completes (or undoes) and that
// Resolve reads through without changing anything. Remove renames a folder
// aside (.NAME.deleting) before deleting it, so a half-deleted folder never
// carries a name that would be loaded.
//
//	f := atomicdir.Folder{Path: "ckpt"}
//	if err := f.Recover(); err != nil { ... }
//	tmp, err := f.Stage()           // write files into tmp with WriteFile, or Sync them
//	err = f.Publish()               // Seal, then swap tmp into place
//	dir, ok := f.Resolve()          // the complete version to read
//
// Files:
//   - atomicdir.go: ManifestName, Folder (Staging, Previous, Stage, Publish,
//     Remove, Recover, Resolve, and the Hook tests use to kill a save at
//     each step), Complete, Damaged, Seal, WriteFile and Sync.
package atomicdir
