package training

import (
	"crypto/sha256"
	"io"
	"path/filepath"

	"chuzero/checkpoints"
	"chuzero/checkpoints/atomicfile"
	"chuzero/encode"
	"chuzero/model"
)

// verifyCopies counts the sample files whose bytes are another's (a file
// copied under a new name: training would load its samples twice) and
// names each as a problem.
func (r *VerifyReport) verifyCopies(files []string) {
	seen := map[[sha256.Size]byte]string{}
	for _, f := range files {
		sum, err := fileDigest(f)
		if err != nil {
			continue // verifySamples reports it
		}
		if first, ok := seen[sum]; ok {
			r.DuplicateSampleFiles++
			r.problem("%s has the same content as %s (a copy: training would load its samples twice)", f, first)
			continue
		}
		seen[sum] = f
	}
}

func fileDigest(path string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	f, err := atomicfile.OpenRegular(path)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// quarantinedSamples lists the sample files the trainer moved to
// samples/quarantine (model.QuarantineDir): they keep their record files
// paired, and verify counts them.
func quarantinedSamples(run checkpoints.Run) []string {
	return visibleFiles(filepath.Join(run.Samples(), model.QuarantineDir), encode.SampleFileExt)
}
