package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"chuzero/rules"
)

// ruleFlags collects repeated -rule Name=Value options.
type ruleFlags []string

func (r *ruleFlags) String() string     { return strings.Join(*r, ",") }
func (r *ruleFlags) Set(s string) error { *r = append(*r, s); return nil }

// variantFlags are the -variant and -rule flags shared by commands that
// play a game.
type variantFlags struct {
	variant string
	rules   ruleFlags
}

func (v *variantFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&v.variant, "variant", "chu", "game: chu, sho or heian")
	fs.Var(&v.rules, "rule", "rules option `Name=Value` (repeatable); see \"chuzero rules\" for the options")
}

// config returns the rules configuration the flags select.
func (v *variantFlags) config() (rules.Config, error) {
	id, err := rules.ParseVariant(v.variant)
	if err != nil {
		return rules.Config{}, err
	}
	return rules.ConfigOf(id, v.rules...)
}

// newFlagSet returns a flag set that prints its usage to w.
func newFlagSet(name, synopsis string, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() {
		fmt.Fprintf(w, "Usage: chuzero %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and returns (exit status, done): done is true when
// the command should stop (help shown or a flag error).
func parseFlags(fs *flag.FlagSet, args []string) (int, bool) {
	if code, done := parseFlagsArgs(fs, args); done {
		return code, done
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "chuzero %s: unexpected arguments %q\n", fs.Name(), fs.Args())
		return 2, true
	}
	return 0, false
}

// parseFlagsArgs is parseFlags for a command that takes arguments after
// its flags (fs.Args).
func parseFlagsArgs(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0, true
		}
		return 2, true
	}
	return 0, false
}
