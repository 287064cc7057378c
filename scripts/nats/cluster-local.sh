#!/usr/bin/env bash
# A 3-node JetStream cluster on one machine's loopback, for trying the
# multi-machine setup as it should run: TLS for clients and routes (a CA and
# a certificate for 127.0.0.1 made here with openssl), and only the run's
# two NKEY users (chuzero nats-keys). Ports 4222-4224, routes 6222-6224,
# everything under $1 (default /tmp/chuzero-nats); $2 is the run's name on
# NATS (default: chu). Stop it with: kill $(cat "$dir"/*.pid)
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-/tmp/chuzero-nats} run=${2:-chu}
mkdir -p "$dir/tls"
go run ./cmd/chuzero nats-keys -nats-run "$run" -out "$dir/keys" >/dev/null
if [[ ! -e $dir/tls/ca.pem ]]; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 -subj "/CN=chuzero local CA" \
    -keyout "$dir/tls/ca-key.pem" -out "$dir/tls/ca.pem" 2>/dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=127.0.0.1" \
    -keyout "$dir/tls/node-key.pem" -out "$dir/tls/node.csr" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n' >"$dir/tls/ext.cnf"
  openssl x509 -req -in "$dir/tls/node.csr" -CA "$dir/tls/ca.pem" -CAkey "$dir/tls/ca-key.pem" -CAcreateserial \
    -days 30 -extfile "$dir/tls/ext.cnf" -out "$dir/tls/node.pem" 2>/dev/null
  chmod 600 "$dir/tls/"*-key.pem
fi
cp "$dir/keys/auth.conf" "$dir/auth.conf"
tls="cert_file: \"$dir/tls/node.pem\", key_file: \"$dir/tls/node-key.pem\", ca_file: \"$dir/tls/ca.pem\""
for i in 1 2 3; do
  cat >"$dir/n$i.conf" <<CONF
server_name: n$i
listen: 127.0.0.1:$((4221 + i))
tls { $tls }
include auth.conf
jetstream { store_dir: "$dir/n$i", max_memory_store: 256MB, max_file_store: 8GB }
cluster {
  name: chuzero
  listen: 127.0.0.1:$((6221 + i))
  tls { $tls, verify: true }
  routes: [nats-route://127.0.0.1:6222, nats-route://127.0.0.1:6223, nats-route://127.0.0.1:6224]
}
CONF
  nats-server -c "$dir/n$i.conf" -l "$dir/n$i.log" -P "$dir/n$i.pid" &
done
urls=tls://127.0.0.1:4222,tls://127.0.0.1:4223,tls://127.0.0.1:4224
echo "cluster: $urls"
echo "trainer:  chuzero trainer  -run runs/$run -nats $urls -nats-ca $dir/tls/ca.pem -nats-nkey $dir/keys/trainer.nk -nats-replicas 3"
echo "selfplay: chuzero selfplay -run runs/$run -nats $urls -nats-ca $dir/tls/ca.pem -nats-nkey $dir/keys/worker.nk"
