package main

import (
	"fmt"
	"io"
	"strings"

	"chuzero/rules"
)

func init() {
	register(command{name: "rules", summary: "list the variants and their rules options", run: runRules})
}

func runRules(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("rules", "rules [-variant chu|sho|heian]", stderr)
	only := fs.String("variant", "", "show one variant only")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	for _, v := range rules.Variants {
		if *only != "" && !strings.EqualFold(*only, v.String()) {
			continue
		}
		d, _ := rules.Describe(v)
		fmt.Fprintf(stdout, "%s: %s, %dx%d, promotion zone %d ranks\n", d.Name, d.Title, d.Files, d.Ranks, d.ZoneDepth)
		fmt.Fprintf(stdout, "  start: %s\n  sources: %s\n", d.StartSFEN, d.Sources)
		for _, o := range rules.Options(v) {
			fmt.Fprintf(stdout, "  -rule %s=%s  (default %s)\n", o.Name, strings.Join(o.Values, "|"), o.Default)
		}
	}
	return 0
}
