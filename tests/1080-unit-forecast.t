#!/bin/sh
exec "$AC_BUILD/tests/t-forecast"
