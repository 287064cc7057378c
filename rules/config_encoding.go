package rules

import (
	"errors"
	"fmt"
	"strings"
)

// String returns the config as "chu LionMoveEnumeration=Canonical ...
// MaxPlies=1000", listing every option that applies to the variant.
func (c Config) String() string {
	var b strings.Builder
	b.WriteString(c.Variant.String())
	for i := range options {
		o := &options[i]
		if !o.appliesTo(c.Variant) {
			continue
		}
		v := o.get(&c)
		name := fmt.Sprintf("%d", v)
		if int(v) < len(o.values) {
			name = o.values[v]
		}
		fmt.Fprintf(&b, " %s=%s", o.name, name)
	}
	fmt.Fprintf(&b, " MaxPlies=%d", c.MaxPlies)
	return b.String()
}

// ParseConfig reads the form written by String: a variant name followed by
// any number of Name=Value assignments; missing options take defaults.
func ParseConfig(s string) (Config, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return Config{}, errors.New("rules: empty config")
	}
	v, err := ParseVariant(f[0])
	if err != nil {
		return Config{}, err
	}
	c := DefaultConfig(v)
	for _, a := range f[1:] {
		if err := c.SetAssignment(a); err != nil {
			return Config{}, err
		}
	}
	return c, c.Validate()
}

// MarshalText implements encoding.TextMarshaler with String's form.
func (c Config) MarshalText() ([]byte, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return []byte(c.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (c *Config) UnmarshalText(b []byte) error {
	p, err := ParseConfig(string(b))
	if err != nil {
		return err
	}
	*c = p
	return nil
}

// BinarySize is the length of the binary form of a Config.
const BinarySize = 20

// AppendBinary appends the fixed-size binary form: the variant byte, one
// byte per option in the order of OptionNames (13 options), two reserved
// zero bytes, and MaxPlies as uint32 little-endian.
func (c Config) AppendBinary(b []byte) ([]byte, error) {
	if err := c.Validate(); err != nil {
		return b, err
	}
	b = append(b, byte(c.Variant))
	for i := range options {
		b = append(b, options[i].get(&c))
	}
	b = append(b, 0, 0)
	m := uint32(c.MaxPlies)
	return append(b, byte(m), byte(m>>8), byte(m>>16), byte(m>>24)), nil
}

// UnmarshalBinary reads the form written by AppendBinary and validates it.
func (c *Config) UnmarshalBinary(b []byte) error {
	if len(b) != BinarySize {
		return fmt.Errorf("rules: binary config has %d bytes, want %d", len(b), BinarySize)
	}
	var n Config
	n.Variant = VariantID(b[0])
	for i := range options {
		options[i].set(&n, b[1+i])
	}
	if b[1+len(options)] != 0 || b[2+len(options)] != 0 {
		return errors.New("rules: binary config has non-zero reserved bytes")
	}
	p := b[3+len(options):]
	n.MaxPlies = int(uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24)
	if err := n.Validate(); err != nil {
		return err
	}
	*c = n
	return nil
}
