//go:build ignore

// Command gen writes kern_*_amd64.s, the AVX-512 and AVX2 micro-kernels of
// package sgemm, one function per file. Run it with "go generate" in the
// package directory.
//
// Every micro-kernel has the Go signature
//
//	func(kc int, a *float32, lda int, b *float32, c *float32, ldc int, alpha, beta float32)
//
// and computes the MR x NR tile C = alpha*A*B + beta*C (C is not read when
// beta == 0), where B is a packed panel (kc rows of NR contiguous floats) and
// A is read in place: by the "Rows" kernels as A(i,p) = a[i*lda+p] and by the
// "Strided" kernels as A(i,p) = a[p*lda+i].
package main

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"strings"
)

// spec describes one register-blocked kernel: mr rows of C by nv vectors of
// lanes floats, accumulated in vector registers accStart and up.
type spec struct {
	suffix   string // function name suffix
	feature  string // for the comment
	reg      string // "Z" or "Y"
	lanes    int    // floats per vector register
	mr, nv   int    // tile rows, vectors per tile row
	bcastLo  int    // first register for broadcast A values
	accStart int    // first accumulator register
}

var specs = []spec{
	{suffix: "AVX512", feature: "AVX-512F", reg: "Z", lanes: 16, mr: 12, nv: 2, bcastLo: 2, accStart: 8},
	{suffix: "AVX2", feature: "AVX2 and FMA", reg: "Y", lanes: 8, mr: 6, nv: 2, bcastLo: 2, accStart: 4},
}

// Loop unrolling. The strided kernels unroll the k loop by unroll steps; the
// rows kernels, which read mr separate rows of A straight from the caller's
// matrix, unroll it by rowsUnroll steps and prefetch every row once per
// iteration, prefetchAhead bytes ahead, a few rows at each step.
const (
	unroll        = 4
	rowsUnroll    = 8
	prefetchAhead = 512
)

// gen accumulates the assembly of one kernel.
type gen struct {
	buf bytes.Buffer
	s   spec
	rot int // broadcast register rotation
}

// p writes one instruction.
func (g *gen) p(format string, args ...any) {
	fmt.Fprintf(&g.buf, "\t"+format+"\n", args...)
}

func (g *gen) label(l string) { fmt.Fprintf(&g.buf, "%s:\n", l) }

// vreg names vector register i; acc names the accumulator of row i,
// vector v of the tile.
func (g *gen) vreg(i int) string { return fmt.Sprintf("%s%d", g.s.reg, i) }

func (g *gen) acc(i, v int) string { return g.vreg(g.s.accStart + i*g.s.nv + v) }

func (g *gen) vecBytes() int { return g.s.lanes * 4 }

// rowBases are the base registers of the groups of four rows of A (Rows
// kernels) or of C (store).
var rowBases = []string{"AX", "BX", "SI", "DI"}

// index returns the index part of an address for member j (0..3) of a group
// of four, with R8 = stride and R9 = 3*stride (or R10/R11 for C).
func index(j int, one, three string) string {
	switch j {
	case 0:
		return ""
	case 1:
		return "(" + one + "*1)"
	case 2:
		return "(" + one + "*2)"
	default:
		return "(" + three + "*1)"
	}
}

// disp formats an address displacement.
func disp(d int) string {
	if d == 0 {
		return ""
	}
	return fmt.Sprint(d)
}

// aAddr is the address of A(i, p+u) relative to the current k position.
func (g *gen) aAddr(rows bool, i, u int) string {
	if rows {
		return fmt.Sprintf("%s(%s)%s", disp(4*u), rowBases[i/4], index(i%4, "R8", "R9"))
	}
	return fmt.Sprintf("%s(AX)%s", disp(4*i), index(u, "R8", "R9"))
}

// step emits one k step (u steps after the current position): load the nv
// vectors of the B row, then broadcast each A(i, p) and accumulate.
func (g *gen) step(rows bool, u int) {
	s := g.s
	nb := s.accStart - s.bcastLo
	for v := 0; v < s.nv; v++ {
		g.p("VMOVUPS %s(DX), %s", disp((u*s.nv+v)*g.vecBytes()), g.vreg(v))
	}
	for i := 0; i < s.mr; i++ {
		r := g.vreg(s.bcastLo + g.rot%nb)
		g.rot++
		g.p("VBROADCASTSS %s, %s", g.aAddr(rows, i, u), r)
		for v := 0; v < s.nv; v++ {
			g.p("VFMADD231PS %s, %s, %s", r, g.vreg(v), g.acc(i, v))
		}
	}
}

// advance moves the A and B pointers n k steps on.
func (g *gen) advance(rows bool, n int) {
	s := g.s
	if rows {
		for gi := 0; gi < (s.mr+3)/4; gi++ {
			g.p("ADDQ $%d, %s", 4*n, rowBases[gi])
		}
	} else if n == 1 {
		g.p("ADDQ R8, AX")
	} else {
		g.p("LEAQ (AX)(R8*4), AX")
	}
	g.p("ADDQ $%d, DX", n*s.nv*g.vecBytes())
}

// kernel emits one micro-kernel: the rows or the strided one.
func (g *gen) kernel(rows bool) {
	g.prologue(rows)
	g.loop(rows)
	g.epilogue()
}

