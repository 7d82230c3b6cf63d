# SPDX-License-Identifier: GPL-2.0-only
"""A module of py_auto_app.py's, for the filters of python3 -m fxtrace."""


def work(n):
    return sum(square(i) for i in range(n))


def square(i):
    return i * i
