// Package atomicfile is how every file of a run is written and opened.
//
// Writing (Writer, Create, Write, WriteFrom): the data go to a temporary
// file ".NAME.tmp-*" beside the final path; Commit fsyncs it, gives it
// Mode (0644, readable by the other processes of a run), renames it into
// place and fsyncs the directory (SyncDir). A reader sees the old file or
// the new one, never a part, and a crash loses at most the file being
// written; RemoveTemps deletes what such a crash left. WriteHook lets a
// crash test stop a process in the middle of a write.
//
// Opening (OpenRegular, ReadRegular): the run's readers open regular files
// only (a symbolic link to one is followed) and refuse anything else with
// ErrNotRegular; they open without blocking, so a FIFO put where a file
// should be never hangs them.
//
// The package imports nothing of chuzero's, so that every other package,
// encode included, may use it.
package atomicfile
