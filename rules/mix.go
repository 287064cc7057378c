package rules

// Mix64 is the splitmix64 finalizer: a bijection of uint64 whose output
// bits each depend on every input bit. chuzero derives its Zobrist keys,
// game seeds and hashes with it, so that the same inputs give the same
// numbers on every machine.
func Mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Golden is 2^64 divided by the golden ratio: splitmix64's increment.
const Golden = 0x9e3779b97f4a7c15
