package main

import (
	"fmt"
	"io"
	"path/filepath"

	"chuzero/checkpoints/atomicfile"
	"chuzero/selfplay/transport/natsjs"
)

func init() {
	register(command{name: "nats-keys", summary: "make a run's NATS keys and the nats-server auth block for them", run: runNatsKeys})
}

// runNatsKeys implements "chuzero nats-keys -nats-run NAME -out DIR": the
// trainer's and the worker's NKEY seeds (made once, 0600) and auth.conf,
// the authorization block a nats-server config includes.
func runNatsKeys(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("nats-keys", "nats-keys -nats-run NAME -out DIR", stderr)
	run := fs.String("nats-run", "", "the run's name on NATS (as trainer and workers give it, or their run directory's base name; required)")
	out := fs.String("out", "", "directory for trainer.nk, worker.nk and auth.conf (required; made 0700)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if *run == "" || *out == "" {
		fmt.Fprintln(stderr, "chuzero nats-keys: -nats-run NAME and -out DIR are required")
		return 2
	}
	name := natsjs.RunName(*run)
	keys, made, err := natsjs.EnsureKeys(*out)
	var conf string
	if err == nil {
		conf, err = natsjs.AuthConf(name, keys)
	}
	if err == nil {
		err = atomicfile.Write(filepath.Join(*out, "auth.conf"), []byte(conf))
	}
	if err != nil {
		fmt.Fprintf(stderr, "chuzero nats-keys: %v\n", err)
		return 1
	}
	verb := "kept"
	if made {
		verb = "made"
	}
	fmt.Fprintf(stdout, "run %s: %s %s and %s; wrote %s\n", name, verb, keys.Trainer, keys.Worker, filepath.Join(*out, "auth.conf"))
	fmt.Fprintf(stdout, "nats-server: include %s in its config\ntrainer: -nats-nkey %s\nworkers: -nats-nkey <a copy of %s>\n",
		filepath.Join(*out, "auth.conf"), keys.Trainer, keys.Worker)
	return 0
}
