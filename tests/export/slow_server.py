#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# A server that answers 2 bytes a second, forever: an HTTP status line and
# headers that never end. Listens on 127.0.0.1, writes its port to the
# file given, serves each connection in a thread until stopped.
import os
import socket
import sys
import threading
import time


def dribble(conn):
    answer = b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"z" * 1000000
    try:
        conn.settimeout(5)
        try:
            conn.recv(65536)
        except OSError:
            pass
        for i in range(0, len(answer), 2):
            conn.sendall(answer[i:i + 2])
            time.sleep(1)
    except OSError:
        pass
    finally:
        conn.close()


def main():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write("%d\n" % s.getsockname()[1])
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    while True:
        conn, _ = s.accept()
        threading.Thread(target=dribble, args=(conn,), daemon=True).start()


main()
