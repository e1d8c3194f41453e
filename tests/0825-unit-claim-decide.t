#!/bin/sh
exec "$AC_BUILD/tests/t-claim-decide"
