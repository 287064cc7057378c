package model

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Peak is an estimate of the machine's float32 arithmetic peak.
type Peak struct {
	GFLOPS        float64
	Cores         int
	FlopsPerCycle int
	GHz           float64
	Explain       string
}

// EstimatePeak estimates the fp32 peak from /proc/cpuinfo: cores (the Go
// scheduler's processors) x FLOPs per cycle per core (2 FMA units x vector
// width x 2: 64 with full-width AVX-512 (AMD family 26 "Zen 5" and later,
// Intel server cores), 32 with AVX2+FMA or AMD's double-pumped AVX-512 of
// family 25, 16 with AVX, 8 otherwise) x the nominal clock (BogoMIPS / 2,
// the TSC rate; turbo clocks may exceed it).
func EstimatePeak() Peak {
	p := Peak{Cores: runtime.GOMAXPROCS(0), FlopsPerCycle: 8, GHz: 2}
	flags, vendor, family, ghz := cpuInfo()
	if ghz > 0 {
		p.GHz = ghz
	}
	isa := "SSE"
	switch {
	case flags["avx512f"] && (vendor != "AuthenticAMD" || family >= 26):
		p.FlopsPerCycle, isa = 64, "AVX-512, 2 x 512-bit FMA"
	case flags["avx512f"]:
		p.FlopsPerCycle, isa = 32, "AVX-512 on 256-bit units"
	case flags["avx2"] && flags["fma"]:
		p.FlopsPerCycle, isa = 32, "AVX2, 2 x 256-bit FMA"
	case flags["avx"]:
		p.FlopsPerCycle, isa = 16, "AVX"
	}
	p.GFLOPS = float64(p.Cores*p.FlopsPerCycle) * p.GHz
	p.Explain = fmt.Sprintf("%d cores x %d FLOP/cycle (%s; %s family %d) x %.3f GHz nominal (BogoMIPS/2)",
		p.Cores, p.FlopsPerCycle, isa, vendor, family, p.GHz)
	return p
}

// cpuInfo reads the flags, vendor, family and nominal clock of the first
// processor in /proc/cpuinfo.
func cpuInfo() (flags map[string]bool, vendor string, family int, ghz float64) {
	flags = map[string]bool{}
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return flags, runtime.GOARCH, 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			if strings.TrimSpace(sc.Text()) == "" && len(flags) > 0 {
				break // first processor done
			}
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "flags":
			for _, fl := range strings.Fields(v) {
				flags[fl] = true
			}
		case "vendor_id":
			vendor = v
		case "cpu family":
			family, _ = strconv.Atoi(v)
		case "bogomips":
			if b, err := strconv.ParseFloat(v, 64); err == nil {
				ghz = b / 2 / 1000
			}
		}
	}
	return flags, vendor, family, ghz
}
