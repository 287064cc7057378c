package checkpoints

import (
	"path/filepath"
	"testing"
)

func TestRunAt(t *testing.T) {
	for _, c := range []struct{ dir, variant, want string }{
		{"some/dir", "sho", "some/dir"},
		{"", "sho", filepath.Join("runs", "sho")},
		{"", "", filepath.Join("runs", "chu")},
	} {
		if got := RunAt(c.dir, c.variant).Dir; got != c.want {
			t.Errorf("RunAt(%q, %q) = %q, want %q", c.dir, c.variant, got, c.want)
		}
	}
}
