// Package peerloss says why a connection to another rank ended: its process
// died (the peer's kernel closed the connection), or its host stopped
// answering (a cut link, a machine that lost power or rebooted). The mesh and
// the rendezvous store word every loss through it, so every rank's error says
// the same thing for the same event, however the local kernel reported it.
//
//	why := peerloss.Reason(err, silence) // "its host stopped answering", …
//
// Files:
//   - peerloss.go: Cause, LongSilence, Classify and Reason.
package peerloss
