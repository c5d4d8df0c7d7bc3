"""Code that PostgreSQL's PL/Python functions import (schema `voyager`).

It runs in the server's own Python (Debian's python3), not the project's
virtualenv: `scripts/setup.sh` copies this package into that interpreter's
site-packages. Keep it to the standard library and Debian's python3-* packages.
"""
