// Command chuzero is the chuzero trainer, engine and tools in one binary.
//
// Usage:
//
//	chuzero <command> [flags]
//
// Run "chuzero help" for the list of commands and "chuzero <command> -h"
// for a command's flags.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand: its name, a one-line summary and its entry
// point, which returns the process exit status.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands is filled by the init functions of the subcommand files.
var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches to a subcommand.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				return c.run([]string{"-h"}, stdout, stdout)
			}
		}
		usage(stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "chuzero: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "chuzero: an AlphaZero-style trainer for Chu Shogi, Sho Shogi and Heian Dai Shogi")
	fmt.Fprintln(w, "\nUsage: chuzero <command> [flags]\n\nCommands:")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"chuzero <command> -h\" for the flags of a command.")
}
