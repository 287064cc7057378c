package usi

import (
	"testing"

	"go.uber.org/goleak"
)

// No session may leave a goroutine behind: a reader, a search.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