// prologue emits the kernel's comment and TEXT line, loads the arguments
// (CX = kc, AX = a, R8 = lda and R9 = 3*lda in bytes, DX = b, and for the
// rows kernels the other row group bases) and zeroes the accumulators.
func (g *gen) prologue(rows bool) {
	s := g.s
	name := "kernStrided" + s.suffix
	layout := "a[p*lda+i]"
	if rows {
		name = "kernRows" + s.suffix
		layout = "a[i*lda+p]"
	}
	nr := s.nv * s.lanes
	fmt.Fprintf(&g.buf, "\n// func %s(kc int, a *float32, lda int, b *float32, c *float32, ldc int, alpha, beta float32)\n", name)
	fmt.Fprintf(&g.buf, "//\n// %dx%d tile with %s; A(i,p) = %s.\n", s.mr, nr, s.feature, layout)
	fmt.Fprintf(&g.buf, "TEXT ·%s(SB), NOSPLIT, $0-56\n", name)
	g.p("MOVQ kc+0(FP), CX")
	g.p("MOVQ a+8(FP), AX")
	g.p("MOVQ lda+16(FP), R8")
	g.p("MOVQ b+24(FP), DX")
	g.p("SHLQ $2, R8")
	g.p("LEAQ (R8)(R8*2), R9")
	if rows {
		for gi := 1; gi < (s.mr+3)/4; gi++ {
			g.p("LEAQ (%s)(R8*4), %s", rowBases[gi-1], rowBases[gi])
		}
	}
	for i := 0; i < s.mr; i++ {
		for v := 0; v < s.nv; v++ {
			if s.reg == "Z" {
				g.p("VPXORD %s, %s, %s", g.acc(i, v), g.acc(i, v), g.acc(i, v))
			} else {
				g.p("VXORPS %s, %s, %s", g.acc(i, v), g.acc(i, v), g.acc(i, v))
			}
		}
	}
}

// loop emits the k loop: the unrolled main loop (with the rows kernels'
// prefetches) while CX holds a full unroll of steps, then one step at a
// time for the rest, ending at label done.
func (g *gen) loop(rows bool) {
	s := g.s
	if rows {
		g.p("CMPQ CX, $%d", rowsUnroll)
	} else {
		g.p("CMPQ CX, $%d", unroll)
	}
	g.p("JLT tail")
	g.label("loop")
	un := unroll
	if rows {
		un = rowsUnroll
	}
	perStep := (s.mr + un - 1) / un // rows prefetched per step
	for u := 0; u < un; u++ {
		if rows && prefetchAhead > 0 {
			for i := u * perStep; i < (u+1)*perStep && i < s.mr; i++ {
				g.p("PREFETCHT0 %s", g.aAddr(true, i, prefetchAhead/4))
			}
		}
		g.step(rows, u)
	}
	g.advance(rows, un)
	g.p("SUBQ $%d, CX", un)
	g.p("CMPQ CX, $%d", un)
	g.p("JGE loop")
	g.label("tail")
	g.p("TESTQ CX, CX")
	g.p("JEQ done")
	g.label("tailloop")
	g.step(rows, 0)
	g.advance(rows, 1)
	g.p("DECQ CX")
	g.p("JNE tailloop")
	g.label("done")
}

// epilogue emits the end of the kernel after label done: scale the
// accumulators by alpha, then store them to C, adding beta*C unless beta
// is zero (of either sign), and return.
func (g *gen) epilogue() {
	s := g.s
	g.p("MOVQ c+32(FP), DI")
	g.p("MOVQ ldc+40(FP), R10")
	g.p("SHLQ $2, R10")
	g.p("LEAQ (R10)(R10*2), R11")
	g.p("VBROADCASTSS alpha+48(FP), %s", g.vreg(0))
	for i := 0; i < s.mr; i++ {
		for v := 0; v < s.nv; v++ {
			g.p("VMULPS %s, %s, %s", g.vreg(0), g.acc(i, v), g.acc(i, v))
		}
	}
	g.p("MOVL beta+52(FP), R12")
	g.p("ANDL $0x7fffffff, R12")
	g.p("JEQ storeonly")
	g.p("VBROADCASTSS beta+52(FP), %s", g.vreg(1))
	g.store(true)
	g.p("VZEROUPPER")
	g.p("RET")
	g.label("storeonly")
	g.store(false)
	g.p("VZEROUPPER")
	g.p("RET")
}

// store writes the scaled accumulators to C, first adding beta*C if
// addBeta. DI = c, R10 = ldc and R11 = 3*ldc in bytes.
func (g *gen) store(addBeta bool) {
	s := g.s
	for i := 0; i < s.mr; i++ {
		if i > 0 && i%4 == 0 {
			g.p("LEAQ (DI)(R10*4), DI")
		}
		for v := 0; v < s.nv; v++ {
			addr := fmt.Sprintf("%s(DI)%s", disp(v*g.vecBytes()), index(i%4, "R10", "R11"))
			if addBeta {
				g.p("VFMADD231PS %s, %s, %s", addr, g.vreg(1), g.acc(i, v))
			}
			g.p("VMOVUPS %s, %s", g.acc(i, v), addr)
		}
	}
}

func main() {
	for _, s := range specs {
		if s.mr > 4*len(rowBases) || s.accStart+s.mr*s.nv > 32 || s.bcastLo < s.nv || s.accStart <= s.bcastLo {
			log.Fatalf("bad kernel spec %+v", s)
		}
		for _, rows := range []bool{true, false} {
			var out bytes.Buffer
			out.WriteString("// Code generated by gen.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\n#include \"textflag.h\"\n")
			g := &gen{s: s}
			g.kernel(rows)
			out.Write(g.buf.Bytes())
			form := "strided"
			if rows {
				form = "rows"
			}
			name := "kern_" + form + "_" + strings.ToLower(s.suffix) + "_amd64.s"
			if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
				log.Fatal(err)
			}
		}
	}
}
