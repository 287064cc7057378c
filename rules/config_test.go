package rules

import (
	"strings"
	"testing"
)

func TestDefaultConfigs(t *testing.T) {
	want := map[VariantID]string{
		Chu: "chu LionMoveEnumeration=Canonical FalconEaglePass=On LionProtection=JCSA CounterStrike=Strict " +
			"PromotionRule=JCSA LanceLastRankPromotion=Off GoBetweenLastRankPromotion=Off BareKing=JCSA Repetition=JCSA4 MaxPlies=1000",
		Sho:   "sho Repetition=Draw4 ShoRoyalty=PseudoRoyal MaxPlies=512",
		Heian: "heian Repetition=Draw4 HeianFlyingDragon=Bishop HeianDragonPromotion=Gold HeianPromotion=Shogi MaxPlies=800",
	}
	for _, v := range Variants {
		c := DefaultConfig(v)
		if err := c.Validate(); err != nil {
			t.Errorf("DefaultConfig(%s).Validate() = %v", v, err)
		}
		if got := c.String(); got != want[v] {
			t.Errorf("DefaultConfig(%s) = %q, want %q", v, got, want[v])
		}
		back, err := ParseConfig(c.String())
		if err != nil || back != c {
			t.Errorf("ParseConfig(%q) = %v, %v", c.String(), back, err)
		}
		b, err := c.AppendBinary(nil)
		if err != nil || len(b) != BinarySize {
			t.Fatalf("AppendBinary: %d bytes, %v", len(b), err)
		}
		var d Config
		if err := d.UnmarshalBinary(b); err != nil || d != c {
			t.Errorf("binary round trip of %s: %v, %v", c, d, err)
		}
	}
}

func TestConfigSet(t *testing.T) {
	tests := []struct {
		v       VariantID
		assign  string
		wantErr string
	}{
		{Chu, "LanceLastRankPromotion=On", ""},
		{Chu, "lionprotection=aftermove", ""},
		{Chu, "Repetition=Forbid", ""},
		{Chu, "MaxPlies=300", ""},
		{Chu, "MaxPlies=0", "positive integer"},
		{Chu, "ShoRoyalty=Capture", "does not apply"},
		{Sho, "Repetition=JCSA4", "cannot be"},
		{Sho, "Repetition=Draw4", ""},
		{Heian, "HeianPromotion=Chu", ""},
		{Heian, "HeianPromotion=Hodges", "cannot be"},
		{Chu, "NoSuchOption=1", "unknown option"},
		{Chu, "LanceLastRankPromotion", "Name=Value"},
	}
	for _, tt := range tests {
		c := DefaultConfig(tt.v)
		err := c.SetAssignment(tt.assign)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: SetAssignment(%q) = %v", tt.v, tt.assign, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: SetAssignment(%q) = %v, want error containing %q", tt.v, tt.assign, err, tt.wantErr)
		case err == nil:
			if verr := c.Validate(); verr != nil {
				t.Errorf("%s after %q: Validate() = %v", tt.v, tt.assign, verr)
			}
		}
	}
	var bad Config
	if bad.Validate() == nil {
		t.Errorf("zero Config validates")
	}
	c := DefaultConfig(Sho)
	c.PromotionRule = PromotionHodges
	if c.Validate() == nil {
		t.Errorf("a Chu option set on Sho validates")
	}
	if err := c.UnmarshalBinary(make([]byte, BinarySize)); err == nil {
		t.Errorf("UnmarshalBinary of zeros succeeded")
	}
	if len(options)+7 != BinarySize {
		t.Errorf("BinarySize %d does not match %d options", BinarySize, len(options))
	}
}

func TestVariantNames(t *testing.T) {
	for _, v := range Variants {
		got, err := ParseVariant(v.String())
		if err != nil || got != v {
			t.Errorf("ParseVariant(%q) = %v, %v", v.String(), got, err)
		}
		if len(Options(v)) < 2 {
			t.Errorf("Options(%s) lists too little", v)
		}
	}
	if _, err := ParseVariant("dai"); err == nil {
		t.Errorf("ParseVariant(dai) succeeded")
	}
}

// TestConfigOfAndApply: the one way from options to rules. ConfigOf is
// strict; Apply with lenient skips what the variant cannot take (an
// option meant for another variant) but not a malformed assignment.
func TestConfigOfAndApply(t *testing.T) {
	c, err := ConfigOf(Sho, Assignments(map[string]string{"Repetition": "Draw4", "MaxPlies": "300"})...)
	if err != nil || c.MaxPlies != 300 {
		t.Fatalf("ConfigOf(sho, Repetition=Draw4, MaxPlies=300) = %+v, %v", c, err)
	}
	if got, _ := c.Value("Repetition"); got != "Draw4" {
		t.Errorf("Repetition = %s", got)
	}
	for _, bad := range [][]string{{"Repetition=JCSA4"}, {"ShoRoyalty=Capture", "NoSuchOption=1"}, {"MaxPlies"}} {
		if _, err := ConfigOf(Sho, bad...); err == nil {
			t.Errorf("ConfigOf(sho, %q) accepted", bad)
		}
	}
	if _, err := ConfigOf(Chu, "ShoRoyalty=Capture"); err == nil {
		t.Error("ConfigOf(chu, ShoRoyalty=Capture) accepted an option Chu lacks")
	}
	for _, tc := range []struct {
		v       VariantID
		as      []string
		lenient bool
		ok      bool
		max     int
	}{
		{Chu, []string{"ShoRoyalty=Capture", "MaxPlies=200"}, true, true, 200},
		{Sho, []string{"Repetition=JCSA4", "MaxPlies=200"}, true, true, 200},
		{Chu, []string{"ShoRoyalty=Capture"}, false, false, 0},
		{Chu, []string{"MaxPlies"}, true, false, 0},
		{Chu, []string{"=1"}, true, false, 0},
	} {
		c := DefaultConfig(tc.v)
		err := c.Apply(tc.as, tc.lenient)
		if (err == nil) != tc.ok || (tc.ok && c.MaxPlies != tc.max) {
			t.Errorf("%s: Apply(%q, %v) = %v, MaxPlies %d", tc.v, tc.as, tc.lenient, err, c.MaxPlies)
		}
	}
	if got := Assignments(map[string]string{"b": "2", "a": "1"}); len(got) != 2 || got[0] != "a=1" || got[1] != "b=2" {
		t.Errorf("Assignments = %q", got)
	}
}
