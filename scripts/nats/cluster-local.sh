#!/usr/bin/env bash
# A 3-node JetStream cluster on one machine's loopback, for trying the
# multi-machine setup (ports 4222-4224, routes 6222-6224, storage under
# $1, default /tmp/chuzero-nats). Stop it with: kill $(cat "$dir"/*.pid)
set -euo pipefail
dir=${1:-/tmp/chuzero-nats}
mkdir -p "$dir"
for i in 1 2 3; do
  cat >"$dir/n$i.conf" <<CONF
server_name: n$i
listen: 127.0.0.1:$((4221 + i))
jetstream { store_dir: "$dir/n$i" }
cluster {
  name: chuzero
  listen: 127.0.0.1:$((6221 + i))
  routes: [nats-route://127.0.0.1:6222, nats-route://127.0.0.1:6223, nats-route://127.0.0.1:6224]
}
CONF
  nats-server -c "$dir/n$i.conf" -l "$dir/n$i.log" -P "$dir/n$i.pid" &
done
echo "cluster: nats://127.0.0.1:4222,nats://127.0.0.1:4223,nats://127.0.0.1:4224"
