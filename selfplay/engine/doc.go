// Package engine is the protocol-independent core of our engine
// (chuzero play; "engine" means a program that plays through a protocol,
// ours or an outside one, see package selfplay's doc): the configuration, the rules of the variant with the options a
// GUI sets, the search tree kept between moves, the output to the GUI,
// and the search in progress, run on a goroutine of its own in slices
// with progress reports (principal variations, MultiPV lines, scores)
// after each. Packages cecp (XBoard) and usi (USI) put a protocol on it.
//
// The session model: Serve reads the GUI's lines on a goroutine of its
// own and hands each to the protocol's Handler on the session goroutine;
// a finished search comes back to Handler.Finish on the same goroutine,
// so a protocol's state needs no locks. Only Send and the progress
// callbacks run on the search goroutine.
package engine
