package natsjs

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// TestServerConfAuth runs Debian's nats-server with the auth block of
// AuthConf and TLS, as scripts/nats/ ships them: a client without TLS or
// without a key is refused, the trainer and a worker do their work, and
// the worker is refused the trainer's writes.
func TestServerConfAuth(t *testing.T) {
	if _, err := os.Stat(natsServerBin); err != nil {
		t.Skip("nats-server not installed (Debian package nats-server)")
	}
	dir := t.TempDir()
	keys, _, err := EnsureKeys(filepath.Join(dir, "keys"))
	if err != nil {
		t.Fatal(err)
	}
	conf, err := AuthConf("test", keys)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "auth.conf"), []byte(conf), 0o644)
	ca := writeTestCerts(t, dir)
	port := freePorts(t, 1)[0]
	node := fmt.Sprintf("listen: 127.0.0.1:%d\njetstream { store_dir: %q }\n"+
		"tls { cert_file: %q, key_file: %q, ca_file: %q }\ninclude auth.conf\n", port, filepath.Join(dir, "js"),
		filepath.Join(dir, "server.pem"), filepath.Join(dir, "server-key.pem"), ca)
	os.WriteFile(filepath.Join(dir, "node.conf"), []byte(node), 0o644)
	cmd := exec.Command(natsServerBin, "-c", filepath.Join(dir, "node.conf"), "-l", filepath.Join(dir, "node.log"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	url := fmt.Sprintf("tls://127.0.0.1:%d", port)
	cfg := testConfig(url)
	cfg.CA = ca
	tcfg, wcfg := cfg, cfg
	tcfg.NKeySeed, wcfg.NKeySeed = keys.Trainer, keys.Worker
	waitFor(t, "the server", func() bool {
		nc, err := nats.Connect(url, nats.RootCAs(ca), nats.Timeout(time.Second), mustNkey(t, keys.Trainer))
		if err == nil {
			nc.Close()
		}
		return err == nil
	})
	if nc, err := nats.Connect(url, nats.RootCAs(ca), nats.Timeout(2*time.Second)); err == nil {
		nc.Close()
		t.Fatal("a client without a key connected")
	}
	if nc, err := nats.Connect(fmt.Sprintf("nats://127.0.0.1:%d", port), nats.Timeout(2*time.Second), mustNkey(t, keys.Worker)); err == nil {
		nc.Close()
		t.Fatal("a client without TLS connected")
	}
	tdir := t.TempDir()
	tr := newTrainer(t, tcfg, tdir, nil)
	defer tr.Close()
	if err := tr.PublishConfig(context.Background(), []byte(`{"variant":"sho"}`)); err != nil {
		t.Fatal(err)
	}
	w := newWorker(t, wcfg, nil)
	defer w.Close()
	if c, err := w.Config(context.Background()); err != nil || string(c) != `{"variant":"sho"}` {
		t.Fatalf("the worker's Config = %q, %v", c, err)
	}
	publishAll(t, w, batches(t, 9, 2))
	stop := receive(tr)
	haveBatches(t, tdir, 2)
	stop()
	refusedWrites(t, url, keys.Worker, wcfg, nats.RootCAs(ca))
}

func mustNkey(t *testing.T, seed string) nats.Option {
	t.Helper()
	o, err := nats.NkeyOptionFromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// writeTestCerts writes a CA (ca.pem) and a server certificate for
// 127.0.0.1 signed by it (server.pem, server-key.pem); it returns the CA's
// path.
func writeTestCerts(t *testing.T, dir string) string {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "chuzero test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		KeyUsage: x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	write := func(name, kind string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: b}), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("ca.pem", "CERTIFICATE", caDER)
	write("server.pem", "CERTIFICATE", der)
	write("server-key.pem", "EC PRIVATE KEY", keyDER)
	return filepath.Join(dir, "ca.pem")
}
