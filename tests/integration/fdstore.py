#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Runs a command as systemd runs a Type=notify service with a descriptor
store, for tests without systemd: NOTIFY_SOCKET, FDSTORE=1 with FDNAME=
(the descriptors are kept; as systemd does, dropped when they poll as
hung up or in error, unless FDPOLL=0), FDSTOREREMOVE=1 (they are closed),
and at a restart the kept descriptors passed from fd 3 on with LISTEN_FDS,
LISTEN_FDNAMES and LISTEN_PID.

SIGUSR1 kills the command (SIGKILL) and takes what it sent before it
died; SIGUSR2 starts it again; SIGTERM
ends both. After every change, STATE_FILE lists the kept names, one a
line, each with "bpf-link" when the descriptor is a BPF link.

usage: fdstore.py STATE_FILE COMMAND [ARG...]
"""
import array
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile

FDS_MAX = 256


def kind(fd):
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return "?"


class Store:
    def __init__(self, state_file, argv):
        self.state_file = state_file
        self.argv = argv
        self.kept = []  # (name, fd)
        self.polled = set()  # kept fds watched for POLLERR, POLLHUP
        self.child = None
        self.dir = tempfile.mkdtemp(prefix="fxt-fdstore.")
        self.path = os.path.join(self.dir, "notify")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.write_state()

    def write_state(self):
        tmp = self.state_file + ".new"
        with open(tmp, "w") as f:
            for name, fd in self.kept:
                f.write(f"{name} {kind(fd)}\n")
        os.rename(tmp, self.state_file)

    def start(self):
        fds = [fd for _, fd in self.kept]
        env = dict(os.environ, NOTIFY_SOCKET=self.path)
        if fds:
            env["LISTEN_FDS"] = str(len(fds))
            env["LISTEN_FDNAMES"] = ":".join(n for n, _ in self.kept)

        def place():
            # Out of the way first, then from fd 3 on, inheritable.
            high = [os.dup(fd) for fd in fds]
            for i, fd in enumerate(high):
                os.dup2(fd, 3 + i)
                os.close(fd)

        argv = self.argv
        if fds:
            argv = ["sh", "-c", 'LISTEN_PID=$$; export LISTEN_PID; exec "$@"',
                    "sh"] + argv
        self.child = subprocess.Popen(argv, env=env, preexec_fn=place,
                                      close_fds=False)

    def kill(self):
        if self.child:
            self.child.kill()
            self.child.wait()
            self.child = None
            self.drain()

    def drain(self):
        # What the command sent before it died is taken before anything
        # else, as systemd reads its notify socket before it handles a
        # service's exit: a restart must not see it arrive late.
        self.sock.setblocking(False)
        try:
            while True:
                self.receive()
        except BlockingIOError:
            pass
        finally:
            self.sock.settimeout(0.1)

    def receive(self):
        fds = array.array("i")
        try:
            msg, anc, _, _ = self.sock.recvmsg(
                4096, socket.CMSG_SPACE(FDS_MAX * fds.itemsize) +
                socket.CMSG_SPACE(12))
        except InterruptedError:
            return
        for level, typ, data in anc:
            if level == socket.SOL_SOCKET and typ == socket.SCM_RIGHTS:
                fds.frombytes(data[:len(data) - len(data) % fds.itemsize])
        fields = dict(line.split("=", 1)
                      for line in msg.decode().split("\n") if "=" in line)
        name = fields.get("FDNAME", "stored")
        if fields.get("FDSTORE") == "1":
            for fd in fds:
                os.set_inheritable(fd, False)
                self.kept.append((name, fd))
                if fields.get("FDPOLL") != "0":
                    self.polled.add(fd)
            self.drop_hung_up()
            self.write_state()
            return
        for fd in fds:
            os.close(fd)
        if fields.get("FDSTOREREMOVE") == "1":
            for n, fd in [k for k in self.kept if k[0] == name]:
                self.polled.discard(fd)
                os.close(fd)
            self.kept = [k for k in self.kept if k[0] != name]
            self.write_state()

    def drop_hung_up(self):
        p = select.poll()
        for fd in self.polled:
            p.register(fd, 0)
        for fd, ev in p.poll(0):
            if ev & (select.POLLERR | select.POLLHUP | select.POLLNVAL):
                self.polled.discard(fd)
                self.kept = [k for k in self.kept if k[1] != fd]
                os.close(fd)


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    store = Store(sys.argv[1], sys.argv[2:])
    wanted = []
    for sig in (signal.SIGUSR1, signal.SIGUSR2, signal.SIGTERM):
        signal.signal(sig, lambda s, _: wanted.append(s))
    store.start()
    while True:
        while wanted:
            sig = wanted.pop(0)
            if sig == signal.SIGUSR1:
                store.kill()
            elif sig == signal.SIGUSR2 and not store.child:
                store.start()
            elif sig == signal.SIGTERM:
                if store.child:
                    store.child.terminate()
                    store.child.wait()
                os.unlink(store.path)
                os.rmdir(store.dir)
                return
        store.sock.settimeout(0.1)
        try:
            store.receive()
        except socket.timeout:
            pass


if __name__ == "__main__":
    main()
