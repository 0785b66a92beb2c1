// Package executormain is the main of an executor process: the process
// that runs a notebook's cells for the kernel (see kernel/executor). The
// goaccel binary runs it as its hidden __executor command; a derived
// executor (internal/derived), a binary built for a session whose cells
// import packages goaccel lacks, runs it as its whole main, with those
// packages' symbol tables, and hands every other command to the goaccel
// binary it was derived from.
package executormain
