package arena

import (
	"strings"
	"testing"

	"chuzero/rules"
)

// FuzzParseOpenings: any openings file either parses into openings that
// all start legal games, or is refused with an error naming the file.
func FuzzParseOpenings(f *testing.F) {
	for _, s := range []string{"startpos\n", "startpos moves f4f5 g9g8\n", "f4f5\n# c\n",
		"6k5/12/12/12/12/12/12/3ppp6/4N7/12/12/6K5 b - 1 moves e4e5,e5e6\n", "moves\n", "startpos moves f4f5 f4f5\n"} {
		f.Add(s)
	}
	r := rules.MustNew(rules.DefaultConfig(rules.Chu))
	f.Fuzz(func(t *testing.T, text string) {
		ops, err := ParseOpenings(strings.NewReader(text), "fuzz", r)
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, o := range ops {
			if _, err := o.Game(r); err != nil {
				t.Fatalf("accepted opening %q does not replay: %v", o, err)
			}
			again, err := ParseOpening(o.String(), r)
			if err != nil || again.String() != o.String() {
				t.Fatalf("opening %q does not round-trip: %q, %v", o, again, err)
			}
		}
	})
}

// FuzzParseFeatures: the feature-line parser never panics and returns
// only keys without spaces.
func FuzzParseFeatures(f *testing.F) {
	for _, s := range []string{`myname="HaChu 0.21" highlight=1`, `variants="chu,sho" done=1`, `option="Allow repeats -check 0"`, `a="unterminated`, `=x`, `a=`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, kv := range parseFeatures(s) {
			if strings.ContainsAny(kv[0], " \t") && !strings.Contains(s, kv[0]) {
				t.Fatalf("key %q not from %q", kv[0], s)
			}
		}
	})
}

func TestParseFeatures(t *testing.T) {
	got := parseFeatures(`myname="HaChu 0.21" ping=1  variants="chu,sho" done=1`)
	want := [][2]string{{"myname", "HaChu 0.21"}, {"ping", "1"}, {"variants", "chu,sho"}, {"done", "1"}}
	if len(got) != len(want) {
		t.Fatalf("%q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %q, want %q", i, got[i], want[i])
		}
	}
}
