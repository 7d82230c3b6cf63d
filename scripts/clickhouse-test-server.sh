#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A throwaway clickhouse-server for the tests of tracectl export: its own
# configuration and data under DIR, loopback only, free ports.
#
#   clickhouse-test-server.sh start DIR   starts it, waits until it answers
#                                         (up to 180 s), prints its URL; DIR
#                                         must not exist yet
#   clickhouse-test-server.sh stop DIR    stops it and removes DIR
#
# Users: "default" (no password, every right), "reader" (read-only,
# for the refused-insert tests) and "writer" (every right, password
# "fxt-test-secret", for the tests that keep a password out of sight). DIR/url holds the URL, DIR/pid the
# server's pid, DIR/server.log what it said. CH_HTTP_PORT, when set, is
# the HTTP port to take (a client started before the server knows it).
set -eu -o pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
dir=$2

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

write_config() {
	local http=$1 tcp=$2
	cat >"$dir/config.xml" <<EOF
<?xml version="1.0"?>
<yandex>
    <logger><console>1</console><level>warning</level></logger>
    <http_port>$http</http_port>
    <tcp_port>$tcp</tcp_port>
    <listen_host>127.0.0.1</listen_host>
    <path>$dir/data/</path>
    <tmp_path>$dir/tmp/</tmp_path>
    <user_files_path>$dir/user_files/</user_files_path>
    <format_schema_path>$dir/format_schemas/</format_schema_path>
    <users_config>$dir/users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <mark_cache_size>5368709</mark_cache_size>
    <max_concurrent_queries>50</max_concurrent_queries>
    <timezone>UTC</timezone>
</yandex>
EOF
	cat >"$dir/users.xml" <<EOF
<?xml version="1.0"?>
<yandex>
    <profiles>
        <default><max_memory_usage>2000000000</max_memory_usage></default>
        <readonly><readonly>1</readonly></readonly>
    </profiles>
    <users>
        <default>
            <password></password>
            <networks><ip>127.0.0.1</ip></networks>
            <profile>default</profile><quota>default</quota>
        </default>
        <writer>
            <password>fxt-test-secret</password>
            <networks><ip>127.0.0.1</ip></networks>
            <profile>default</profile><quota>default</quota>
        </writer>
        <reader>
            <password></password>
            <networks><ip>127.0.0.1</ip></networks>
            <profile>readonly</profile><quota>default</quota>
        </reader>
    </users>
    <quotas><default></default></quotas>
</yandex>
EOF
}

answers() {
	curl -sf --max-time 5 "$1?query=SELECT%201" 2>/dev/null | grep -qx 1
}

# One try on two free ports: 0 when it answers, 1 when it died (a port
# taken meanwhile), after 180 s of neither: 2.
try_start() {
	local url pid i
	write_config "${CH_HTTP_PORT:-$(free_port)}" "$(free_port)"
	url="http://127.0.0.1:$(sed -n 's:.*<http_port>\(.*\)</http_port>.*:\1:p' "$dir/config.xml")/"
	clickhouse-server --config-file="$dir/config.xml" >"$dir/server.log" 2>&1 &
	pid=$!
	echo "$pid" >"$dir/pid"
	for ((i = 0; i < 360; i++)); do
		if answers "$url"; then
			echo "$url" >"$dir/url"
			echo "$url"
			return 0
		fi
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.5
	done
	return 2
}

start() {
	local tries
	command -v clickhouse-server >/dev/null ||
		{ echo "$0: no clickhouse-server (apt install clickhouse-server)" >&2; exit 77; }
	mkdir "$dir"
	mkdir -p "$dir/data" "$dir/tmp" "$dir/user_files" "$dir/format_schemas"
	for tries in 1 2 3; do
		try_start && return 0
		echo "$0: the server did not come up (try $tries):" >&2
		tail -n 5 "$dir/server.log" >&2 || true
		stop_server
	done
	exit 1
}

stop_server() {
	local pid i
	[ -f "$dir/pid" ] || return 0
	pid=$(cat "$dir/pid")
	rm -f "$dir/pid"
	kill "$pid" 2>/dev/null || return 0
	for ((i = 0; i < 120; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.5
	done
	kill -KILL "$pid" 2>/dev/null || true
}

case "$1" in
start) start ;;
stop) stop_server; rm -rf "$dir" ;;
*) usage ;;
esac
