package natsjs

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"
)

// Roles. The trainer owns the run's stream, bucket and object store; a
// self-play worker may publish batch parts and read the bucket and the
// networks, nothing else: it cannot replace the config, the network or the
// resign value, delete or purge the stream, or read what the trainer
// receives (the trainer's replies come on its own inbox prefix).
const (
	RoleTrainer = "trainer"
	RoleWorker  = "worker"
)

// trainerInbox is the trainer's inbox prefix, out of a worker's "_INBOX.>".
const trainerInbox = "_INBOX_chuzero_trainer"

// WorkerPermissions returns the permissions of a self-play worker of run:
// publish the run's two batch subjects; look up, watch and read the
// run's bucket and object store (JetStream API requests on those streams
// only, and their flow control); receive on "_INBOX.>".
func WorkerPermissions(run string) *server.Permissions {
	c := Config{Run: run}
	kv, obj := "KV_"+c.bucket(), "OBJ_"+c.objects()
	allow := []string{c.subject(kindSamples), c.subject(kindGames), "$JS.API.INFO",
		"$JS.API.STREAM.INFO." + c.stream()}
	for _, s := range []string{kv, obj} {
		allow = append(allow, "$JS.API.STREAM.INFO."+s, "$JS.API.STREAM.MSG.GET."+s,
			"$JS.API.DIRECT.GET."+s, "$JS.API.DIRECT.GET."+s+".>",
			"$JS.API.CONSUMER.CREATE."+s, "$JS.API.CONSUMER.CREATE."+s+".>",
			"$JS.API.CONSUMER.INFO."+s+".>", "$JS.API.CONSUMER.DELETE."+s+".>", "$JS.FC."+s+".>")
	}
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Allow: allow},
		Subscribe: &server.SubjectPermission{Allow: []string{"_INBOX.>"}},
	}
}

// Keys are the NKEY seed files of a run's two roles, made once in a
// directory (mode 0600) and reused after: the embedded server admits the
// two public keys only.
type Keys struct {
	Trainer, Worker string // seed file paths
}

// EnsureKeys returns the role keys in dir, generating those missing;
// made reports that it generated any.
func EnsureKeys(dir string) (k Keys, made bool, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Keys{}, false, fmt.Errorf("natsjs: %w", err)
	}
	k = Keys{Trainer: filepath.Join(dir, RoleTrainer+".nk"), Worker: filepath.Join(dir, RoleWorker+".nk")}
	for _, p := range []string{k.Trainer, k.Worker} {
		if _, err := os.Stat(p); err == nil {
			if _, err := publicKey(p); err != nil {
				return Keys{}, false, err
			}
			continue
		}
		kp, err := nkeys.CreateUser()
		if err != nil {
			return Keys{}, false, fmt.Errorf("natsjs: %w", err)
		}
		seed, _ := kp.Seed()
		if err := writeSecret(p, append(seed, '\n')); err != nil {
			return Keys{}, false, err
		}
		made = true
	}
	return k, made, nil
}

// writeSecret writes a file only its owner can read, atomically.
func writeSecret(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*") // mode 0600
	if err != nil {
		return fmt.Errorf("natsjs: %w", err)
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("natsjs: writing %s: %w", path, err)
	}
	return nil
}

// publicKey reads a seed file and returns its public user key.
func publicKey(seedFile string) (string, error) {
	data, err := os.ReadFile(seedFile)
	if err != nil {
		return "", fmt.Errorf("natsjs: %w", err)
	}
	kp, err := nkeys.FromSeed([]byte(strings.TrimSpace(string(data))))
	if err != nil {
		return "", fmt.Errorf("natsjs: %s: %w", seedFile, err)
	}
	pub, err := kp.PublicKey()
	if err != nil || !nkeys.IsValidPublicUserKey(pub) {
		return "", fmt.Errorf("natsjs: %s holds no user key", seedFile)
	}
	return pub, nil
}

// nkeyUsers returns the server's users: the trainer with every
// permission, the worker with WorkerPermissions.
func (k Keys) nkeyUsers(run string) ([]*server.NkeyUser, error) {
	tp, err := publicKey(k.Trainer)
	if err != nil {
		return nil, err
	}
	wp, err := publicKey(k.Worker)
	if err != nil {
		return nil, err
	}
	return []*server.NkeyUser{{Nkey: tp}, {Nkey: wp, Permissions: WorkerPermissions(run)}}, nil
}

// IsLoopback reports whether a listen address (host:port) binds loopback
// only: "localhost", 127.0.0.0/8 or ::1 (an empty host binds every
// interface).
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Redact returns server URLs (comma-separated) with any password or token
// in them replaced, for logs and errors.
func Redact(urls string) string {
	parts := strings.Split(urls, ",")
	for i, p := range parts {
		u, err := url.Parse(strings.TrimSpace(p))
		if err != nil {
			if strings.Contains(p, "@") {
				parts[i] = "(unparsable URL with credentials)"
			}
			continue
		}
		if u.User != nil {
			if _, ok := u.User.Password(); ok {
				u.User = url.UserPassword(u.User.Username(), "xxxxx")
			} else {
				u.User = url.User("xxxxx") // a token
			}
		}
		parts[i] = u.String()
	}
	return strings.Join(parts, ",")
}

// errNoAuth is an embedded server off loopback without keys.
var errNoAuth = errors.New("natsjs: an embedded server off loopback needs keys (EnsureKeys)")

// AuthConf returns a nats-server configuration block (for "include") that
// admits the run's two roles by their NKEYs: the trainer with every
// permission, the worker with WorkerPermissions(run). One run per block:
// the server has one authorization block.
func AuthConf(run string, k Keys) (string, error) {
	tp, err := publicKey(k.Trainer)
	if err != nil {
		return "", err
	}
	wp, err := publicKey(k.Worker)
	if err != nil {
		return "", err
	}
	var perms strings.Builder
	enc := json.NewEncoder(&perms)
	enc.SetEscapeHTML(false) // ">" as itself: the config parser reads no \u escapes
	if err := enc.Encode(WorkerPermissions(run)); err != nil {
		return "", err
	}
	return fmt.Sprintf(`# chuzero run %q: who may connect (written by "chuzero nats-keys").
# The trainer (seed %s) has every permission; a self-play worker (seed
# %s) may publish the run's batches and read its bucket and object store.
authorization {
  users: [
    { nkey: %q }
    { nkey: %q, permissions: %s }
  ]
}
`, run, filepath.Base(k.Trainer), filepath.Base(k.Worker), tp, wp, strings.TrimSpace(perms.String())), nil
}
