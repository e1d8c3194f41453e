#!/bin/sh
exec "$AC_BUILD/tests/t-utf8"
